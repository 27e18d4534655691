/*
 * clock_check: how far clocksync's model is from the truth. On one host
 * every rank reads the same CLOCK_MONOTONIC_RAW, so with the skew hook
 * (COMMSWEEP_CLOCK_SKEW) each rank knows exactly what rank 0's clock reads
 * whenever it reads its own: the model's error is measurable. The model is
 * learnt, then checked at once, after half the horizon, after the horizon,
 * and after a refresh; each check's largest error over the ranks is a data
 * line, each rank's true and fitted offset and drift a '#' line. Exit status
 * 1 when an error exceeds the tolerance.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "clocksync.h"
#include "harness.h"

struct check_opts {
    size_t rounds, exchanges;
    double span_ms, horizon_ms, tolerance_us;
    bool offset_only;
};

/* Rank 0's clock at true time t, skewed when the hook names it (without a
 * hook the skew is all zero): what the model must give. */
static double reference_at(const struct clocksync *c, double t)
{
    return c->skew.rank == 0 ? clockfit_skewed(&c->skew, t, c->base) : t;
}

/* This rank's model error now (seconds), and the true offset and drift of
 * rank 0's clock against its own. */
static double model_error(const struct clocksync *c, double *offset, double *drift)
{
    double t = clocksync_true_local();
    double local = c->skewed ? clockfit_skewed(&c->skew, t, c->base) : t;
    double truth = reference_at(c, t);
    *offset = truth - local;
    double rate0 = reference_at(c, t + 1) - reference_at(c, t);
    double rate = c->skewed ? 1 + c->skew.drift : 1;
    *drift = rate0 / rate - 1;
    return clocksync_to_global(c, local) - truth;
}

static void sleep_ms(double ms)
{
    struct timespec s = {(time_t)(ms / 1e3), (long)(fmod(ms, 1e3) * 1e6)};
    nanosleep(&s, NULL);
}

/* One check: the largest error over the ranks as a data line; returns it
 * (rank 0) and leaves this rank's truth in offset and drift. */
static double check(const struct clocksync *c, const char *when, double elapsed_ms,
                    double *offset, double *drift, double *mine)
{
    *mine = model_error(c, offset, drift);
    struct {
        double err;
        int rank;
    } in = {fabs(*mine), c->rank}, out;
    MPI_CHECK(MPI_Reduce(&in, &out, 1, MPI_DOUBLE_INT, MPI_MAXLOC, 0, c->comm));
    out_line("%-10s %10.1f %12.3f %6d", when, elapsed_ms, out.err * 1e6, out.rank);
    return out.err;
}

int main(int argc, char **argv)
{
    harness_init(&argc, &argv, MPI_THREAD_SINGLE);
    struct clocksync_params p = CLOCKSYNC_DEFAULTS;
    struct check_opts o = {p.rounds, p.exchanges, p.span * 1e3, 100, 1, false};
    const struct opt_spec specs[] = {
        {.long_name = "rounds", .kind = OPT_SIZE, .dest = &o.rounds, .metavar = "N",
         .help = "fit points per rank", .min = 2, .max = 100000},
        {.long_name = "exchanges", .kind = OPT_SIZE, .dest = &o.exchanges, .metavar = "N",
         .help = "ping-pongs per fit point (the fastest counts)", .min = 1, .max = 100000},
        {.long_name = "span", .kind = OPT_DOUBLE, .dest = &o.span_ms, .metavar = "MS",
         .help = "the rounds spread over at least MS milliseconds", .allow_zero = true},
        {.long_name = "horizon", .kind = OPT_DOUBLE, .dest = &o.horizon_ms, .metavar = "MS",
         .help = "check the model until MS milliseconds after the fit (default 100)"},
        {.long_name = "tolerance", .kind = OPT_DOUBLE, .dest = &o.tolerance_us, .metavar = "US",
         .help = "largest error allowed, microseconds (default 1)"},
        {.long_name = "offset-only", .kind = OPT_FLAG, .dest = &o.offset_only,
         .help = "fit the offset alone (drift 0): must fail under an injected drift"},
    };
    const struct opt_usage usage = {
        "[options]", "Learns clocksync's model and measures its error against the true "
                     "clocks of one host (use with COMMSWEEP_CLOCK_SKEW=RANK:OFFSET_US:DRIFT_PPM).",
        false, false, NULL, "clock_check checks the clock model and writes no rows", NULL};
    int pos = opt_parse_or_exit(argc, argv, specs, sizeof specs / sizeof specs[0], &usage);
    if (pos < argc)
        err_usage("unexpected argument '%s'", argv[pos]);
    if (o.span_ms > 1e6 || o.horizon_ms > 1e6)
        err_usage("--span and --horizon take at most 1000000 ms");
    p = (struct clocksync_params){o.rounds, o.exchanges, o.span_ms * 1e-3, !o.offset_only};

    struct clocksync c;
    clocksync_init(&c, harness.comm, &p);
    out_header("clock model check", argc, argv);
    const char *hook = getenv(CLOCKSYNC_ENV);
    out_comment("%s=%s; tolerance %.3f us", CLOCKSYNC_ENV, hook ? hook : "", o.tolerance_us);
    clocksync_learn(&c);
    clocksync_describe(&c);
    out_comment("when  elapsed_ms  largest_error_us  rank");
    double offset, drift, mine, worst = 0;
    double fitted = clocksync_true_local();
    worst = fmax(worst, check(&c, "fit", 0, &offset, &drift, &mine));
    sleep_ms(o.horizon_ms / 2);
    worst = fmax(worst, check(&c, "half", (clocksync_true_local() - fitted) * 1e3, &offset,
                              &drift, &mine));
    sleep_ms(o.horizon_ms / 2);
    worst = fmax(worst, check(&c, "horizon", (clocksync_true_local() - fitted) * 1e3, &offset,
                              &drift, &mine));
    clocksync_refresh(&c);
    worst = fmax(worst, check(&c, "refresh", (clocksync_true_local() - fitted) * 1e3, &offset,
                              &drift, &mine));

    char line[200];
    double local = clocksync_local(&c);
    snprintf(line, sizeof line,
             "offset true %.3f us, model %.3f us; drift true %.3f ppm, model %.3f ppm",
             offset * 1e6, (clocksync_to_global(&c, local) - local) * 1e6, drift * 1e6,
             c.model.drift * 1e6);
    out_comment_per_rank(harness.comm, "", NULL, line, sizeof line);
    clocksync_free(&c);
    if (harness.rank == 0 && worst * 1e6 > o.tolerance_us)
        err_print("the clock model is off by %.3f us, more than %.3f us", worst * 1e6,
                  o.tolerance_us);
    MPI_CHECK(MPI_Bcast(&worst, 1, MPI_DOUBLE, 0, harness.comm));
    harness_finish(worst * 1e6 > o.tolerance_us ? ERR_STATUS_FAIL : ERR_STATUS_OK);
}
