/*
 * netmap/locate: which nodes, NICs and links are slow, at a cost that grows
 * with log N rather than N^2.
 *
 * Screening: rounds of disjoint pairs (a perfect matching each, drawn from
 * --seed), every pair at once: bandwidth one way, then the other (windows
 * of --size messages, the sender's clock, median of --iters after a
 * warm-up), then the latency of ping-pongs (median of --lat-iters round
 * trips). With a topology (--topology), whole groups meet in turn (a
 * round-robin: groups - 1 rounds), then the switches of each group, then
 * the nodes of each switch, so that every level is crossed and every link
 * between two groups or two switches carries a full load once: a link
 * wider than one NIC shows its fault only under load. Without one,
 * --partners random rounds. Each figure is judged against the figures of
 * its class of distance (judge.h). The rounds grow as the groups and the
 * switches of a group, O(sqrt N) on a dragonfly, not as N.
 *
 * Then, one pair at a time (pinpoint.h): suspects are measured against
 * known good nodes before they are named, and slow routes are narrowed to
 * the element they share. Rank 0 keeps O(N) figures per round; no N x N
 * matrix is formed or printed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "fabric.h"
#include "fabric_load.h"
#include "judge.h"
#include "locate_report.h"
#include "netmap.h"
#include "out.h"
#include "pinpoint.h"
#include "plan.h"
#include "report.h"
#include "stats.h"
#include "transfer.h"
#include "watchdog.h"

static size_t partners = 8, confirmers = 3, max_probes;
static double mads = 3, min_worse = 10;
static const char *topology_path;

/* The fabric on every rank; its names on the printing rank. */
static struct fabric fabric;

/* ---------------------------------------------------------------- measuring */

/* Repetitions of a window to `to` while `from` sends to this rank. */
struct windows {
    struct netmap *nm;
    int to, from;
    double *mbps; /* repetition r's sample at r - 1 */
    bool ok;
};

static void send_windows(void *arg, size_t first, size_t n)
{
    struct windows *w = arg;
    struct netmap *nm = w->nm;
    for (size_t r = first; r < first + n; r++) {
        struct transfer_times t;
        watchdog_enter(r);
        w->ok &= transfer_window(nm, nm->lane, &w->to, w->to != MPI_PROC_NULL, &w->from,
                                 w->from != MPI_PROC_NULL, nm->cfg.size, r, &t);
        watchdog_leave();
        if (r)
            w->mbps[r - 1] = netmap_mbps(nm, nm->cfg.size * nm->cfg.window, t.acked);
    }
}

static void send_timed_windows(void *arg, size_t first, size_t n)
{
    send_windows(arg, first + 1, n);
}

/* This rank's bandwidth to `to` (MB/s, the median of the repetitions after
 * a warm-up one), with `from` sending to it at the same time; NaN where it
 * sends nothing. */
static bool window_figure(struct netmap *nm, int to, int from, double *figure)
{
    size_t iters = nm->cfg.iters;
    struct windows w = {nm, to, from, netmap_alloc(netmap_room(iters), sizeof *w.mbps, NULL),
                        true};
    send_windows(&w, 0, 1);
    size_t done = netmap_repeat(nm->all, iters, w.mbps, to != MPI_PROC_NULL, PRECISION_MEDIAN,
                                send_timed_windows, &w, NULL);
    *figure = to != MPI_PROC_NULL ? stats_median(w.mbps, done) : NAN;
    free(w.mbps);
    return w.ok;
}

/* Ping-pongs this rank starts with to, answering from: each call begins
 * with untimed round trips, which absorb how late each rank left the
 * barrier (a call of its own would add it again). */
struct pingpongs {
    struct netmap *nm;
    int to, from;
    size_t warm;
    double *half, *scratch; /* timed halves; a call's, its warm-up first */
    bool ok;
};

static void ping(void *arg, size_t first, size_t n)
{
    struct pingpongs *p = arg;
    watchdog_enter(1 + first);
    p->ok &= transfer_pingpong(p->nm, p->nm->lane, p->to, p->from, p->nm->cfg.lat_size,
                               p->warm + n, 1 + first, p->scratch);
    watchdog_leave();
    if (p->to != MPI_PROC_NULL)
        memcpy(p->half + first, p->scratch + p->warm, n * sizeof *p->half);
}

/* Half the round trip (us, the median) of ping-pongs this rank starts with
 * to, answering from; NaN where it starts none. */
