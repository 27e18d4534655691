/*
 * netmap/pairs: the bandwidth and latency of every ordered pair of
 * endpoints (mpiGraph's map), the per-node summaries, and the nodes and
 * links that fall below the rest, named by culprit.h's rule.
 *
 * Bandwidth, shifted mode: n - 1 steps; in step k every endpoint i sends a
 * window of messages to i + k and receives one from i - k (mod n), all at
 * once, so every ordered pair is measured under full load. Isolated mode:
 * each ordered pair alone while the others wait. The figure of a pair is
 * the median over the repetitions of the window's bytes over the time its
 * receiver took to get them all. Latency: half the round trip of a small
 * ping-pong, each pair alone (the median of the round trips), measured
 * once per unordered pair: a round trip crosses the pair both ways.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "culprit.h"
#include "fabric_load.h"
#include "err.h"
#include "netmap.h"
#include "out.h"
#include "report.h"
#include "stats.h"
#include "transfer.h"
#include "watchdog.h"

#define STR(x) #x
#define XSTR(x) STR(x)

enum { MODE_SHIFTED, MODE_ISOLATED, MODE_BOTH };
enum { METRIC_BOTH, METRIC_BANDWIDTH, METRIC_LATENCY };
static const char *const mode_names[] = {"shifted", "isolated", "both", NULL};
static const char *const metric_names[] = {"both", "bandwidth", "latency", NULL};

enum { MATRIX_AUTO, MATRIX_YES, MATRIX_NO };
static const char *const matrix_names[] = {"auto", "yes", "no", NULL};
/* Above this many endpoints the n x n output (text matrix, per-pair JSON
 * rows) is left out unless asked: 256^2 figures still make a heatmap, 9,408^2
 * are 0.8 GB of text no one reads; the summaries and culprits stay. */
#define MATRIX_AUTO_MAX 256

static int mode = MODE_SHIFTED, metric = METRIC_BOTH, matrix_when = MATRIX_AUTO;
static double mads = 3, min_worse = 10;
static const char *topology_path;
static struct fabric fabric; /* every endpoint unplaced without --topology */

static unsigned class_of(size_t a, size_t b, const void *ctx)
{
    return (unsigned)fabric_class_of(ctx, a, b);
}

/* One map being measured: figure and samples of every pair, on the
 * printing rank (matrix[from * n + to]; samples[(from * n + to) * count],
 * of which --precision took counts[from * n + to]; without it counts is
 * NULL and every pair has count). */
struct map {
    const char *metric, *mode, *unit, *fmt;
    const char *node_table, *culprit_table; /* JSON tables of its summaries, findings */
    enum culprit_sense sense;
    double *matrix, *samples, *counts;
    size_t n, count;
};

/* Brings each endpoint's figures and samples to the printing rank as
 * matrix row from -> to: mine[p] and mine_samples[p * count] are this
 * rank's, as the sender or initiator, for peer p. */
static void gather_map(struct netmap *nm, struct map *m, const double *mine,
                       const double *mine_samples, const double *mine_counts)
{
    size_t n = m->n, count = m->count;
    bool root = nm->me == 0 && nm->lane_index == 0;
    /* Gathered in place: endpoint e's row is the matrix row from e. */
    double *all = root ? netmap_alloc(n * n, sizeof *all, "the matrix") : NULL;
    double *all_samples = root && mine_samples
                              ? netmap_alloc(n * n * count, sizeof *all_samples, "the samples")
                              : NULL;
    /* Only --precision's counts differ from pair to pair. */
    bool counted = precision_on();
    double *all_counts =
        root && counted ? netmap_alloc(n * n, sizeof *all_counts, "the counts") : NULL;
    if (nm->lane_index == 0) {
        MPI_CHECK(MPI_Gather(mine, (int)n, MPI_DOUBLE, all, (int)n, MPI_DOUBLE, 0, nm->lane));
        if (counted)
            MPI_CHECK(MPI_Gather(mine_counts, (int)n, MPI_DOUBLE, all_counts, (int)n, MPI_DOUBLE,
                                 0, nm->lane));
        if (mine_samples)
            MPI_CHECK(MPI_Gather(mine_samples, (int)(n * count), MPI_DOUBLE, all_samples,
                                 (int)(n * count), MPI_DOUBLE, 0, nm->lane));
    }
    if (!root)
        return;
    for (size_t e = 0; e < n; e++)
        all[e * n + e] = NAN;
    m->matrix = all;
    m->samples = all_samples;
    m->counts = all_counts;
}

