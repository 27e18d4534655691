/* harness: program start and end; see harness.h. */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devmem.h"

struct harness harness = {0, 1, "commsweep", MPI_THREAD_SINGLE};

void harness_init(int *argc, char ***argv, int thread_required)
{
    const char *slash = strrchr((*argv)[0], '/');
    harness.prog = slash ? slash + 1 : (*argv)[0];
    err_set_program(harness.prog);
    setvbuf(stdout, NULL, _IOLBF, 0);

    /* The GPU must be chosen before MPI_Init so that CUDA-aware MPI libraries
     * bind their resources to the device this rank will use. */
    devmem_select_before_init();

    if (MPI_Init_thread(argc, argv, thread_required, &harness.thread_provided) != MPI_SUCCESS) {
        fprintf(stderr, "%s: MPI_Init_thread failed\n", harness.prog);
        exit(ERR_STATUS_FAIL);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &harness.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &harness.size);
    out_set_printer(harness.rank == 0);
}

_Noreturn void harness_finish(int status) { err_finish(status); }
