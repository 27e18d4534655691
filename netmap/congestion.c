/*
 * netmap/congestion: GPCNeT's congestion impact. A fraction of the
 * endpoints, spread over the job, are victims; the others congestors. The
 * victims measure three things, first alone (the congestors wait) and then
 * while the congestors run each pattern without pause: a random-ring
 * latency (--lat-size loops), a natural-ring bandwidth (--size loops) and
 * an 8-byte MPI_Allreduce. Every victim's samples together give a mean and
 * a tail (the 99th percentile; the bandwidth's from those of its loop
 * times: the worst 1%); the impact factor is congested over isolated for times and
 * isolated over congested for bandwidth, so above 1 is always worse.
 *
 * Congestors loop on their pattern among themselves until the victims are
 * done: after each round their first rank looks (MPI_Test) for the
 * victims' stop message and tells the others in a broadcast, and after the
 * first round it tells the victims that the load is on.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "netmap.h"
#include "out.h"
#include "plan.h"
#include "report.h"
#include "stats.h"
#include "transfer.h"
#include "watchdog.h"

enum { PATTERN_INCAST, PATTERN_ALLTOALL, PATTERN_BCAST, PATTERN_ALLREDUCE, NPATTERNS,
       PATTERN_ALL = NPATTERNS };
static const char *const pattern_names[] = {"incast", "alltoall", "bcast", "allreduce", "all",
                                            NULL};
enum { TEST_LATENCY, TEST_BANDWIDTH, TEST_ALLREDUCE, NTESTS };
static const char *const test_names[] = {"latency", "bandwidth", "allreduce"};
static const char *const test_units[] = {"us", "MB/s", "us"};

enum { TAG_STARTED = 91, TAG_STOP };

static double victim_pct = 20;
static int pattern_choice = PATTERN_ALL;
static size_t congestor_size = 131072;

struct roles {
    MPI_Comm group;      /* the victims, or the congestors, of this lane */
    MPI_Comm every_lane; /* the same of every lane: where --precision decides */
    bool victim;
    int group_rank, group_size;
    int victim_leader;   /* lane rank of the first victim (endpoint 0) */
    int congestor_root;  /* lane rank of the first congestor */
    size_t nvictims;
};

struct figures {
    double mean, tail;
};

static void assign_roles(struct netmap *nm, struct roles *r)
{
    size_t n = (size_t)nm->endpoints;
    r->nvictims = plan_victim_count(n, victim_pct);
    r->victim = plan_is_victim(n, r->nvictims, (size_t)nm->me);
    MPI_CHECK(MPI_Comm_split(nm->lane, r->victim ? 0 : 1, nm->me, &r->group));
    MPI_CHECK(MPI_Comm_split(nm->all, r->victim ? 0 : 1, 0, &r->every_lane));
    MPI_Comm_rank(r->group, &r->group_rank);
    MPI_Comm_size(r->group, &r->group_size);
    r->victim_leader = 0;
    r->congestor_root = -1;
    for (size_t e = 0; e < n && r->congestor_root < 0; e++)
        if (!plan_is_victim(n, r->nvictims, e))
            r->congestor_root = (int)e;
}

/* ---- the congestors ---- */

struct load {
    char *send, *recv;
    size_t per_peer; /* alltoall bytes per peer */
};

/* Receives the incast's first rank keeps posted at once: enough to keep
 * its link full, and its buffers stay 64 messages however many congestors
 * send (at 9,408 nodes one per sender would be 1.2 GB). */
#define INCAST_SLOTS 64

static void load_round(int pattern, MPI_Comm comm, int rank, int size, struct load *l)
{
    int b = (int)congestor_size;
    switch (pattern) {
    case PATTERN_INCAST:
        if (rank == 0) {
            MPI_Request req[INCAST_SLOTS];
            int slots = size - 1 < INCAST_SLOTS ? size - 1 : INCAST_SLOTS, next = 1;
            for (int s = 0; s < slots; s++, next++)
                MPI_CHECK(MPI_Irecv(l->recv + (size_t)s * congestor_size, b, MPI_BYTE, next, 0,
                                    comm, &req[s]));
            for (int done = 0; done < size - 1; done++) {
                int s;
                MPI_CHECK(MPI_Waitany(slots, req, &s, MPI_STATUS_IGNORE));
                if (next < size)
                    MPI_CHECK(MPI_Irecv(l->recv + (size_t)s * congestor_size, b, MPI_BYTE,
                                        next++, 0, comm, &req[s]));
            }
        } else {
            MPI_CHECK(MPI_Send(l->send, b, MPI_BYTE, 0, 0, comm));
        }
        break;
    case PATTERN_ALLTOALL:
        MPI_CHECK(MPI_Alltoall(l->send, (int)l->per_peer, MPI_BYTE, l->recv, (int)l->per_peer,
                               MPI_BYTE, comm));
        break;
    case PATTERN_BCAST:
        MPI_CHECK(MPI_Bcast(l->send, b, MPI_BYTE, 0, comm));
        break;
    case PATTERN_ALLREDUCE:
        MPI_CHECK(MPI_Allreduce(l->send, l->recv, b / (int)sizeof(float), MPI_FLOAT, MPI_SUM,
                                comm));
        break;
    }
}