/* A pair's figure: the median of its samples, robust to the odd slow
 * repetition that a busy machine gives. */
static double median_of(const double *samples, size_t count)
{
    return stats_median(samples, count);
}

/* The bandwidth sample of the window this rank sent to `to` in a
 * repetition: the node's bytes over the slowest lane's time. */
static bool measure_window(struct netmap *nm, int to, int from, size_t rep, double *sample)
{
    struct transfer_times t;
    bool ok = transfer_window(nm, nm->lane, &to, to == MPI_PROC_NULL ? 0 : 1, &from,
                              from == MPI_PROC_NULL ? 0 : 1, nm->cfg.size, rep, &t);
    double worst = netmap_node_time(nm, to == MPI_PROC_NULL ? 0 : t.acked);
    if (sample)
        *sample = netmap_mbps(nm, nm->cfg.size * nm->cfg.window, worst);
    return ok;
}

/* Repetitions of one step of a bandwidth map (repetition 0: the warm-up,
 * no sample). */
struct windows {
    struct netmap *nm;
    int to, from;
    double *samples; /* repetition r's at r - 1 */
    bool ok;
};

static void send_windows(void *arg, size_t first, size_t n)
{
    struct windows *w = arg;
    for (size_t r = first; r < first + n; r++) {
        watchdog_enter(r);
        double ignored;
        w->ok &= measure_window(w->nm, w->to, w->from, r,
                                r && w->to != MPI_PROC_NULL ? &w->samples[r - 1] : &ignored);
        watchdog_leave();
    }
}

static void send_timed_windows(void *arg, size_t first, size_t n)
{
    send_windows(arg, first + 1, n);
}

/* One step: this rank's figure and count for `to` (untouched where it
 * sends nothing). */
static bool bandwidth_step(struct netmap *nm, int to, int from, double *samples, double *fig,
                           double *count)
{
    struct windows w = {nm, to, from, samples, true};
    send_windows(&w, 0, 1);
    size_t done = netmap_repeat(nm->all, nm->cfg.iters, samples, to != MPI_PROC_NULL,
                                PRECISION_MEDIAN, send_timed_windows, &w, NULL);
    if (to != MPI_PROC_NULL) {
        *fig = median_of(samples, done);
        *count = (double)done;
    }
    return w.ok;
}

static bool measure_bandwidth(struct netmap *nm, bool isolated, struct map *m)
{
    size_t n = (size_t)nm->endpoints, stride = netmap_room(nm->cfg.iters);
    int me = nm->me;
    double *fig = netmap_alloc(n, sizeof *fig, "figures");
    double *counts = netmap_alloc(n, sizeof *counts, "counts");
    double *samples = netmap_alloc(n * stride, sizeof *samples, "samples");
    double *unused = netmap_alloc(stride, sizeof *unused, "samples");
    bool ok = true;
    for (size_t p = 0; p < n; p++)
        fig[p] = NAN;
    if (!isolated) {
        for (size_t k = 1; k < n; k++) {
            int to = (int)((me + k) % n), from = (int)((me + n - k) % n);
            watchdog_arm(NULL, "bandwidth, shift by %zu", k);
            ok &= bandwidth_step(nm, to, from, &samples[(size_t)to * stride], &fig[to],
                                 &counts[to]);
            watchdog_disarm();
        }
    } else {
        for (size_t a = 0; a < n; a++)
            for (size_t b = 0; b < n; b++) {
                if (a == b)
                    continue;
                int to = (size_t)me == a ? (int)b : MPI_PROC_NULL;
                int from = (size_t)me == b ? (int)a : MPI_PROC_NULL;
                watchdog_arm(NULL, "bandwidth from endpoint %zu to %zu alone", a, b);
                double *s = to != MPI_PROC_NULL ? &samples[b * stride] : unused;
                ok &= bandwidth_step(nm, to, from, s, &fig[b], &counts[b]);
                watchdog_disarm();
            }
    }
    m->n = n;
    m->count = stride;
    gather_map(nm, m, fig, report_per_iteration() ? samples : NULL, counts);
    free(fig);
    free(counts);
    free(samples);
    free(unused);
    return ok;
}

