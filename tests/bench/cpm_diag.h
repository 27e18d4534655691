/* cpm_diag: what the CPM diagnostic tools of tests/bench share (cpm_curve,
 * cpm_passes, cpm_lmo_dump measure with libcpm; cpm_lmo_replay reads the
 * dump): their start, their positional arguments and refusal, and the
 * precision they measure with. Owns nothing. */
#ifndef COMMSWEEP_CPM_DIAG_H
#define COMMSWEEP_CPM_DIAG_H

#include <stddef.h>

#include "cpm_measure.h"

/* A measuring tool's positional counts, the last of them MAX_REPS. */
enum { CPM_DIAG_MAX_ARGS = 3 };
struct cpm_diag_args {
    int rank, n;                     /* this rank, the processes */
    size_t v[CPM_DIAG_MAX_ARGS];     /* the counts, defaults where not given */
    struct cpm_precision precision;  /* libcpm's default, at most MAX_REPS */
};
/* MPI_Init, then the rank, the process count and nargs counts from argv
 * (dflt[k] where not given, at least least[k]); usage and status 2 with
 * fewer than min_procs processes, more than nargs arguments or one that is
 * no such count. */
void cpm_diag_start(int *argc, char ***argv, int min_procs, int nargs, const size_t *dflt,
                    const size_t *least, const char *usage, struct cpm_diag_args *a);
/* The line on stderr (rank 0 only when MPI is up) and status 2 (after
 * MPI_Finalize when MPI is up). */
_Noreturn void cpm_diag_usage(const char *usage);
/* |pred - truth| / truth. */
double cpm_diag_rel_err(double pred, double truth);

#endif