static bool latency_figure(struct netmap *nm, int to, int from, double *figure)
{
    size_t rounds = nm->cfg.lat_iters, warm = rounds < 10 ? rounds : 10;
    size_t room = netmap_room(rounds);
    struct pingpongs p = {nm, to, from, warm, netmap_alloc(room, sizeof *p.half, NULL),
                          netmap_alloc(warm + room, sizeof *p.scratch, NULL), true};
    size_t done = netmap_repeat(nm->all, rounds, p.half, to != MPI_PROC_NULL, PRECISION_MEDIAN,
                                ping, &p, NULL);
    *figure = to != MPI_PROC_NULL ? stats_median(p.half, done) * 1e6 : NAN;
    free(p.half);
    free(p.scratch);
    return p.ok;
}

/* The printing rank's record of the run. */
struct screening {
    struct judge_obs *obs;
    size_t nobs, cap;
    size_t rounds;
};

static void add_obs(struct screening *s, size_t round, size_t a, size_t b, int metric,
                    double value)
{
    if (s->nobs == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 1024;
        s->obs = realloc(s->obs, s->cap * sizeof *s->obs);
        if (!s->obs)
            err_fatal("cannot allocate %zu figures", s->cap);
    }
    s->obs[s->nobs++] = (struct judge_obs){(uint32_t)a, (uint32_t)b, (uint8_t)metric,
                                           (uint8_t)fabric_class_of(&fabric, a, b),
                                           (uint32_t)round, value};
}

/* The screening's rounds: (aim, its round number) each. */
struct round_plan {
    int *aim;
    size_t *index;
    size_t count;
};

/* With a topology: every two groups meet (groups - 1 rounds, rounded up to
 * even), every two switches of a group (the most switches of a group - 1),
 * and the nodes of each switch twice; then more rounds in turn up to
 * --partners. Without one: --partners random rounds. Printing rank. */
static void plan_rounds(struct round_plan *rp)
{
    size_t n = fabric.n;
    size_t *per_switch = netmap_alloc(n, sizeof *per_switch, NULL);
    size_t *switches_of = netmap_alloc(n, sizeof *switches_of, NULL);
    size_t *per_group = netmap_alloc(n, sizeof *per_group, NULL);
    size_t groups = 0, most_switches = 0;
    bool pairs_in_switch = false;
    for (size_t e = 0; e < n; e++) {
        int sw = fabric.sw[e], g = fabric.group[e];
        if (sw < 0 || g < 0 || (size_t)sw >= n || (size_t)g >= n)
            continue;
        if (per_switch[sw]++ == 0 && ++switches_of[g] > most_switches)
            most_switches = switches_of[g];
        pairs_in_switch |= per_switch[sw] > 1;
        groups += per_group[g]++ == 0;
    }
    free(per_switch);
    free(switches_of);
    free(per_group);
    size_t across = groups >= 2 ? groups + groups % 2 - 1 : 0;
    size_t inside = most_switches >= 2 ? most_switches + most_switches % 2 - 1 : 0;
    size_t local = pairs_in_switch ? 2 : 0;
    size_t total = across + inside + local;
    if (total < partners)
        total = partners;
    rp->aim = netmap_alloc(total, sizeof *rp->aim, NULL);
    rp->index = netmap_alloc(total, sizeof *rp->index, NULL);
    rp->count = total;
    size_t r = 0, counts[PLAN_RANDOM + 1] = {0};
    int present[3], npresent = 0;
    if (across)
        present[npresent++] = PLAN_ACROSS_GROUPS;
    if (inside)
        present[npresent++] = PLAN_SAME_GROUP;
    if (local)
        present[npresent++] = PLAN_SAME_SWITCH;
    for (size_t i = 0; i < across; i++)
        rp->aim[r++] = PLAN_ACROSS_GROUPS;
    for (size_t i = 0; i < inside; i++)
        rp->aim[r++] = PLAN_SAME_GROUP;
    for (size_t i = 0; i < local; i++)
        rp->aim[r++] = PLAN_SAME_SWITCH;
    for (size_t i = 0; r < total; i++)
        rp->aim[r++] = npresent ? present[i % (size_t)npresent] : PLAN_RANDOM;
    for (r = 0; r < total; r++)
        rp->index[r] = counts[rp->aim[r]]++;
}

static const char *const aim_names[] = {"same-switch", "same-group", "across-groups", "random"};