/* The timed round trips of one pair of the latency map. */
struct pingpongs {
    struct netmap *nm;
    int to, from;
    double *half;
    bool ok;
};

static void ping(void *arg, size_t first, size_t n)
{
    struct pingpongs *p = arg;
    watchdog_enter(1 + first);
    p->ok &= transfer_pingpong(p->nm, p->nm->lane, p->to, p->from, p->nm->cfg.lat_size, n,
                               1 + first, p->half + first);
    watchdog_leave();
}

static bool measure_latency(struct netmap *nm, struct map *m)
{
    size_t n = (size_t)nm->endpoints, rounds = nm->cfg.lat_iters, stride = netmap_room(rounds);
    size_t warm = rounds < 10 ? rounds : 10;
    int me = nm->me;
    double *fig = netmap_alloc(n, sizeof *fig, "figures");
    double *counts = netmap_alloc(n, sizeof *counts, "counts");
    double *samples = netmap_alloc(n * stride, sizeof *samples, "samples");
    double *warmup = netmap_alloc(warm, sizeof *warmup, "samples");
    bool ok = true;
    for (size_t p = 0; p < n; p++)
        fig[p] = NAN;
    for (size_t a = 0; a < n; a++)
        for (size_t b = a + 1; b < n; b++) {
            int to = (size_t)me == a ? (int)b : MPI_PROC_NULL;
            int from = (size_t)me == b ? (int)a : MPI_PROC_NULL;
            watchdog_arm(NULL, "latency between endpoints %zu and %zu alone", a, b);
            watchdog_enter(0);
            ok &= transfer_pingpong(nm, nm->lane, to, from, nm->cfg.lat_size, warm, 0, warmup);
            watchdog_leave();
            double *s = &samples[b * stride];
            struct pingpongs p = {nm, to, from, s, true};
            size_t done = netmap_repeat(nm->all, rounds, s, to != MPI_PROC_NULL,
                                        PRECISION_MEDIAN, ping, &p, NULL);
            ok &= p.ok;
            watchdog_disarm();
            for (size_t r = 0; to != MPI_PROC_NULL && r < done; r++)
                s[r] *= 1e6;
            double f = to != MPI_PROC_NULL ? median_of(s, done) : 0;
            f = netmap_node_time(nm, f);
            if (to != MPI_PROC_NULL) {
                fig[b] = f;
                counts[b] = (double)done;
            }
        }
    m->n = n;
    m->count = stride;
    gather_map(nm, m, fig, report_per_iteration() ? samples : NULL, counts);
    /* One figure per unordered pair: the other direction is the same. */
    if (m->matrix)
        for (size_t a = 0; a < n; a++)
            for (size_t b = a + 1; b < n; b++) {
                m->matrix[b * n + a] = m->matrix[a * n + b];
                if (m->counts)
                    m->counts[b * n + a] = m->counts[a * n + b];
                for (size_t s = 0; m->samples && s < stride; s++)
                    m->samples[(b * n + a) * stride + s] = m->samples[(a * n + b) * stride + s];
            }
    free(fig);
    free(counts);
    free(samples);
    free(warmup);
    return ok;
}

static const char *better_word(enum culprit_sense sense)
{
    return sense == CULPRIT_HIGHER_BETTER ? "below" : "above";
}

static void print_node_summary(struct netmap *nm, const struct map *m)
{
    size_t n = m->n;
    out_comment("per endpoint, %s (%s), %s: as sender (its row) and as receiver (its column)",
                m->metric, m->unit, m->mode);
    out_comment("endpoint host send_min send_median send_max recv_min recv_median recv_max");
    for (size_t e = 0; e < n; e++) {
        struct culprit_node_stats s[CULPRIT_NDIRS];
        for (int d = 0; d < CULPRIT_NDIRS; d++)
            if (culprit_node_stats(m->matrix, n, e, (enum culprit_dir)d, &s[d]))
                err_fatal("cannot summarise endpoint %zu", e);
        out_line("%zu %s %.3f %.3f %.3f %.3f %.3f %.3f", e, netmap_host(nm, (int)e), s[0].min,
                 s[0].median, s[0].max, s[1].min, s[1].median, s[1].max);
        report_row_begin(m->node_table);
        report_row_string("mode", m->mode);
        report_row_size("endpoint", e);
        report_row_string("host", netmap_host(nm, (int)e));
        report_row_double("send_min", s[0].min);
        report_row_double("send_median", s[0].median);
        report_row_double("send_max", s[0].max);
        report_row_double("recv_min", s[1].min);
        report_row_double("recv_median", s[1].median);
        report_row_double("recv_max", s[1].max);
        report_row_end();
    }
    out_block_end();
}

