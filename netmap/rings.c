/*
 * netmap/rings: HPCC b_eff's ring figures. On the natural ring (endpoints in
 * order) and on --rings random rings (seeded permutations), every endpoint
 * sends to its right neighbour while receiving from its left, then to its
 * left while receiving from its right (an MPI_Sendrecv each), at once on
 * the whole ring. A loop's time is the mean of the endpoints' times for it
 * (the ring couples them: a slow link delays every loop after it), and the
 * figures come from the mean over the loops (their total time, as b_eff's):
 * latency is half a loop of --lat-size messages (two messages per loop),
 * bandwidth the two --size messages each endpoint sends per loop over the
 * loop's time, per endpoint. The random/natural ratio says what neighbours far
 * apart cost: near 1 on a flat network, larger on a torus or a tapered
 * tree.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "netmap.h"
#include "out.h"
#include "plan.h"
#include "report.h"
#include "stats.h"
#include "transfer.h"
#include "watchdog.h"

static size_t nrings = 8;

struct ring_figures {
    double latency, bandwidth; /* us, MB/s per endpoint, from the mean loop time */
};

/* Timed loops of one ring, a batch of --precision or all of them. */
struct ring_loops {
    struct netmap *nm;
    int left, right;
    size_t bytes;
    double *loop;
    bool ok;
};

static void run_loops(void *arg, size_t first, size_t n)
{
    struct ring_loops *l = arg;
    watchdog_enter(1 + first);
    l->ok &= transfer_ring(l->nm, l->nm->lane, l->left, l->right, l->bytes, n, 1 + first,
                           l->loop + first);
    watchdog_leave();
}

/* One ring's loops of bytes after an untimed warm-up: per-loop times, the
 * mean over the endpoints, on the printing rank (loop has room for
 * netmap_room(rounds)); *done: how many. */
static bool loops(struct netmap *nm, int left, int right, size_t bytes, size_t rounds,
                  size_t warm, double *loop, size_t *done)
{
    double *scratch = netmap_alloc(warm, sizeof *scratch, NULL);
    watchdog_enter(0);
    bool ok = transfer_ring(nm, nm->lane, left, right, bytes, warm, 0, scratch);
    watchdog_leave();
    free(scratch);
    struct ring_loops l = {nm, left, right, bytes, loop, true};
    *done = netmap_repeat(nm->all, rounds, loop, true, PRECISION_MEAN, run_loops, &l, NULL);
    netmap_mean_samples(nm, loop, *done);
    return ok && l.ok;
}

/* The JSON row of a ring's figure (table netmap_ring_<figure>, its value
 * named figure), with the spread of its samples; the spread's text columns
 * into spread. */
static void ring_row(const char *figure, const char *kind, size_t ring, double value,
                     const double *samples, size_t n, char *spread, size_t len)
{
    char table[32];
    snprintf(table, sizeof table, "netmap_ring_%s", figure);
    report_row_begin(table);
    report_row_string("ring", kind);
    report_row_size("number", ring);
    report_row_double(figure, value);
    netmap_row_spread(samples, n, spread, len);
    report_row_end();
}

static bool measure_ring(struct netmap *nm, size_t ring, struct ring_figures *f)
{
    size_t n = (size_t)nm->endpoints, *order = netmap_alloc(n, sizeof *order, NULL);
    if (ring == 0)
        for (size_t i = 0; i < n; i++)
            order[i] = i;
    else
        plan_permutation(nm->cfg.seed, ring, n, order);
    size_t left, right;
    plan_ring_neighbours(order, n, (size_t)nm->me, &left, &right);
    free(order);
    const struct netmap_config *c = &nm->cfg;
    double *lat = netmap_alloc(netmap_room(c->lat_iters), sizeof *lat, NULL);
    double *bw = netmap_alloc(netmap_room(c->iters), sizeof *bw, NULL);
    size_t nlat, nbw;
    char name[32];
    snprintf(name, sizeof name, ring ? "random ring %zu" : "natural ring", ring);
    watchdog_arm(NULL, "%s, %zu-byte loops", name, c->lat_size);
    bool ok = loops(nm, (int)left, (int)right, c->lat_size, c->lat_iters,
                    c->lat_iters < 10 ? c->lat_iters : 10, lat, &nlat);
    watchdog_disarm();
    watchdog_arm(NULL, "%s, %zu-byte loops", name, c->size);
    ok &= loops(nm, (int)left, (int)right, c->size, c->iters, 1, bw, &nbw);
    watchdog_disarm();
    /* The figures from the mean loop time (total over loops, as b_eff
     * times them); the samples, converted alike, give the spread. */
    f->latency = stats_mean(lat, nlat) / 2 * 1e6;
    f->bandwidth = netmap_mbps(nm, 2 * c->size, stats_mean(bw, nbw));
    for (size_t r = 0; r < nlat; r++)
        lat[r] = lat[r] / 2 * 1e6;
    for (size_t r = 0; r < nbw; r++)
        bw[r] = netmap_mbps(nm, 2 * c->size, bw[r]);
    char lat_spread[96], bw_spread[96];
    const char *kind = ring ? "random" : "natural";
    ring_row("latency", kind, ring, f->latency, lat, nlat, lat_spread, sizeof lat_spread);
    ring_row("bandwidth", kind, ring, f->bandwidth, bw, nbw, bw_spread, sizeof bw_spread);
    out_line("%zu %s %.3f %.3f%s%s", ring, kind, f->latency, f->bandwidth, lat_spread, bw_spread);
    free(lat);
    free(bw);
    return ok;
}

