/*
 * clocksync: a global clock for the ranks of a communicator, for timing
 * that needs no barrier (timewin). Each rank's local clock is mapped onto
 * rank 0's by a straight line (offset and drift) fitted to offsets measured
 * with ping-pongs against rank 0: Jones and Koenig's direct method, which
 * ReproMPI offers as JK. Owns the local clock, its test hook, the
 * ping-pongs, the fit points and this rank's model; the arithmetic is
 * clockfit's.
 *
 * The local clock is CLOCK_MONOTONIC_RAW (under SMPI the simulated clock,
 * MPI_Wtime): NTP does not slew it, so the
 * clocks of two hosts differ by an offset and a steady drift, which is what
 * a line can follow. The test hook COMMSWEEP_CLOCK_SKEW=RANK:OFFSET_US:
 * DRIFT_PPM makes that rank's clock read OFFSET_US more, and run DRIFT_PPM
 * faster, than the true clock (from the moment rank 0 called clocksync_init),
 * so a test can check that the model finds what was injected.
 */
#ifndef COMMSWEEP_CLOCKSYNC_H
#define COMMSWEEP_CLOCKSYNC_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

#include "clockfit.h"

#define CLOCKSYNC_ENV "COMMSWEEP_CLOCK_SKEW"

/* How the model is learnt: rounds fit points per rank, each the fastest of
 * exchanges ping-pongs, the rounds spread over at least span seconds (a
 * drift shows over time, not over a burst); drift false fits the offset
 * alone (SKaMPI's model), to show what ignoring drift costs. */
struct clocksync_params {
    size_t rounds, exchanges;
    double span;
    bool drift;
};
#define CLOCKSYNC_DEFAULTS ((struct clocksync_params){32, 10, 0.1, true})

struct clocksync {
    MPI_Comm comm; /* a duplicate, so the ping-pongs meet no other message */
    int rank, nranks;
    struct clocksync_params params;
    bool skewed;               /* the hook applies to this rank */
    struct clockfit_skew skew; /* with base: rank 0's true time at init */
    double base;
    struct clockfit_point *points; /* this rank's offsets against rank 0 */
    size_t npoints, cap;
    double rtt_min;                /* the fastest round trip seen */
    struct clockfit_model model; /* this rank's map onto rank 0's clock */
};

/* Collective over comm: reads the hook (a malformed value is bad usage,
 * status 2) and sets the identity model; learn before mapping. */
void clocksync_init(struct clocksync *c, MPI_Comm comm, const struct clocksync_params *p);
void clocksync_free(struct clocksync *c);

/* The true local clock, without the hook (for tests that know the truth). */
double clocksync_true_local(void);
/* This rank's clock, with the hook's skew where it applies. */
double clocksync_local(const struct clocksync *c);
/* A local reading mapped onto rank 0's clock, and the global time now. */
double clocksync_to_global(const struct clocksync *c, double local);
double clocksync_global(const struct clocksync *c);

/* Collective: forgets the points and fits from params.rounds new rounds. */
void clocksync_learn(struct clocksync *c);
/* Collective: a few more rounds of points, then a fit over all of them, so
 * the offset follows the clocks and the drift is seen over a longer time. */
void clocksync_refresh(struct clocksync *c);

/* Collective: one '#' line on rank 0 with the method and the model's
 * quality (largest drift, largest residual around the fit, round trips). */
void clocksync_describe(const struct clocksync *c);

#endif