/* One screening round: every pair at once. Collective over the lane. */
static bool screen_round(struct netmap *nm, size_t r, enum plan_aim aim, size_t index,
                         struct screening *s)
{
    size_t n = (size_t)nm->endpoints;
    bool root = nm->me == 0;
    size_t *partner = root ? netmap_alloc(n, sizeof *partner, NULL) : NULL;
    int *peer = root ? netmap_alloc(n, sizeof *peer, NULL) : NULL;
    if (root) {
        size_t *scratch = netmap_alloc(3 * n + 2, sizeof *scratch, NULL);
        plan_matching(nm->cfg.seed, index, aim, n, fabric.sw, fabric.group, partner, scratch);
        free(scratch);
        for (size_t e = 0; e < n; e++)
            peer[e] = partner[e] == SIZE_MAX ? MPI_PROC_NULL : (int)partner[e];
    }
    int p;
    MPI_CHECK(MPI_Scatter(peer, 1, MPI_INT, &p, 1, MPI_INT, 0, nm->lane));
    bool low = p != MPI_PROC_NULL && nm->me < p, high = p != MPI_PROC_NULL && nm->me > p;
    double mine[3];
    bool ok = true;
    watchdog_arm(NULL, "screening round %zu (%s), bandwidth from the lower endpoint", r + 1,
                 aim_names[aim]);
    ok &= window_figure(nm, low ? p : MPI_PROC_NULL, high ? p : MPI_PROC_NULL, &mine[0]);
    watchdog_disarm();
    watchdog_arm(NULL, "screening round %zu (%s), bandwidth from the higher endpoint", r + 1,
                 aim_names[aim]);
    ok &= window_figure(nm, high ? p : MPI_PROC_NULL, low ? p : MPI_PROC_NULL, &mine[1]);
    watchdog_disarm();
    watchdog_arm(NULL, "screening round %zu (%s), latency", r + 1, aim_names[aim]);
    ok &= latency_figure(nm, low ? p : MPI_PROC_NULL, high ? p : MPI_PROC_NULL, &mine[2]);
    watchdog_disarm();
    double *all = root ? netmap_alloc(3 * n, sizeof *all, NULL) : NULL;
    MPI_CHECK(MPI_Gather(mine, 3, MPI_DOUBLE, all, 3, MPI_DOUBLE, 0, nm->lane));
    if (root) {
        size_t pairs = 0;
        for (size_t e = 0; e < n; e++) {
            size_t q = partner[e];
            if (q == SIZE_MAX || q < e)
                continue;
            pairs++;
            add_obs(s, r, e, q, JUDGE_BANDWIDTH, all[3 * e]);
            add_obs(s, r, q, e, JUDGE_BANDWIDTH, all[3 * q + 1]);
            add_obs(s, r, e, q, JUDGE_LATENCY, all[3 * e + 2]);
        }
        double *bw = netmap_alloc(2 * pairs, sizeof *bw, NULL), *lat = netmap_alloc(pairs, sizeof *lat, NULL);
        size_t first = s->nobs - 3 * pairs;
        for (size_t i = 0; i < pairs; i++) {
            bw[2 * i] = s->obs[first + 3 * i].value;
            bw[2 * i + 1] = s->obs[first + 3 * i + 1].value;
            lat[i] = s->obs[first + 3 * i + 2].value;
        }
        double bw_med = stats_median(bw, 2 * pairs), lat_med = stats_median(lat, pairs);
        out_line("%zu %s %zu %.3f %.3f", r + 1, aim_names[aim], pairs, bw_med, lat_med);
        report_row_begin("netmap_locate_round");
        report_row_size("round", r + 1);
        report_row_string("aim", aim_names[aim]);
        report_row_size("pairs", pairs);
        report_row_double("bandwidth_median", bw_med);
        report_row_double("latency_median", lat_med);
        report_row_end();
        free(bw);
        free(lat);
    }
    free(all);
    free(partner);
    free(peer);
    return ok;
}

/* The adaptive part: the printing rank sends each pair to measure; the
 * others follow until told to stop. */
enum { PROBE_STOP = -1, PROBE_SET = 16 /* + metric: a set of pairs at once */ };

struct prober {
    struct netmap *nm;
    bool ok;
};

static double measure_alone(struct netmap *nm, int metric, int a, int b, bool *ok)
{
    int to = nm->me == a ? b : MPI_PROC_NULL, from = nm->me == b ? a : MPI_PROC_NULL;
    double mine;
    watchdog_arm(NULL, "%s from endpoint %d to %d alone", judge_metric_names[metric], a, b);
    if (metric == JUDGE_BANDWIDTH)
        *ok &= window_figure(nm, to, from, &mine);
    else
        *ok &= latency_figure(nm, to, from, &mine);
    watchdog_disarm();
    double v = isnan(mine) ? -1 : mine, got;
    MPI_CHECK(MPI_Reduce(&v, &got, 1, MPI_DOUBLE, MPI_MAX, 0, nm->lane));
    return got < 0 ? NAN : got;
}

