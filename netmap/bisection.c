/*
 * netmap/bisection: effective bisection bandwidth (Netgauge's measure) over
 * --bisections random seeded bisections. In each, the endpoints are
 * shuffled and the first half paired with the second (with an odd count
 * the last one sits out); every pair exchanges windows of --size messages
 * both ways at once, all pairs together. An endpoint's figure is what it
 * sent over the time until its partner had it all (the median of the
 * repetitions); a bisection's is the mean over its endpoints (the
 * effective bisection bandwidth per endpoint) and their sum.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "err.h"
#include "netmap.h"
#include "out.h"
#include "plan.h"
#include "report.h"
#include "stats.h"
#include "transfer.h"
#include "watchdog.h"

static size_t nbisections = 10;

/* Repetitions of a bisection's exchange (repetition 0: the warm-up). */
struct exchange {
    struct netmap *nm;
    int peer;
    bool in;
    double *mbps; /* this endpoint's sample of repetition r at r - 1 */
    bool ok;
};

static void repeat(void *arg, size_t first, size_t n)
{
    struct exchange *x = arg;
    struct netmap *nm = x->nm;
    size_t bytes = nm->cfg.size * nm->cfg.window;
    for (size_t r = first; r < first + n; r++) {
        struct transfer_times t;
        watchdog_enter(r);
        x->ok &= transfer_window(nm, nm->lane, &x->peer, x->in, &x->peer, x->in, nm->cfg.size,
                                 r, &t);
        watchdog_leave();
        double worst = netmap_node_time(nm, x->in ? t.acked : 0);
        if (r)
            x->mbps[r - 1] = netmap_mbps(nm, bytes, worst);
    }
}

static void repeat_timed(void *arg, size_t first, size_t n) { repeat(arg, first + 1, n); }

/* This endpoint's figure in bisection b (NaN when it sits out). */
static bool measure(struct netmap *nm, size_t b, double *figure)
{
    size_t n = (size_t)nm->endpoints, *order = netmap_alloc(n, sizeof *order, NULL), partner;
    plan_permutation(nm->cfg.seed, b, n, order);
    bool in = plan_bisection_partner(order, n, (size_t)nm->me, &partner);
    free(order);
    size_t iters = nm->cfg.iters;
    struct exchange x = {nm, (int)partner, in,
                         netmap_alloc(netmap_room(iters), sizeof *x.mbps, NULL), true};
    watchdog_arm(NULL, "bisection %zu", b);
    repeat(&x, 0, 1);
    size_t done = netmap_repeat(nm->all, iters, x.mbps, in, PRECISION_MEDIAN, repeat_timed, &x,
                                NULL);
    watchdog_disarm();
    *figure = in ? stats_median(x.mbps, done) : NAN;
    free(x.mbps);
    return x.ok;
}

/* The printing rank's row for bisection b from every endpoint's figure;
 * returns the mean per endpoint. */
static double print_bisection(size_t b, const double *fig, size_t n, double *total_out)
{
    double *in = netmap_alloc(n, sizeof *in, NULL);
    size_t count = 0;
    double total = 0;
    for (size_t e = 0; e < n; e++)
        if (!isnan(fig[e])) {
            in[count++] = fig[e];
            total += fig[e];
        }
    double mean = total / (double)count;
    struct stats_summary s;
    stats_summarize(in, count, &s);
    out_line("%zu %zu %.3f %.3f %.3f %.3f %.3f", b, count / 2, mean, s.min, s.median, s.max,
             total);
    report_row_begin("netmap_bisection");
    report_row_size("bisection", b);
    report_row_size("pairs", count / 2);
    report_row_double("bandwidth", mean);
    report_row_double("min", s.min);
    report_row_double("median", s.median);
    report_row_double("max", s.max);
    report_row_double("total", total);
    report_row_end();
    free(in);
    *total_out = total;
    return mean;
}

static bool run(struct netmap *nm)
{
    size_t n = (size_t)nm->endpoints;
    bool root = nm->me == 0 && nm->lane_index == 0;
    double *fig = root ? netmap_alloc(n, sizeof *fig, NULL) : NULL;
    double *means = netmap_alloc(nbisections, sizeof *means, NULL);
    double *totals = netmap_alloc(nbisections, sizeof *totals, NULL);
    bool ok = true;
    for (size_t b = 1; b <= nbisections; b++) {
        double mine;
        ok &= measure(nm, b, &mine);
        if (nm->lane_index == 0)
            MPI_CHECK(MPI_Gather(&mine, 1, MPI_DOUBLE, fig, 1, MPI_DOUBLE, 0, nm->lane));
        if (root)
            means[b - 1] = print_bisection(b, fig, n, &totals[b - 1]);
    }
    out_block_end();
    if (root) {
        out_comment("effective bisection bandwidth per endpoint over %zu bisections: min %.3f, "
                    "median %.3f, max %.3f MB/s; total min %.3f, median %.3f, max %.3f MB/s",
                    nbisections, stats_min(means, nbisections), stats_median(means, nbisections),
                    stats_max(means, nbisections), stats_min(totals, nbisections),
                    stats_median(totals, nbisections), stats_max(totals, nbisections));
        report_row_begin("netmap_bisection_summary");
        report_row_size("bisections", nbisections);
        report_row_double("min", stats_min(means, nbisections));
        report_row_double("median", stats_median(means, nbisections));
        report_row_double("max", stats_max(means, nbisections));
        report_row_double("total_median", stats_median(totals, nbisections));
        report_row_end();
    }
    free(fig);
    free(means);
    free(totals);
    return ok;
}

static void settings(const struct netmap *nm)
{
    const struct netmap_config *c = &nm->cfg;
    out_comment("bisections: %zu random (seed %zu); each pair exchanges %zu messages of %zu "
                "bytes both ways at once, median of %zu repetitions after a warm-up; an "
                "endpoint's figure is what it sent over the time until its partner had it all",
                nbisections, c->seed, c->window, c->size, c->iters);
    if (nm->endpoints % 2)
        out_comment("odd count of endpoints: in each bisection one sits out");
    out_comment("bisection pairs bandwidth[MB/s per endpoint] min median max total[MB/s]");
    report_table("netmap_bisection", "bandwidth", REPORT_HIGHER_BETTER, NULL);
    report_key("bisection", REPORT_UNIT_COUNT);
    report_value("pairs", REPORT_UNIT_COUNT);
    netmap_report_values(REPORT_UNIT_MB_S, "bandwidth", "min", "median", "max", "total", NULL);
    report_no_iterations();
    report_table("netmap_bisection_summary", "median", REPORT_HIGHER_BETTER, NULL);
    report_value("bisections", REPORT_UNIT_COUNT);
    netmap_report_values(REPORT_UNIT_MB_S, "min", "median", "max", "total_median", NULL);
    report_no_iterations();
}

int main(int argc, char **argv)
{
    const struct opt_spec options[] = {
        {"bisections", 0, OPT_SIZE, &nbisections, "N", "random bisections (10)", 1, 100000, false, NULL, NULL},
    };
    const struct netmap_program prog = {
        "bisection", "Network map: effective bisection bandwidth over random bisections",
        "Effective bisection bandwidth: in each seeded random bisection every endpoint of\n"
        "one half exchanges with a partner in the other at once; each bisection's figures\n"
        "and the min, median and max over them.",
        options, 1, 2, true, "a bisection's row summarises its endpoints (min, median, max), not repetitions", settings, run, "median"};
    netmap_main(argc, argv, &prog);
}
