/*
 * precision: --precision=PCT and --max-time=SECONDS, the stopping rule that
 * measures a size until its figure is known well enough instead of for a
 * fixed count. A size runs in batches of iterations; after each batch the
 * ranks that measure it decide together (one MPI_Allreduce: the widest 95%
 * confidence interval of any timed rank and the longest time taken) whether
 * the interval of the figure (its mean, or its median where the program
 * reports a median) is within PCT percent of it, the time is spent or the
 * iteration cap is reached. Every rank computes the next batch from the same
 * reduced numbers, so all run the same iterations and stop together.
 *
 * Counts: the floor is -i (or the program's own count option) when given,
 * otherwise a tenth of the program's default count (at least
 * PRECISION_MIN_FLOOR, at most the default); the cap is PRECISION_GROWTH
 * times the default (or -i), so that a noisy size gets up to ten times the
 * fixed count and a quiet one stops at the floor.
 */
#ifndef COMMSWEEP_PRECISION_H
#define COMMSWEEP_PRECISION_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

#include "opt.h"

#define PRECISION_MIN_FLOOR 10
#define PRECISION_GROWTH 10
#define PRECISION_MAX_ITERATIONS ((size_t)1 << 20)
#define PRECISION_DEFAULT_MAX_TIME 5.0 /* seconds per size */

/* --precision and --max-time, for a program's option table. */
#define PRECISION_NOPTIONS 2
void precision_options(struct opt_spec out[PRECISION_NOPTIONS]);
/* After the options are read: --max-time without --precision, or a
 * figure the program cannot time per iteration (why not NULL), ends the
 * run with status 2 (every rank reads the same options). */
void precision_settle(const char *why_not);
bool precision_on(void);
/* With --precision: a '#' line saying the rule: what is measured in
 * batches (unit: "each size"), its figure ("mean", "median"), and the
 * counts (first batch, cap) in the program's own terms. */
void precision_describe(const char *unit, const char *figure, const char *counts);
double precision_pct(void);
double precision_max_time(void);

/* The iterations of a size: the first batch (floor) and the most it may
 * take (cap), from the program's count at this size and whether the user
 * gave it. Without --precision both are count. */
size_t precision_floor(size_t count, bool given);
size_t precision_cap(size_t count, bool given);

enum precision_figure { PRECISION_MEAN, PRECISION_MEDIAN };

/* What a size's measurement says about its own precision. */
struct precision_result {
    bool on;           /* --precision was given */
    size_t iterations; /* timed iterations of the size */
    bool reached;      /* the interval came within --precision */
    double ci_pct;     /* the widest rank's 95% interval half-width, % of its figure */
};

/* Runs batch(arg, first, n) for iterations first .. first + n - 1; each
 * leaves this rank's time of iteration i in times[i] (times has room for
 * cap). Without --precision one batch of floor. Collective over comm; timed
 * false: this rank's times are not a figure (an untimed root). Returns the
 * iterations run; res (may be NULL) says how it ended. */
typedef void (*precision_batch_fn)(void *arg, size_t first, size_t n);
size_t precision_measure(size_t floor, size_t cap, const double *times, bool timed,
                         enum precision_figure figure, MPI_Comm comm, precision_batch_fn batch,
                         void *arg, struct precision_result *res);

/* The relative half-width (%) of the 95% interval of x[0..n)'s mean or
 * median; scratch has room for n when the figure is the median. INFINITY
 * when n is too small to say, 0 for identical values. */
double precision_interval_pct(const double *x, size_t n, enum precision_figure figure,
                              double *scratch);

#endif