/* Pairs measured at once: every rank finds its own part in the list (the
 * pairs are disjoint). Returns this rank's figure (NaN: it sends none). */
static double measure_set(struct netmap *nm, int metric, const int *pairs, int count, bool *ok)
{
    int to = MPI_PROC_NULL, from = MPI_PROC_NULL;
    for (int i = 0; i < count; i++) {
        if (pairs[2 * i] == nm->me)
            to = pairs[2 * i + 1];
        if (pairs[2 * i + 1] == nm->me)
            from = pairs[2 * i];
    }
    double mine;
    watchdog_arm(NULL, "%s of %d pairs at once", judge_metric_names[metric], count);
    if (metric == JUDGE_BANDWIDTH)
        *ok &= window_figure(nm, to, from, &mine);
    else
        *ok &= latency_figure(nm, to, from, &mine);
    watchdog_disarm();
    return mine;
}

static double probe(void *ctx, int metric, size_t a, size_t b)
{
    struct prober *p = ctx;
    int cmd[3] = {metric, (int)a, (int)b};
    MPI_CHECK(MPI_Bcast(cmd, 3, MPI_INT, 0, p->nm->lane));
    return measure_alone(p->nm, metric, (int)a, (int)b, &p->ok);
}

static void probe_set(void *ctx, int metric, const size_t *a, const size_t *b, size_t count,
                      double *value)
{
    struct prober *p = ctx;
    struct netmap *nm = p->nm;
    int cmd[3] = {PROBE_SET + metric, (int)count, 0};
    MPI_CHECK(MPI_Bcast(cmd, 3, MPI_INT, 0, nm->lane));
    int *pairs = netmap_alloc(2 * count, sizeof *pairs, NULL);
    for (size_t i = 0; i < count; i++) {
        pairs[2 * i] = (int)a[i];
        pairs[2 * i + 1] = (int)b[i];
    }
    MPI_CHECK(MPI_Bcast(pairs, (int)(2 * count), MPI_INT, 0, nm->lane));
    double mine = measure_set(nm, metric, pairs, (int)count, &p->ok);
    double *all = netmap_alloc((size_t)nm->endpoints, sizeof *all, NULL);
    MPI_CHECK(MPI_Gather(&mine, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, nm->lane));
    for (size_t i = 0; i < count; i++)
        value[i] = all[a[i]];
    free(all);
    free(pairs);
}

static bool follow(struct netmap *nm)
{
    bool ok = true;
    for (;;) {
        int cmd[3];
        MPI_CHECK(MPI_Bcast(cmd, 3, MPI_INT, 0, nm->lane));
        if (cmd[0] == PROBE_STOP)
            return ok;
        if (cmd[0] < PROBE_SET) {
            measure_alone(nm, cmd[0], cmd[1], cmd[2], &ok);
            continue;
        }
        int count = cmd[1];
        int *pairs = netmap_alloc(2 * (size_t)count, sizeof *pairs, NULL);
        MPI_CHECK(MPI_Bcast(pairs, 2 * count, MPI_INT, 0, nm->lane));
        double mine = measure_set(nm, cmd[0] - PROBE_SET, pairs, count, &ok);
        MPI_CHECK(MPI_Gather(&mine, 1, MPI_DOUBLE, NULL, 1, MPI_DOUBLE, 0, nm->lane));
        free(pairs);
    }
}

/* ---------------------------------------------------------------- run */

static size_t probe_budget(size_t n)
{
    if (max_probes)
        return max_probes;
    size_t log2n = 1;
    while (((size_t)1 << log2n) < n)
        log2n++;
    return 16 + 8 * log2n;
}