static void culprit_row(const struct map *m, const char *kind, const char *dir, size_t from,
                        size_t to, const char *from_host, const char *to_host, double value,
                        double ref, double mad, double worse)
{
    report_row_begin(m->culprit_table);
    report_row_string("mode", m->mode);
    report_row_string("kind", kind);
    report_row_string("direction", dir);
    report_row_size("from", from);
    report_row_size("to", to);
    report_row_string("from_host", from_host);
    report_row_string("to_host", to_host);
    report_row_double("value", value);
    report_row_double("reference", ref);
    report_row_double("mad", mad);
    report_row_double("worse_pct", worse);
    report_row_end();
}

static void print_culprits(struct netmap *nm, const struct map *m)
{
    struct culprit_rule rule = {mads, min_worse / 100};
    struct culprit_findings f;
    int rc = topology_path ? culprit_find_classed(m->matrix, m->n, m->sense, &rule, class_of,
                                                  &fabric, FABRIC_NCLASSES, &f)
                           : culprit_find(m->matrix, m->n, m->sense, &rule, &f);
    if (rc)
        err_fatal("cannot judge the %s map", m->metric);
    const char *word = better_word(m->sense);
    /* With classes, the figures judged are ratios to the class medians. */
    const char *unit = f.classed ? "x its class's median" : m->unit;
    for (int c = 0; f.classed && c < FABRIC_NCLASSES; c++)
        if (f.class_count[c])
            out_comment("class (%s, %s): %s pairs, median %.3f %s over %zu figures", m->metric,
                        m->mode, fabric_class_names[c], f.class_ref[c], m->unit,
                        f.class_count[c]);
    for (size_t i = 0; i < f.n_nodes; i++) {
        const struct culprit_node *c = &f.nodes[i];
        const char *host = netmap_host(nm, (int)c->node);
        out_comment("culprit (%s, %s): endpoint %zu (%s) as %s: median %.3f %s, %.1f%% %s the "
                    "median of the endpoints (%.3f %s, MAD %.3f)",
                    m->metric, m->mode, c->node, host, culprit_dir_names[c->dir], c->median, unit, c->worse_pct,
                    word, c->ref, unit, c->mad);
        culprit_row(m, "node", culprit_dir_names[c->dir], c->node, c->node, host, host,
                    c->median, c->ref, c->mad, c->worse_pct);
    }
    for (size_t i = 0; i < f.n_pairs; i++) {
        const struct culprit_pair *c = &f.pairs[i];
        const char *a = netmap_host(nm, (int)c->from), *b = netmap_host(nm, (int)c->to);
        out_comment("culprit (%s, %s): link %zu -> %zu (%s -> %s): %.3f %s, %.1f%% %s the "
                    "median of the pairs between endpoints not named (%.3f %s, MAD %.3f)",
                    m->metric, m->mode, c->from, c->to, a, b, c->value, unit, c->worse_pct, word, c->ref,
                    unit, c->mad);
        culprit_row(m, "link", "from-to", c->from, c->to, a, b, c->value, c->ref, c->mad,
                    c->worse_pct);
    }
    for (int d = 0; d < CULPRIT_NDIRS; d++)
        if (!f.node_verdict[d].judged)
            out_comment("culprits (%s, %s): endpoints as %s not judged: %s", m->metric, m->mode,
                        culprit_dir_names[d], f.node_verdict[d].why_not);
    if (!f.pair_verdict.judged)
        out_comment("culprits (%s, %s): links not judged: %s", m->metric, m->mode,
                    f.pair_verdict.why_not);
    if (f.n_nodes + f.n_pairs == 0)
        out_comment("culprits (%s, %s): none: no endpoint or link is more than %g MADs and "
                    "%g%% %s the median",
                    m->metric, m->mode, mads, min_worse, word);
    culprit_free(&f);
}

