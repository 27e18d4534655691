/*
 * barrier_skew: preloaded (LD_PRELOAD) into a benchmark's ranks, it makes
 * one rank leave every MPI_Barrier a known time late: an exit skew of
 * known size, for tests/bench/coll_timing.sh to see which timing method
 * carries it into its numbers. COMMSWEEP_BARRIER_SKEW=RANK:US (rank of
 * MPI_COMM_WORLD, microseconds); without it, or malformed, nothing changes.
 * Through the profiling interface (PMPI), so it needs no change to the
 * programs.
 */
#include <mpi.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int MPI_Barrier(MPI_Comm comm)
{
    int rc = PMPI_Barrier(comm);
    const char *spec = getenv("COMMSWEEP_BARRIER_SKEW");
    char *end;
    long rank = spec ? strtol(spec, &end, 10) : -1;
    if (rank < 0 || *end != ':')
        return rc;
    double us = strtod(end + 1, NULL);
    int me;
    PMPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me != rank || !(us > 0))
        return rc;
    /* Spin, not sleep: the delay must be the one asked for. */
    for (double until = now() + us * 1e-6; now() < until;)
        ;
    return rc;
}
