/* devmem: the part of device handling that needs no vendor runtime: the
 * copies every caller uses (the vendor's raw copy, then a synchronisation
 * where it may return early), which local rank the launcher gave this
 * process, and whether the MPI library can read device pointers. See
 * devmem.h. */
#include "devmem.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"

#if defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h> /* Open MPI: MPIX_Query_cuda_support, MPIX_Query_rocm_support */
#endif
#endif

/* The synchronisation rule of devmem.h lives here, once for every vendor. */
static int landed(int rc, const char **err) { return rc ? rc : devmem_synchronize(err); }

int devmem_to_device(void *dst, const void *src, size_t bytes, const char **err)
{
    return landed(devmem_raw_to_device(dst, src, bytes, err), err);
}

/* A copy to the host waits for the device itself (cudaMemcpy, hipMemcpy and
 * acc_memcpy_from_device return once it is complete). */
int devmem_to_host(void *dst, const void *src, size_t bytes, const char **err)
{
    return devmem_raw_to_host(dst, src, bytes, err);
}

int devmem_copy(void *dst, const void *src, size_t bytes, const char **err)
{
    return landed(devmem_raw_copy(dst, src, bytes, err), err);
}

int devmem_memset(void *dst, int value, size_t bytes, const char **err)
{
    return landed(devmem_raw_memset(dst, value, bytes, err), err);
}

int devmem_copy_pieces(void *dst, const void *src, const struct devmem_piece *pieces, size_t n,
                       const char **err)
{
    for (size_t i = 0; i < n; i++)
        if (devmem_raw_copy((char *)dst + pieces[i].to, (const char *)src + pieces[i].from,
                            pieces[i].bytes, err))
            return -1;
    return devmem_synchronize(err);
}

int devmem_local_rank(void)
{
    /* The launcher that started this process knows best. LOCAL_RANK comes
     * last: torchrun and other frameworks set it for their own processes,
     * so it may be stale or mean something else under mpirun or srun. */
    static const char *const vars[] = {
        "OMPI_COMM_WORLD_LOCAL_RANK", /* Open MPI */
        "MPI_LOCALRANKID",            /* MPICH Hydra */
        "SLURM_LOCALID",              /* Slurm srun */
        "PALS_LOCAL_RANKID",          /* HPE PALS */
        "MV2_COMM_WORLD_LOCAL_RANK",  /* MVAPICH */
        "PMI_LOCAL_RANK",             /* PMI-based launchers */
        "LOCAL_RANK",                 /* plain, torchrun, or get_local_rank */
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

const char *devmem_api_name(enum devmem_api api)
{
    return api == DEVMEM_API_CUDA ? "cuda" : api == DEVMEM_API_HIP ? "hip" : "host";
}

/* What the library itself says, or -1. */
static int library_answer(enum devmem_api api, const char **how)
{
#if defined(MPIX_CUDA_AWARE_SUPPORT)
    if (api == DEVMEM_API_CUDA) {
        *how = "MPIX_Query_cuda_support";
        return MPIX_Query_cuda_support() ? 1 : 0;
    }
#endif
#if defined(MPIX_ROCM_AWARE_SUPPORT)
    if (api == DEVMEM_API_HIP) {
        *how = "MPIX_Query_rocm_support";
        return MPIX_Query_rocm_support() ? 1 : 0;
    }
#endif
#if defined(MPIX_GPU_SUPPORT_CUDA) && defined(MPIX_GPU_SUPPORT_HIP)
    int yes = 0;
    if (MPIX_GPU_query_support(api == DEVMEM_API_HIP ? MPIX_GPU_SUPPORT_HIP
                                                     : MPIX_GPU_SUPPORT_CUDA,
                               &yes) == MPI_SUCCESS) {
        *how = "MPIX_GPU_query_support";
        return yes ? 1 : 0;
    }
#endif
    (void)api;
    *how = "no query in this MPI library";
    return -1;
}

int devmem_mpi_aware(enum devmem_api api, const char **how)
{
    const char *dummy;
    if (!how)
        how = &dummy;
    const char *env = getenv("COMMSWEEP_GPU_AWARE");
    if (env && (strcmp(env, "0") == 0 || strcmp(env, "1") == 0)) {
        *how = "COMMSWEEP_GPU_AWARE";
        return env[0] == '1';
    }
    if (api == DEVMEM_API_HOST) {
        *how = "host memory";
        return 1;
    }
    int answer = library_answer(api, how);
    /* Cray MPICH reads device memory when this is set (its GTL is linked). */
    const char *cray = getenv("MPICH_GPU_SUPPORT_ENABLED");
    if (answer < 0 && cray && strcmp(cray, "1") == 0) {
        *how = "MPICH_GPU_SUPPORT_ENABLED=1";
        return 1;
    }
    return answer;
}
