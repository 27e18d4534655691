/* devmem: the part of device handling that does not need CUDA: which local
 * rank the launcher gave this process. */
#include "devmem.h"

#include <stdlib.h>

#include "opt.h"

int devmem_local_rank(void)
{
    /* An explicit LOCAL_RANK (the get_local_rank script) wins over launchers. */
    static const char *const vars[] = {
        "LOCAL_RANK",                 /* plain, or set by get_local_rank */
        "OMPI_COMM_WORLD_LOCAL_RANK", /* Open MPI */
        "MPI_LOCALRANKID",            /* MPICH Hydra */
        "SLURM_LOCALID",              /* Slurm srun */
        "PALS_LOCAL_RANKID",          /* HPE PALS */
        "MV2_COMM_WORLD_LOCAL_RANK",  /* MVAPICH */
        "PMI_LOCAL_RANK",             /* PMI-based launchers */
    };
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        size_t r;
        char err[8];
        if (v && opt_to_size(v, vars[i], 0, 1u << 20, &r, err, sizeof err) == 0)
            return (int)r;
    }
    return -1;
}
