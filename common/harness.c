/* harness: program start and end; see harness.h. */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report.h"

struct harness harness = {0, 1, "commsweep", MPI_THREAD_SINGLE, MPI_COMM_NULL, 0.0};
static bool started;

void harness_prepare(char **argv)
{
    const char *slash = strrchr(argv[0], '/');
    harness.prog = slash ? slash + 1 : argv[0];
    err_set_program(harness.prog);
    /* Fully buffered: the printers flush each line themselves (out.h),
     * so a write fails in a flush whose errno says why, not inside a
     * printf that leaves only the error flag. */
    setvbuf(stdout, NULL, _IOFBF, BUFSIZ);
    /* A program that returns from main still ends non-zero when its
     * output could not be written. */
    static bool registered;
    if (!registered && atexit(err_exit_check) == 0)
        registered = true;
    /* The command line as given, for the JSON header: before MPI starts
     * and before getopt reorders it. */
    int argc = 0;
    while (argv[argc])
        argc++;
    report_command(argc, argv);
}

/* MPI_Wtime is not there before MPI starts. */
static double monotonic_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void harness_start(int *argc, char ***argv, int thread_required, enum mpistart_model model)
{
    /* No GPU is touched here: buf_require selects one when a program asks
     * for device memory, so host runs create no GPU context (devmem.h). */
    const char *failed = "";
    double before = monotonic_seconds();
    int rc = mpistart_begin(argc, argv, thread_required, model, &harness.thread_provided,
                            &failed);
    harness.start_seconds = monotonic_seconds() - before;
    if (rc != MPI_SUCCESS) {
        char text[MPI_MAX_ERROR_STRING] = "";
        int len = 0;
        MPI_Error_string(rc, text, &len);
        fprintf(stderr, "%s: %s failed: %s\n", harness.prog, failed, text);
        if (mpistart_running())
            mpistart_abort(ERR_STATUS_FAIL);
        exit(ERR_STATUS_FAIL);
    }
    started = true;
    harness.comm = mpistart_comm();
    MPI_Comm_rank(harness.comm, &harness.rank);
    MPI_Comm_size(harness.comm, &harness.size);
    out_set_printer(harness.rank == 0);
}

void harness_init(int *argc, char ***argv, int thread_required)
{
    harness_prepare(*argv);
    harness_start(argc, argv, thread_required, MPISTART_WORLD);
}

bool harness_started(void) { return started; }

_Noreturn void harness_finish(int status) { err_finish(status); }