static void summary(const struct ring_figures *f, size_t count)
{
    out_block_end();
    out_comment("natural ring: latency %.3f us, bandwidth %.3f MB/s per endpoint", f[0].latency,
                f[0].bandwidth);
    if (count < 2)
        return;
    size_t nr = count - 1;
    double *lat = netmap_alloc(nr, sizeof *lat, NULL);
    double *bw = netmap_alloc(nr, sizeof *bw, NULL);
    for (size_t i = 0; i < nr; i++) {
        lat[i] = f[i + 1].latency;
        bw[i] = f[i + 1].bandwidth;
    }
    double lat_med = stats_median(lat, nr), bw_med = stats_median(bw, nr);
    out_comment("random rings (%zu): latency median %.3f us (min %.3f, max %.3f), bandwidth "
                "median %.3f MB/s per endpoint (min %.3f, max %.3f)",
                nr, lat_med, stats_min(lat, nr), stats_max(lat, nr), bw_med, stats_min(bw, nr),
                stats_max(bw, nr));
    double lat_ratio = lat_med / f[0].latency, bw_ratio = bw_med / f[0].bandwidth;
    out_comment("random/natural: latency %.3f, bandwidth %.3f", lat_ratio, bw_ratio);
    report_row_begin("netmap_ring_ratio");
    report_row_double("latency_random_median", lat_med);
    report_row_double("bandwidth_random_median", bw_med);
    report_row_double("latency_ratio", lat_ratio);
    report_row_double("bandwidth_ratio", bw_ratio);
    report_row_end();
    free(lat);
    free(bw);
}

static bool run(struct netmap *nm)
{
    struct ring_figures *f = netmap_alloc(nrings + 1, sizeof *f, NULL);
    bool ok = true;
    for (size_t r = 0; r <= nrings; r++)
        ok &= measure_ring(nm, r, &f[r]);
    summary(f, nrings + 1);
    free(f);
    return ok;
}

/* The table of ring_row's rows of one figure, ranked by it. */
static void declare_ring_table(const char *figure, enum report_better better, const char *unit)
{
    char table[32];
    snprintf(table, sizeof table, "netmap_ring_%s", figure);
    report_table(table, figure, better, figure);
    report_key("ring", REPORT_UNIT_TEXT);
    report_key("number", REPORT_UNIT_COUNT);
    report_value(figure, unit);
}

static void settings(const struct netmap *nm)
{
    const struct netmap_config *c = &nm->cfg;
    out_comment("rings: the natural ring and %zu random rings (seed %zu); latency: half the "
                "loop of %zu-byte messages, mean of %zu loops after 10 untimed; bandwidth: 2 x "
                "%zu bytes per endpoint per loop, from the mean of %zu loops after 1 untimed; a "
                "loop's time is the mean of the endpoints' times for it",
                nrings, c->seed, c->lat_size, c->lat_iters, c->size, c->iters);
    out_comment("ring kind latency[us] bandwidth[MB/s]%s",
                report_stats() ? " lat_median lat_p5 lat_p95 lat_cv bw_median bw_p5 bw_p95 bw_cv"
                               : "");
    declare_ring_table("latency", REPORT_LOWER_BETTER, REPORT_UNIT_US);
    declare_ring_table("bandwidth", REPORT_HIGHER_BETTER, REPORT_UNIT_MB_S);
    report_table("netmap_ring_ratio", "latency_ratio", REPORT_NOT_RANKED, NULL);
    report_value("latency_random_median", REPORT_UNIT_US);
    report_value("bandwidth_random_median", REPORT_UNIT_MB_S);
    netmap_report_values(REPORT_UNIT_RATIO, "latency_ratio", "bandwidth_ratio", NULL);
    report_no_iterations();
}

int main(int argc, char **argv)
{
    const struct opt_spec options[] = {
        {"rings", 0, OPT_SIZE, &nrings, "N", "random rings besides the natural one (8)", 0, 100000, false, NULL, NULL},
    };
    const struct netmap_program prog = {
        "rings", "Network map: natural and random ring latency and bandwidth",
        "HPCC b_eff's rings: every endpoint exchanges with both neighbours at once, on the\n"
        "natural ring and on seeded random rings; latency, bandwidth per endpoint, and the\n"
        "random/natural ratio that characterises the topology.",
        options, 1, 2, false, NULL, settings, run, "mean"};
    netmap_main(argc, argv, &prog);
}