static void print_pairs(struct netmap *nm, const struct map *m)
{
    size_t n = m->n;
    for (size_t a = 0; a < n; a++)
        for (size_t b = 0; b < n; b++) {
            if (a == b)
                continue;
            report_row_begin(m->sense == CULPRIT_HIGHER_BETTER ? "netmap_bandwidth" : "netmap_latency");
            report_row_string("mode", m->mode);
            report_row_size("from", a);
            report_row_size("to", b);
            report_row_string("from_host", netmap_host(nm, (int)a));
            report_row_string("to_host", netmap_host(nm, (int)b));
            report_row_double(m->sense == CULPRIT_HIGHER_BETTER ? "bandwidth" : "latency",
                              m->matrix[a * n + b]);
            report_row_iterations(m->samples ? &m->samples[(a * n + b) * m->count] : NULL,
                                  m->counts ? (size_t)m->counts[a * n + b] : m->count, NULL);
            report_row_end();
        }
}

static bool whole_matrix(size_t n)
{
    return matrix_when == MATRIX_YES || (matrix_when == MATRIX_AUTO && n <= MATRIX_AUTO_MAX);
}

/* The map on the printing rank: matrix, summaries, findings. */
static void print_map(struct netmap *nm, struct map *m, const char *title)
{
    if (m->matrix) {
        bool whole = whole_matrix(m->n);
        if (whole)
            netmap_print_matrix(title, m->unit, m->matrix, m->n, m->fmt);
        else
            out_comment("%s, %s: the %zu x %zu matrix and the per-pair rows are left out "
                        "(%s; --matrix=yes prints them)",
                        title, m->unit, m->n, m->n,
                        matrix_when == MATRIX_NO ? "--matrix=no"
                                                 : "more than " XSTR(MATRIX_AUTO_MAX) " endpoints");
        print_node_summary(nm, m);
        print_culprits(nm, m);
        if (whole)
            print_pairs(nm, m);
    }
    free(m->matrix);
    free(m->samples);
    free(m->counts);
}

static bool run(struct netmap *nm)
{
    bool ok = true;
    if (metric != METRIC_LATENCY)
        for (int md = MODE_SHIFTED; md <= MODE_ISOLATED; md++) {
            if (mode != MODE_BOTH && mode != md)
                continue;
            struct map m = {"bandwidth", mode_names[md], "MB/s", "%.3f", "netmap_bandwidth_node",
                            "netmap_bandwidth_culprit", CULPRIT_HIGHER_BETTER, NULL, NULL, NULL, 0, 0};
            ok &= measure_bandwidth(nm, md == MODE_ISOLATED, &m);
            char title[96];
            snprintf(title, sizeof title, "bandwidth, %s mode", mode_names[md]);
            print_map(nm, &m, title);
        }
    if (metric != METRIC_BANDWIDTH) {
        struct map m = {"latency", "isolated", "us", "%.3f", "netmap_latency_node", "netmap_latency_culprit",
                        CULPRIT_LOWER_BETTER, NULL, NULL, NULL, 0, 0};
        ok &= measure_latency(nm, &m);
        print_map(nm, &m, "latency, each pair alone");
    }
    fabric_free(&fabric);
    return ok;
}

/* The keys that name a link: its endpoints and their hosts. */
static void declare_link_keys(void)
{
    report_key("from", REPORT_UNIT_COUNT);
    report_key("to", REPORT_UNIT_COUNT);
    report_key("from_host", REPORT_UNIT_TEXT);
    report_key("to_host", REPORT_UNIT_TEXT);
}

/* A map's table: one figure per link of a mode, ranked by it. */
static void declare_map(const char *table, const char *figure, enum report_better better,
                        const char *unit)
{
    report_table(table, figure, better, figure);
    report_key("mode", REPORT_UNIT_TEXT);
    declare_link_keys();
    report_value(figure, unit);
}

