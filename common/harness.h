/*
 * harness: start and end of every program. harness_init starts MPI (with
 * the thread level asked for), makes MPI calls return errors so MPI_CHECK
 * can name them, sets stdout fully buffered (out.h flushes every line and
 * checks the write), and records the program name for messages. It touches no GPU: buf_require selects the device when a
 * program asks for device memory.
 *
 * Programs that read their options before MPI starts (the OSU-style ones,
 * whose -I starts MPI in a session) take the two steps on their own:
 * harness_prepare, then harness_start with the model (mpistart.h).
 */
#ifndef COMMSWEEP_HARNESS_H
#define COMMSWEEP_HARNESS_H

#include <mpi.h>
#include <stdbool.h>

#include "buf.h"
#include "err.h"
#include "mpistart.h"
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
    int thread_provided; /* from MPI_Init_thread, or the session's info */
    MPI_Comm comm;       /* all ranks: MPI_COMM_WORLD, or the session's (mpistart_comm) */
    double start_seconds; /* how long the MPI start call(s) took on this rank */
};

extern struct harness harness;

/* thread_required: MPI_THREAD_SINGLE for most; the level actually provided is
 * in harness.thread_provided (the program decides whether that is enough).
 * The world model: harness_prepare and harness_start(MPISTART_WORLD). */
void harness_init(int *argc, char ***argv, int thread_required);
/* Names the program after argv[0], sets stdout's buffering and keeps the
 * command line for the JSON header (report.h); no MPI. */
void harness_prepare(char **argv);
/* Starts MPI the given way (a failure to start ends
 * the process with one line and status 1) and fills struct harness. */
void harness_start(int *argc, char ***argv, int thread_required, enum mpistart_model model);
/* Whether harness_start (or harness_init) ran. */
bool harness_started(void);
/* Ends MPI and exits with status. */
_Noreturn void harness_finish(int status);

#endif
