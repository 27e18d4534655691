/*
 * harness: start and end of every program. harness_init selects the GPU
 * from the local rank before MPI_Init, initialises MPI (with the thread level
 * asked for), makes MPI calls return errors so MPI_CHECK can name them, sets
 * stdout line buffered, and records the program name for messages.
 */
#ifndef COMMSWEEP_HARNESS_H
#define COMMSWEEP_HARNESS_H

#include <mpi.h>

#include "buf.h"
#include "err.h"
#include "opt.h"
#include "out.h"
#include "stats.h"
#include "sweep.h"
#include "timing.h"
#include "topo.h"
#include "version.h"

struct harness {
    int rank, size;
    const char *prog;    /* basename of argv[0] */
    int thread_provided; /* from MPI_Init_thread */
};

extern struct harness harness;

/* thread_required: MPI_THREAD_SINGLE for most; the level actually provided is
 * in harness.thread_provided (the program decides whether that is enough). */
void harness_init(int *argc, char ***argv, int thread_required);
/* MPI_Finalize and exit with status. */
_Noreturn void harness_finish(int status);

#endif