/* The per-endpoint summaries and the findings of a metric's maps. */
static void declare_summaries(const char *metric_name, const char *unit)
{
    char table[64];
    snprintf(table, sizeof table, "netmap_%s_node", metric_name);
    report_table(table, "send_median", REPORT_NOT_RANKED, NULL);
    report_key("mode", REPORT_UNIT_TEXT);
    report_key("endpoint", REPORT_UNIT_COUNT);
    report_key("host", REPORT_UNIT_TEXT);
    netmap_report_values(unit, "send_min", "send_median", "send_max", "recv_min", "recv_median",
                         "recv_max", NULL);
    report_no_iterations();
    snprintf(table, sizeof table, "netmap_%s_culprit", metric_name);
    report_table(table, "worse_pct", REPORT_NOT_RANKED, NULL);
    report_key("mode", REPORT_UNIT_TEXT);
    report_key("kind", REPORT_UNIT_TEXT);
    report_key("direction", REPORT_UNIT_TEXT);
    declare_link_keys();
    netmap_report_values(unit, "value", "reference", "mad", NULL);
    report_value("worse_pct", REPORT_UNIT_PERCENT);
    report_no_iterations();
}

static void settings(const struct netmap *nm)
{
    const struct netmap_config *c = &nm->cfg;
    if (metric != METRIC_LATENCY)
        out_comment("bandwidth: %s mode%s, %zu messages of %zu bytes in flight, median of %zu "
                    "repetitions after a warm-up; MB/s = 10^6 bytes/s, timed by the sender until the receiver's answer",
                    mode_names[mode], mode == MODE_BOTH ? "s" : "", c->window, c->size, c->iters);
    if (metric != METRIC_BANDWIDTH)
        out_comment("latency: half the round trip of %zu-byte ping-pongs, each pair alone, "
                    "median of %zu round trips after 10 untimed",
                    c->lat_size, c->lat_iters);
    netmap_load_fabric(nm, topology_path, &fabric, "none: every pair judged against all");
    out_comment("culprit rule: an endpoint's median as sender or receiver, or a link's figure, "
                "more than %g MADs and %g%% worse than the median (--mads, --min-worse)%s",
                mads, min_worse,
                topology_path ? "; each figure first divided by the median of its class (same "
                                "switch, same group, across groups): a pair further away is not "
                                "worse for it"
                              : "");
    declare_map("netmap_bandwidth", "bandwidth", REPORT_HIGHER_BETTER, REPORT_UNIT_MB_S);
    declare_map("netmap_latency", "latency", REPORT_LOWER_BETTER, REPORT_UNIT_US);
    declare_summaries("bandwidth", REPORT_UNIT_MB_S);
    declare_summaries("latency", REPORT_UNIT_US);
}

int main(int argc, char **argv)
{
    const struct opt_spec options[] = {
        {"mode", 0, OPT_CHOICE, &mode, "shifted|isolated|both", "bandwidth under full load (shifted), each pair alone, or both (shifted)", 0, 0, false, mode_names, NULL},
        {"metric", 0, OPT_CHOICE, &metric, "both|bandwidth|latency", "which maps (both)", 0, 0, false, metric_names, NULL},
        {"mads", 0, OPT_DOUBLE, &mads, "K", "culprit rule: worse than the median by more than K MADs (3)", 0, 1000, true, NULL, NULL},
        {"min-worse", 0, OPT_DOUBLE, &min_worse, "PCT", "culprit rule: and by at least PCT percent (10)", 0, 99, true, NULL, NULL},
        NETMAP_TOPOLOGY_OPT(&topology_path),
        {"matrix", 0, OPT_CHOICE, &matrix_when, "auto|yes|no", "print the n x n matrices and per-pair JSON rows (auto: up to " XSTR(MATRIX_AUTO_MAX) " endpoints)", 0, 0, false, matrix_names, NULL},
    };
    const struct netmap_program prog = {
        "pairs", "Network map: bandwidth and latency of every pair of nodes",
        "The bandwidth and latency of every ordered pair of endpoints (one rank per node by\n"
        "default), gnuplot matrices, per-node summaries, and the nodes and links that fall\n"
        "below the rest named as '# culprit:' lines (findings, not errors: status 0).\n"
        "Quadratic by nature: rank 0 holds n x n figures per map (8 n^2 bytes; times\n"
        "the iterations with --stats or --samples), the shifted bandwidth map takes\n"
        "n - 1 steps, but the latency map and --mode=isolated measure each of the\n"
        "n(n-1)/2 or n(n-1) pairs alone, one after another (hours at thousands of\n"
        "nodes). Above " XSTR(MATRIX_AUTO_MAX) " endpoints the matrices and per-pair rows are left out\n"
        "unless --matrix=yes.",
        options, sizeof options / sizeof options[0], 2, true, NULL, settings, run, "median"};
    netmap_main(argc, argv, &prog);
}