static void congest(struct netmap *nm, const struct roles *r, int pattern, struct load *l)
{
    MPI_Request stop = MPI_REQUEST_NULL;
    if (r->group_rank == 0)
        MPI_CHECK(MPI_Irecv(NULL, 0, MPI_BYTE, r->victim_leader, TAG_STOP, nm->lane, &stop));
    bool told = false;
    for (size_t round = 0;; round++) {
        watchdog_enter(round);
        load_round(pattern, r->group, r->group_rank, r->group_size, l);
        int done = 0;
        if (r->group_rank == 0) {
            if (!told)
                MPI_CHECK(MPI_Send(NULL, 0, MPI_BYTE, r->victim_leader, TAG_STARTED, nm->lane));
            told = true;
            MPI_CHECK(MPI_Test(&stop, &done, MPI_STATUS_IGNORE));
        }
        MPI_CHECK(MPI_Bcast(&done, 1, MPI_INT, 0, r->group));
        watchdog_leave();
        if (done)
            break;
    }
}

/* ---- the victims ---- */

/* Samples of one test on this victim: us, or for the bandwidth loop
 * times in seconds (summarise turns them into MB/s). */
/* The timed part of a victim test, repetitions first .. first + n - 1. */
struct victim_run {
    struct netmap *nm;
    const struct roles *r;
    int test;
    size_t left, right;
    double *samples;
    bool ok;
};

static void victim_batch(void *arg, size_t first, size_t n)
{
    struct victim_run *v = arg;
    const struct netmap_config *c = &v->nm->cfg;
    const struct roles *r = v->r;
    double *samples = v->samples + first;
    if (v->test == TEST_LATENCY) {
        v->ok &= transfer_ring(v->nm, r->group, (int)v->left, (int)v->right, c->lat_size, n,
                               1 + first, samples);
        for (size_t i = 0; i < n; i++)
            samples[i] = samples[i] / 2 * 1e6;
    } else if (v->test == TEST_BANDWIDTH) {
        v->ok &= transfer_ring(v->nm, r->group, (int)v->left, (int)v->right, c->size, n,
                               1 + first, samples);
    } else {
        MPI_CHECK(MPI_Barrier(r->group));
        size_t nv = r->nvictims;
        for (size_t i = 0; i < n; i++) {
            double mine = r->group_rank + 1, sum = 0;
            double t0 = MPI_Wtime();
            MPI_CHECK(MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, r->group));
            samples[i] = (MPI_Wtime() - t0) * 1e6;
            double want = (double)nv * (double)(nv + 1) / 2;
            if (v->nm->corrupt && first + i == 0)
                sum += 1;
            if (c->check && sum != want && v->ok) {
                err_print("data check failed: the victims' allreduce gave %g, not %g", sum, want);
                v->ok = false;
            }
        }
    }
}

/* One victim test: count samples (samples has room for netmap_room(count)),
 * or with --precision as many as it takes; returns how many. */
static size_t victim_test(struct netmap *nm, const struct roles *r, int test, double *samples,
                          size_t count, bool *ok)
{
    const struct netmap_config *c = &nm->cfg;
    size_t v = r->nvictims;
    struct victim_run run = {nm, r, test, 0, 0, samples, true};
    size_t *order = netmap_alloc(v, sizeof *order, NULL);
    if (test == TEST_LATENCY)
        plan_permutation(c->seed, 0x5eed, v, order);
    else
        for (size_t i = 0; i < v; i++)
            order[i] = i;
    plan_ring_neighbours(order, v, (size_t)r->group_rank, &run.left, &run.right);
    free(order);
    double warm[10];
    if (test == TEST_LATENCY)
        run.ok &= transfer_ring(nm, r->group, (int)run.left, (int)run.right, c->lat_size, 10, 0,
                                warm);
    else if (test == TEST_BANDWIDTH)
        run.ok &= transfer_ring(nm, r->group, (int)run.left, (int)run.right, c->size, 1, 0, warm);
    size_t done = netmap_repeat(r->every_lane, count, samples, true, PRECISION_MEAN,
                                victim_batch, &run, NULL);
    /* A node's sample: its slowest lane's. */
    if (nm->lanes > 1)
        MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, samples, (int)done, MPI_DOUBLE, MPI_MAX,
                                nm->node));
    *ok &= run.ok;
    return done;
}

