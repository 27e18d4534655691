/*
 * timing: the clock (MPI_Wtime) and the cross-rank reductions that turn each
 * rank's times into the figures a benchmark reports. Two definitions exist
 * and both are needed:
 *   - per-iteration maximum: an iteration lasts until its slowest rank is done,
 *     so each iteration's time is the max over ranks (alltoall/all);
 *   - per-rank average: each rank averages its iterations, then min/avg/max of
 *     those averages across ranks (what OSU users know).
 */
#ifndef COMMSWEEP_TIMING_H
#define COMMSWEEP_TIMING_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

static inline double timing_now(void) { return MPI_Wtime(); }

/* CPU work lasting `seconds` by the clock: floating-point bursts until the
 * time is up. Under SimGrid's SMPI a simulated computation of that length
 * instead, since real work takes no simulated time there and each clock
 * read would only advance it by a few nanoseconds. */
void timing_busy(double seconds);

/* The CPU work of `flops` floating-point operations just done: nothing
 * natively (the work took its time); under SMPI, where real work takes no
 * simulated time, a simulated computation of that many operations at the
 * simulated host's speed (its platform file's). */
void timing_compute(double flops);

/* Whether the clock is a simulation's (SMPI): a wait for a time must then
 * pass the time (timing_busy), since reading the clock until it comes
 * advances it by nanoseconds a read, a million reads a millisecond. */
static inline bool timing_simulated(void)
{
#ifdef COMMSWEEP_SMPI
    return true;
#else
    return false;
#endif
}

/* Elementwise maximum over the ranks of comm of n local times; result valid
 * on root (global may be NULL elsewhere). Collective. */
void timing_max_per_iteration(const double *local, double *global, size_t n,
                              int root, MPI_Comm comm);

/* Same, result on every rank (used when all ranks must agree on a decision,
 * e.g. a time limit). */
void timing_allmax(const double *local, double *global, size_t n, MPI_Comm comm);

/* min, mean and max of one value across the ranks of comm, valid on root. */
void timing_across_ranks(double local, double *min, double *avg, double *max,
                         int root, MPI_Comm comm);

#endif
