/* precision: see precision.h. */
#include "precision.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "harness.h"
#include "out.h"
#include "stats.h"
#include "timing.h"

static double target_pct;  /* 0: off */
static double max_time; /* 0: not given, PRECISION_DEFAULT_MAX_TIME */

void precision_options(struct opt_spec out[PRECISION_NOPTIONS])
{
    out[0] = (struct opt_spec){
        .long_name = "precision", .kind = OPT_DOUBLE, .dest = &target_pct, .metavar = "PCT",
        .max = 100,
        .help = "measure each size (netmap: each measurement) in batches until the 95% "
                "confidence interval of its figure is within PCT percent of it (default: "
                "fixed counts)"};
    out[1] = (struct opt_spec){
        .long_name = "max-time", .kind = OPT_DOUBLE, .dest = &max_time, .metavar = "SECONDS",
        .max = OPT_SECONDS_MAX,
        .help = "with --precision: stop after SECONDS even when imprecise (5)"};
}

void precision_settle(const char *why_not)
{
    if (max_time > 0 && target_pct <= 0)
        err_usage("--max-time bounds the batches of --precision: give --precision too");
    if (target_pct > 0 && why_not)
        err_usage("--precision: %s", why_not);
}

bool precision_on(void) { return target_pct > 0; }

void precision_describe(const char *unit, const char *figure, const char *counts)
{
    if (!precision_on())
        return;
    out_comment("precision: %s in batches until the 95%% confidence interval of its %s is "
                "within %g%% of it, or after %g s; %s",
                unit, figure, target_pct, precision_max_time(), counts);
}

double precision_pct(void) { return target_pct; }
double precision_max_time(void) { return max_time > 0 ? max_time : PRECISION_DEFAULT_MAX_TIME; }

size_t precision_floor(size_t count, bool given)
{
    if (!precision_on() || given)
        return count;
    size_t floor = count / PRECISION_GROWTH;
    floor = floor < PRECISION_MIN_FLOOR ? PRECISION_MIN_FLOOR : floor;
    return floor < count ? floor : count;
}

size_t precision_cap(size_t count, bool given)
{
    (void)given;
    if (!precision_on())
        return count;
    size_t cap = count <= PRECISION_MAX_ITERATIONS / PRECISION_GROWTH
                     ? count * PRECISION_GROWTH
                     : PRECISION_MAX_ITERATIONS;
    return cap > count ? cap : count;
}

/* The distribution-free interval of the median: the order statistics
 * n/2 -+ 1.96 sqrt(n)/2 (the normal approximation to the binomial). */
static double median_interval_pct(const double *x, size_t n, double *scratch)
{
    double reach = 1.96 * sqrt((double)n) / 2.0;
    double lo = floor((double)n / 2.0 - reach), hi = ceil((double)n / 2.0 + reach);
    if (lo < 1 || hi > (double)n)
        return INFINITY;
    memcpy(scratch, x, n * sizeof *x);
    stats_sort(scratch, n);
    double median = stats_percentile_sorted(scratch, n, 50);
    double half = (scratch[(size_t)hi - 1] - scratch[(size_t)lo - 1]) / 2.0;
    if (half <= 0)
        return 0;
    return median > 0 ? 100.0 * half / median : INFINITY;
}

double precision_interval_pct(const double *x, size_t n, enum precision_figure figure,
                              double *scratch)
{
    if (n < 2)
        return INFINITY;
    if (figure == PRECISION_MEDIAN)
        return median_interval_pct(x, n, scratch);
    double sd = stats_stddev(x, n), mean = stats_mean(x, n);
    if (sd <= 0)
        return 0;
    return mean > 0 ? 100.0 * stats_t_halfwidth(sd, n, 0.95) / mean : INFINITY;
}

/* ---- test hooks ---- */

/* COMMSWEEP_PRECISION_CLOCK, a fake clock for the decision only (the
 * times a row reports are the measured ones): "quiet" makes every
 * iteration of every rank take the same time, so each size stops after
 * its first batch; "noisy:R" spreads rank R's iterations evenly between 1
 * and 4 time units by a hash of their number, so that neither the mean
 * nor the median of a few hundred comes within a few percent: a run with
 * a small --precision goes on until the cap or the time stops it. Unset or
 * unreadable: the real clock. COMMSWEEP_PRECISION_TRACE=1: every rank
 * writes its count of each size on stderr, so that a test sees all ranks
 * stop at the same iteration. */