/* Mean and tail of every victim's samples, on the first victim. The
 * bandwidth comes from the mean and 99th percentile of the loop times: a
 * mean of rates would weigh the fast loops too much. */
static void summarise(const struct netmap *nm, const struct roles *r, int test,
                      const double *samples, size_t count, struct figures *f)
{
    size_t total = count * (size_t)r->group_size;
    double *all = r->group_rank == 0 ? netmap_alloc(total, sizeof *all, NULL) : NULL;
    MPI_CHECK(MPI_Gather(samples, (int)count, MPI_DOUBLE, all, (int)count, MPI_DOUBLE, 0,
                         r->group));
    if (r->group_rank != 0)
        return;
    stats_sort(all, total);
    f->mean = stats_mean(all, total);
    f->tail = stats_percentile_sorted(all, total, 99);
    if (test == TEST_BANDWIDTH) {
        f->mean = netmap_mbps(nm, 2 * nm->cfg.size, f->mean);
        f->tail = netmap_mbps(nm, 2 * nm->cfg.size, f->tail);
    }
    free(all);
}

static size_t test_count(const struct netmap_config *c, int test)
{
    return test == TEST_BANDWIDTH ? c->iters : c->lat_iters;
}

/* The victims' three tests, alone (pattern < 0) or under a pattern. */
static bool victims_measure(struct netmap *nm, const struct roles *r, int pattern,
                            struct figures f[NTESTS])
{
    if (pattern >= 0) {
        if (r->group_rank == 0)
            MPI_CHECK(MPI_Recv(NULL, 0, MPI_BYTE, r->congestor_root, TAG_STARTED, nm->lane,
                               MPI_STATUS_IGNORE));
        MPI_CHECK(MPI_Barrier(r->group));
    }
    bool ok = true;
    for (int t = 0; t < NTESTS; t++) {
        size_t count = test_count(&nm->cfg, t);
        double *samples = netmap_alloc(netmap_room(count), sizeof *samples, NULL);
        watchdog_enter((size_t)t);
        count = victim_test(nm, r, t, samples, count, &ok);
        watchdog_leave();
        summarise(nm, r, t, samples, count, &f[t]);
        free(samples);
    }
    if (pattern >= 0) {
        MPI_CHECK(MPI_Barrier(r->group));
        if (r->group_rank == 0)
            MPI_CHECK(MPI_Send(NULL, 0, MPI_BYTE, r->congestor_root, TAG_STOP, nm->lane));
    }
    return ok;
}

static void print_row(int test, int pattern, const struct figures *alone,
                      const struct figures *loaded)
{
    bool bw = test == TEST_BANDWIDTH;
    double impact_mean = bw ? alone->mean / loaded->mean : loaded->mean / alone->mean;
    double impact_tail = bw ? alone->tail / loaded->tail : loaded->tail / alone->tail;
    /* Significant digits for the ratios: a victim sped up a thousandfold
     * (an oversubscribed node whose idle congestors spun while it ran
     * alone) is still a figure, not 0.000. */
    out_line("%s %s %.3f %.3f %.3f %.3f %.4g %.4g", test_names[test], pattern_names[pattern],
             alone->mean, alone->tail, loaded->mean, loaded->tail, impact_mean, impact_tail);
    char table[48];
    snprintf(table, sizeof table, "netmap_congestion_%s", test_names[test]);
    report_row_begin(table);
    report_row_string("congestor", pattern_names[pattern]);
    report_row_double("isolated_mean", alone->mean);
    report_row_double("isolated_tail", alone->tail);
    report_row_double("congested_mean", loaded->mean);
    report_row_double("congested_tail", loaded->tail);
    report_row_double("impact_mean", impact_mean);
    report_row_double("impact_tail", impact_tail);
    report_row_end();
}

static void alloc_load(const struct roles *r, struct load *l)
{
    size_t c = (size_t)r->group_size;
    l->per_peer = congestor_size;
    if (l->per_peer * c > ((size_t)64 << 20))
        l->per_peer = ((size_t)64 << 20) / c;
    if (l->per_peer == 0)
        l->per_peer = 1;
    /* The alltoall's, and one message (bcast, allreduce); the incast's
     * first rank also its slots. */
    size_t bytes = l->per_peer * c > congestor_size ? l->per_peer * c : congestor_size;
    size_t slots = r->group_rank == 0 ? INCAST_SLOTS * congestor_size : 0;
    l->send = netmap_alloc(bytes, 1, NULL);
    l->recv = netmap_alloc(bytes > slots ? bytes : slots, 1, NULL);
}