static bool run(struct netmap *nm)
{
    size_t n = (size_t)nm->endpoints;
    bool root = nm->me == 0;
    struct round_plan rp = {NULL, NULL, 0};
    unsigned long long nrounds = 0;
    if (root) {
        plan_rounds(&rp);
        nrounds = rp.count;
    }
    MPI_CHECK(MPI_Bcast(&nrounds, 1, MPI_UNSIGNED_LONG_LONG, 0, nm->lane));
    if (!root) {
        rp.aim = netmap_alloc(nrounds, sizeof *rp.aim, NULL);
        rp.index = netmap_alloc(nrounds, sizeof *rp.index, NULL);
        rp.count = nrounds;
    }
    MPI_CHECK(MPI_Bcast(rp.aim, (int)nrounds, MPI_INT, 0, nm->lane));
    struct screening s = {NULL, 0, 0, rp.count};
    bool ok = true;
    out_comment("round aim pairs bandwidth_median[MB/s] latency_median[us]");
    for (size_t r = 0; r < rp.count; r++)
        ok &= screen_round(nm, r, (enum plan_aim)rp.aim[r], rp.index[r], &s);
    out_block_end();
    free(rp.aim);
    free(rp.index);
    if (!root) {
        ok &= follow(nm);
        fabric_free(&fabric);
        return ok;
    }
    struct judge j = {{mads, min_worse / 100}, {{{0, 0, 0}}}};
    if (judge_references(&j, s.obs, s.nobs))
        err_fatal("cannot judge %zu figures", s.nobs);
    locate_report_references(&j);
    struct prober p = {nm, true};
    struct pinpoint l = {.fabric = &fabric, .judge = &j, .obs = s.obs, .nobs = s.nobs, .n = n,
                         .confirmers = confirmers, .max_probes = probe_budget(n),
                         .seed = nm->cfg.seed, .probe = probe, .probe_set = probe_set,
                         .ctx = &p};
    if (pinpoint_run(&l))
        err_fatal("cannot search %zu figures", s.nobs);
    int stop[3] = {PROBE_STOP, 0, 0};
    MPI_CHECK(MPI_Bcast(stop, 3, MPI_INT, 0, nm->lane));
    locate_report_findings(nm, &l);
    locate_report_nodes(nm, s.obs, s.nobs, &l);
    locate_report_verdict(nm, s.obs, s.nobs, s.rounds, &l);
    pinpoint_free(&l);
    free(s.obs);
    fabric_free(&fabric);
    return ok && p.ok;
}

static void settings(const struct netmap *nm)
{
    const struct netmap_config *c = &nm->cfg;
    if (nm->lanes > 1)
        err_usage("locate takes one rank of each node (--ranks-per-node=1) or every rank (all)");
    netmap_load_fabric(nm, topology_path, &fabric,
                       "none: the rounds are random, every pair of one class");
    out_comment("screening: rounds of disjoint pairs, %zu at least (seed %zu; with a topology, "
                "enough for every two groups and every two switches of a group to meet, all "
                "their pairs at once); in each, bandwidth both ways "
                "(%zu messages of %zu bytes in flight, median of %zu repetitions after a warm-up, "
                "the sender's clock) and latency (half the round trip of %zu-byte ping-pongs, "
                "median of %zu after 10 untimed)",
                partners, c->seed, c->window, c->size, c->iters, c->lat_size, c->lat_iters);
    out_comment("rule: a figure is slow when more than %g MADs and %g%% worse than the median of "
                "its class (same switch, same group, across groups); a node is a suspect when "
                "most of its figures in a role are slow, and is named when most of %zu known "
                "good partners, measured alone, agree (--mads, --min-worse, --confirm)",
                mads, min_worse, confirmers);
    locate_report_declare();
}

int main(int argc, char **argv)
{
    const struct opt_spec options[] = {
        {"partners", 0, OPT_SIZE, &partners, "K", "screening rounds at least: partners each node meets (8; with a topology, enough for every two groups and every two switches of a group to meet)", 1, 100000, false, NULL, NULL},
        {"confirm", 0, OPT_SIZE, &confirmers, "N", "known good partners a suspect node is measured against alone (3)", 1, PINPOINT_MAX_TESTS, false, NULL, NULL},
        {"max-probes", 0, OPT_SIZE, &max_probes, "N", "pairs measured alone after the screening, at most (16 + 8 log2 N)", 1, 1000000, false, NULL, NULL},
        NETMAP_TOPOLOGY_OPT(&topology_path),
        {"mads", 0, OPT_DOUBLE, &mads, "K", "a figure is slow when worse than its class's median by more than K MADs (3)", 0, 1000, true, NULL, NULL},
        {"min-worse", 0, OPT_DOUBLE, &min_worse, "PCT", "and by at least PCT percent (10)", 0, 99, true, NULL, NULL},
    };
    const struct netmap_program prog = {
        "locate", "Network map: the slow nodes and links, found in rounds of pairs",
        "Which nodes, NICs and links are slow, in O(log N) rounds rather than N^2 pairs:\n"
        "--partners rounds of disjoint pairs measure bandwidth both ways and latency, each\n"
        "figure judged against the pairs of its class of distance (same switch, same\n"
        "group, across groups, from --topology); suspects are measured again alone\n"
        "against known good nodes before they are named, and slow routes are narrowed to\n"
        "the switch or group links they share. Findings are '# culprit' lines (status 0).",
        options, sizeof options / sizeof options[0], 4, true,
        "a figure is the median of its repetitions; the rows hold medians of figures", settings, run, "median"};
    netmap_main(argc, argv, &prog);
}