enum fake_clock { CLOCK_REAL, CLOCK_QUIET, CLOCK_NOISY };
static enum fake_clock fake = CLOCK_REAL;
static bool hooks_read, trace;

static void read_hooks(void)
{
    if (hooks_read)
        return;
    hooks_read = true;
    const char *c = getenv("COMMSWEEP_PRECISION_CLOCK");
    int rank = -1;
    if (c && strcmp(c, "quiet") == 0)
        fake = CLOCK_QUIET;
    else if (c && sscanf(c, "noisy:%d", &rank) == 1 && rank == harness.rank)
        fake = CLOCK_NOISY;
    const char *t = getenv("COMMSWEEP_PRECISION_TRACE");
    trace = t && strcmp(t, "1") == 0;
}

static double fake_time(size_t i)
{
    if (fake == CLOCK_QUIET)
        return 1.0;
    uint64_t z = (uint64_t)i + 0x9e3779b97f4a7c15u;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return 1.0 + 3.0 * (double)((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
}

/* This rank's interval over times[0..n) (or the fake clock's); 0 where
 * its times are no figure. scratch has room for 2n. */
static double local_interval(const double *times, size_t n, bool timed,
                             enum precision_figure figure, double *scratch)
{
    if (!timed)
        return 0;
    const double *x = times;
    if (fake != CLOCK_REAL) {
        for (size_t i = 0; i < n; i++)
            scratch[n + i] = fake_time(i);
        x = scratch + n;
    }
    return precision_interval_pct(x, n, figure, scratch);
}

/* The next batch: what the interval's shrinking as 1/sqrt(n) predicts is
 * still missing (a fifth more, against overshooting by a hair), at least
 * an eighth of what was done, at most as much again, and no more than the
 * time and the cap leave room for. The same on every rank: from the
 * reduced numbers only. */
static size_t next_batch(size_t done, size_t cap, double ci, double elapsed)
{
    double ratio = ci / target_pct, want = (double)done;
    if (isfinite(ratio))
        want = (double)done * (ratio * ratio * 1.2 - 1.0);
    double least = (double)(done / 8 ? done / 8 : 1);
    want = want < least ? least : want > (double)done ? (double)done : want;
    if (elapsed > 0) {
        double room = (precision_max_time() - elapsed) / (elapsed / (double)done);
        want = want > room ? room : want;
    }
    size_t n = want < 1 ? 1 : (size_t)want;
    return n < cap - done ? n : cap - done;
}

size_t precision_measure(size_t floor, size_t cap, const double *times, bool timed,
                         enum precision_figure figure, MPI_Comm comm, precision_batch_fn batch,
                         void *arg, struct precision_result *res)
{
    struct precision_result r = {.on = precision_on(), .iterations = floor};
    if (!r.on) {
        batch(arg, 0, floor);
        if (res)
            *res = r;
        return floor;
    }
    read_hooks();
    double *scratch = cap <= SIZE_MAX / 2 ? calloc(2 * cap, sizeof *scratch) : NULL;
    /* comm may be part of the job (a group, the victims): a rank alone
     * ends it, as any other allocation that fails mid-run. */
    if (!scratch)
        err_fatal("--precision: cannot allocate room for %zu iterations' times", cap);
    double start = timing_now();
    size_t done = 0, n = floor;
    for (;;) {
        batch(arg, done, n);
        done += n;
        double local[2] = {local_interval(times, done, timed, figure, scratch),
                           timing_now() - start};
        double all[2];
        MPI_CHECK(MPI_Allreduce(local, all, 2, MPI_DOUBLE, MPI_MAX, comm));
        r.ci_pct = all[0];
        r.reached = all[0] <= target_pct;
        if (r.reached || all[1] >= precision_max_time() || done >= cap)
            break;
        n = next_batch(done, cap, all[0], all[1]);
    }
    free(scratch);
    r.iterations = done;
    if (trace)
        fprintf(stderr, "precision trace: rank %d: %zu iterations, %s\n", harness.rank, done,
                r.reached ? "reached" : "not reached");
    if (res)
        *res = r;
    return done;
}