static bool run(struct netmap *nm)
{
    struct roles r;
    assign_roles(nm, &r);
    struct figures alone[NTESTS], loaded[NTESTS];
    struct load l = {NULL, NULL, 0};
    if (!r.victim)
        alloc_load(&r, &l);
    bool ok = true;
    watchdog_arm(NULL, "the victims alone");
    MPI_CHECK(MPI_Barrier(nm->lane));
    if (r.victim)
        ok &= victims_measure(nm, &r, -1, alone);
    MPI_CHECK(MPI_Barrier(nm->lane));
    watchdog_disarm();
    for (int p = 0; p < NPATTERNS; p++) {
        if (pattern_choice != PATTERN_ALL && pattern_choice != p)
            continue;
        watchdog_arm(NULL, "the victims under %s", pattern_names[p]);
        if (r.victim) {
            ok &= victims_measure(nm, &r, p, loaded);
            for (int t = 0; t < NTESTS && r.group_rank == 0; t++)
                print_row(t, p, &alone[t], &loaded[t]);
        } else {
            congest(nm, &r, p, &l);
        }
        MPI_CHECK(MPI_Barrier(nm->lane));
        watchdog_disarm();
    }
    out_block_end();
    free(l.send);
    free(l.recv);
    MPI_Comm_free(&r.group);
    MPI_Comm_free(&r.every_lane);
    return ok;
}

static void settings(const struct netmap *nm)
{
    const struct netmap_config *c = &nm->cfg;
    size_t n = (size_t)nm->endpoints, v = plan_victim_count(n, victim_pct);
    char list[512] = "";
    for (size_t e = 0; e < n; e++)
        if (plan_is_victim(n, v, e) && strlen(list) + 16 < sizeof list)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%zu", *list ? "," : "",
                     e);
    out_comment("victims: %zu of %zu endpoints (%g%%, spread evenly): %s; congestors: the "
                "other %zu",
                v, n, victim_pct, list, n - v);
    out_comment("victim tests: latency (random ring, half a loop of %zu-byte messages, %zu "
                "loops), bandwidth (natural ring, 2 x %zu bytes per loop, %zu loops), allreduce "
                "(8 bytes, %zu calls); mean and tail over every victim's samples (tail: 99th "
                "percentile; bandwidth: of the loop times, as MB/s)",
                c->lat_size, c->lat_iters, c->size, c->iters, c->lat_iters);
    out_comment("congestors: %s of %zu bytes (alltoall: per peer, at most 64 MiB in all), "
                "round after round until the victims are done; their data is load, not checked",
                pattern_names[pattern_choice], congestor_size);
    out_comment("impact: congested over isolated (times) or isolated over congested "
                "(bandwidth): above 1 is worse");
    out_comment("test congestor isolated_mean isolated_tail congested_mean congested_tail "
                "impact_mean impact_tail (us for latency and allreduce, MB/s for bandwidth)");
    for (int t = 0; t < NTESTS; t++) {
        char table[48];
        const char *unit = strcmp(test_units[t], "us") == 0 ? REPORT_UNIT_US : REPORT_UNIT_MB_S;
        snprintf(table, sizeof table, "netmap_congestion_%s", test_names[t]);
        report_table(table, "impact_mean", REPORT_LOWER_BETTER, NULL);
        report_key("congestor", REPORT_UNIT_TEXT);
        netmap_report_values(unit, "isolated_mean", "isolated_tail", "congested_mean",
                             "congested_tail", NULL);
        netmap_report_values(REPORT_UNIT_RATIO, "impact_mean", "impact_tail", NULL);
        report_no_iterations();
    }
}

int main(int argc, char **argv)
{
    const struct opt_spec options[] = {
        {"victims", 0, OPT_DOUBLE, &victim_pct, "PCT", "percent of the endpoints that are victims, at least 2, leaving 2 congestors (20)", 0, 100, false, NULL, NULL},
        {"congestor", 0, OPT_CHOICE, &pattern_choice, "incast|alltoall|bcast|allreduce|all", "the congestors' pattern (all: each in turn)", 0, 0, false, pattern_names, NULL},
        {"congestor-size", 0, OPT_SIZE, &congestor_size, "BYTES", "bytes of a congestor message (131072)", 4, (size_t)1 << 30, false, NULL, NULL},
    };
    const struct netmap_program prog = {
        "congestion", "Network map: congestion impact on victims",
        "GPCNeT's congestion impact: victims (random-ring latency, ring bandwidth, 8-byte\n"
        "allreduce) measured alone and while congestors on the other endpoints run incast,\n"
        "all-to-all, broadcast or allreduce traffic; mean, tail and impact factor.",
        options, 3, 4, false, "its rows are already the mean and tail of every victim's samples", settings, run, "mean"};
    netmap_main(argc, argv, &prog);
}
