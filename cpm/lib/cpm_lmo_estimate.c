/* cpm_lmo_estimate: measuring and solving the LMO model; see cpm_lmo.h. */
#include "cpm_lmo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpm_breakpoint.h"
#include "err.h"
#include "stats.h"

/* The solutions of one parameter over the triplets, per processor or pair
 * (groups of at most per values each). */
struct solutions {
    double *x;
    size_t *n;
    size_t per;
};

static void solutions_init(struct solutions *s, size_t groups, size_t per)
{
    s->per = per;
    s->x = calloc(groups * per + 1, sizeof *s->x);
    s->n = calloc(groups + 1, sizeof *s->n);
    if (!s->x || !s->n)
        err_fatal("out of memory for the LMO solutions");
}

static void solutions_free(struct solutions *s)
{
    free(s->x);
    free(s->n);
}

static void add(struct solutions *s, size_t group, double v)
{
    s->x[group * s->per + s->n[group]++] = v;
}

/* The median, not the mean: each solution is made of the means of a few
 * experiments, and on a shared or loaded machine one experiment in several
 * catches a descheduling that puts its mean ten or a hundred times above
 * the others for microsecond round trips. A mean spreads that over the
 * parameter; the median leaves it out while fewer than half are hit, and
 * equals the mean of clean data up to its noise. */
static double centre_of(const struct solutions *s, size_t group)
{
    if (!s->n[group])
        return 0.0;
    double m = stats_median(s->x + group * s->per, s->n[group]);
    if (isnan(m))
        err_fatal("out of memory for a median of %zu values", s->n[group]);
    return m;
}

/* Half-width of the confidence interval relative to the mean. */
static double relative_ci(const struct solutions *s, size_t group, double cl)
{
    size_t n = s->n[group];
    if (n < 2)
        return 0.0;
    const double *x = s->x + group * s->per;
    double m = stats_mean(x, n), half = stats_t_halfwidth(stats_stddev(x, n), n, cl);
    return m != 0.0 ? half / fabs(m) : 0.0;
}

/*
 * The seed's systems, per triplet {v, x, y}. Round trips of M bytes each way
 * (full round-trip times):
 *   T_ab(M) = 2(C_a + L_ab + C_b) + 2M(t_a + 1/beta_ab + t_b);
 * one-to-two experiments v -> {x, y}, M bytes out, empty answers:
 *   T_v(M) = 2(2C_v + M t_v) + max_x (2(L_vx + C_x) + M(1/beta_vx + t_x)).
 * Since (T_vx(0) + T_vx(M))/2 = 2(C_v + L_vx + C_x) + M(t_v + 1/beta_vx + t_x),
 * its maximum over x differs from T_v(M) by exactly 2C_v + M t_v, so
 *   C_v = (T_v(0) - max_x T_vx(0)) / 2
 *   t_v = (T_v(M) - max_x (T_vx(0) + T_vx(M))/2 - 2 C_v) / M
 * and from the round trips of a pair
 *   L_ab = T_ab(0)/2 - C_a - C_b
 *   1/beta_ab = (T_ab(M)/2 - C_a - L_ab - C_b)/M - t_a - t_b
 *             = (T_ab(M) - T_ab(0)) / (2M) - t_a - t_b.
 *
 * The seed averages every parameter's per-triplet solutions. The same
 * equations are solved here in an order that matters on real data: C_v and
 * t_v per triplet, their median over all triplets holding v; then L_ab and
 * 1/beta_ab once per pair, from the median of the round trips of the pair
 * that each of its processes timed in each triplet holding it (2(n-2) of
 * them), with those C and t. The prediction
 * C_a + L_ab + C_b + M(t_a + 1/beta_ab + t_b) then equals
 * T_ab(0)/2 + M (T_ab(M) - T_ab(0)) / (2M), the measured round trip halved,
 * whatever the spread of t_v over the triplets. Averaging per-triplet L and
 * 1/beta instead leaves the prediction off by the difference between t_a
 * over the pair's triplets and over all of a's; t_v is a small difference
 * of large times, so that spread is tens of percent of a link's time on a
 * shaped network (8.7 to 32.5 MB/s for four equal links of 12.4).
 * Medians rather than means: see centre_of.
 *
 * Processor delays are durations: a negative median (noise, or a C_v or
 * t_v smaller than the jitter) is set to 0, and L and 1/beta absorb it, so
 * the point-to-point sums stay as measured. A pair whose round trip at M
 * was faster than the empty one gets a per-byte sum of 0 (no prediction
 * falls with the message size). L or 1/beta below 0 are kept: the sums are
 * what the round trips show, and the fixes record them for a warning.
 */

/* Round trip between the processes at positions a and b of triplet tr as
 * the one at a timed it (the pair's own when none were taken per triplet). */
static double round_trip_from(const struct cpm_lmo_data *d, int n, size_t tr, const int *v,
                              int a, int b, bool full)
{
    struct cpm_result *const *tri = full ? d->trim : d->tri0;
    if (!tri) {
        const struct cpm_result *pairs = full ? d->p2pm : d->p2p0;
        return pairs[cpm_pair_index(n, v[a], v[b])].time;
    }
    /* Root a measured its round trip to a+1 in tri[0], to a+2 in tri[1]. */
    return tri[b == (a + 1) % 3 ? 0 : 1][3 * tr + (size_t)a].time;
}

/* The same, both directions averaged: what one triplet's system sees. */
static double round_trip(const struct cpm_lmo_data *d, int n, size_t tr, const int *v, int a,
                         int b, bool full)
{
    return (round_trip_from(d, n, tr, v, a, b, full) + round_trip_from(d, n, tr, v, b, a, full)) /
           2.0;
}

static bool usable_time(double t) { return isfinite(t) && t >= 0.0; }

/* Every time the solution uses must be a finite duration. */
static int check_times(const struct cpm_lmo_data *d, int n, char *err, size_t errlen)
{
    for (size_t tr = 0; tr < cpm_triplets(n); tr++) {
        int v[3];
        cpm_triplet_at(n, tr, &v[0], &v[1], &v[2]);
        for (int r = 0; r < 3; r++) {
            const char *what = NULL;
            double bad = 0.0;
            if (!usable_time(d->p2pp0[3 * tr + (size_t)r].time))
                what = "one-to-two of 0 bytes", bad = d->p2pp0[3 * tr + (size_t)r].time;
            else if (!usable_time(d->p2ppm[3 * tr + (size_t)r].time))
                what = "one-to-two of M bytes", bad = d->p2ppm[3 * tr + (size_t)r].time;
            for (int o = 1; o <= 2 && !what; o++)
                for (int full = 0; full < 2 && !what; full++) {
                    double rt = round_trip(d, n, tr, v, r, (r + o) % 3, full);
                    if (!usable_time(rt))
                        what = full ? "round trip of M bytes" : "empty round trip", bad = rt;
                }
            if (what) {
                snprintf(err, errlen,
                         "LMO: the %s rooted at %d in triplet %d %d %d took %g s, not a duration",
                         what, v[r], v[0], v[1], v[2], bad);
                return -1;
            }
        }
    }
    return 0;
}

int cpm_lmo_solve(struct cpm_lmo *l, const struct cpm_lmo_data *d, double cl, char *err,
                  size_t errlen)
{
    int n = l->n;
    size_t pairs = cpm_pairs(n), triplets = cpm_triplets(n);
    if (n < 3) {
        snprintf(err, errlen, "LMO: the solve needs at least 3 processes, not %d", n);
        return -1;
    }
    if (check_times(d, n, err, errlen) != 0)
        return -1;
    /* A processor is in C(n-1, 2) triplets, a pair in n - 2, where each of
     * its processes timed a round trip to the other. */
    size_t per_proc = (size_t)(n - 1) * (size_t)(n - 2) / 2, per_pair = (size_t)(n - 2);
    struct solutions C, t, L, ib, rt0, rtm;
    solutions_init(&C, (size_t)n, per_proc);
    solutions_init(&t, (size_t)n, per_proc);
    solutions_init(&L, pairs, per_pair);
    solutions_init(&ib, pairs, per_pair);
    solutions_init(&rt0, pairs, 2 * per_pair);
    solutions_init(&rtm, pairs, 2 * per_pair);
    double M = (double)d->m;
    /* C_v and t_v per triplet; the pairs' round trips gathered. */
    for (size_t tr = 0; tr < triplets; tr++) {
        int v[3];
        cpm_triplet_at(n, tr, &v[0], &v[1], &v[2]);
        for (int r = 0; r < 3; r++) {
            int x = (r + 1) % 3, y = (r + 2) % 3;
            double t0x = round_trip(d, n, tr, v, r, x, false);
            double t0y = round_trip(d, n, tr, v, r, y, false);
            double both_x = (t0x + round_trip(d, n, tr, v, r, x, true)) / 2.0;
            double both_y = (t0y + round_trip(d, n, tr, v, r, y, true)) / 2.0;
            double c = (d->p2pp0[3 * tr + (size_t)r].time - fmax(t0x, t0y)) / 2.0;
            add(&C, (size_t)v[r], c);
            add(&t, (size_t)v[r],
                (d->p2ppm[3 * tr + (size_t)r].time - fmax(both_x, both_y) - 2.0 * c) / M);
            size_t p = cpm_pair_index(n, v[r], v[x]);
            for (int full = 0; full < 2; full++) {
                add(full ? &rtm : &rt0, p, round_trip_from(d, n, tr, v, r, x, full));
                add(full ? &rtm : &rt0, p, round_trip_from(d, n, tr, v, x, r, full));
            }
        }
    }
    memset(&l->fixes, 0, sizeof l->fixes);
    l->worst_ci = 0.0;
    for (int i = 0; i < n; i++) {
        l->worst_ci = fmax(l->worst_ci, fmax(relative_ci(&C, (size_t)i, cl),
                                             relative_ci(&t, (size_t)i, cl)));
        l->C[i] = centre_of(&C, (size_t)i);
        l->t[i] = centre_of(&t, (size_t)i);
        if (l->C[i] < 0.0) {
            l->fixes.negative_C++;
            l->C[i] = 0.0;
        }
        if (l->t[i] < 0.0) {
            l->fixes.negative_t++;
            l->t[i] = 0.0;
        }
    }
    for (size_t p = 0; p < pairs; p++) {
        int a, b;
        cpm_pair_at(n, p, &a, &b);
        double fixed = centre_of(&rt0, p) / 2.0;
        double per_byte = (centre_of(&rtm, p) - centre_of(&rt0, p)) / (2.0 * M);
        if (per_byte < 0.0) {
            l->fixes.falling_pairs++;
            per_byte = 0.0;
        }
        l->L[p] = fixed - l->C[a] - l->C[b];
        l->inv_beta[p] = per_byte - l->t[a] - l->t[b];
        l->fixes.negative_L += l->L[p] < 0.0;
        l->fixes.negative_inv_beta += l->inv_beta[p] < 0.0;
    }
    cpm_lmo_rates(l);
    /* The spread of the pairs' solutions over their triplets, with the
     * C and t above (the round trips are what differs between them). */
    for (size_t tr = 0; tr < triplets; tr++) {
        int v[3];
        cpm_triplet_at(n, tr, &v[0], &v[1], &v[2]);
        for (int r = 0; r < 3; r++) {
            int a = v[r], b = v[(r + 1) % 3];
            size_t p = cpm_pair_index(n, a, b);
            double t0 = round_trip(d, n, tr, v, r, (r + 1) % 3, false);
            double tm = round_trip(d, n, tr, v, r, (r + 1) % 3, true);
            add(&L, p, t0 / 2.0 - l->C[a] - l->C[b]);
            add(&ib, p, (tm - t0) / (2.0 * M) - l->t[a] - l->t[b]);
        }
    }
    for (size_t p = 0; p < pairs; p++)
        l->worst_ci = fmax(l->worst_ci, fmax(relative_ci(&L, p, cl), relative_ci(&ib, p, cl)));
    solutions_free(&C);
    solutions_free(&t);
    solutions_free(&L);
    solutions_free(&ib);
    solutions_free(&rt0);
    solutions_free(&rtm);
    return 0;
}

struct cpm_lmo *cpm_lmo_homogeneous_of(const struct cpm_lmo *het)
{
    struct cpm_lmo *h = cpm_lmo_alloc(het->n, true);
    if (!h)
        err_fatal("out of memory for an LMO model");
    size_t pairs = cpm_pairs(het->n);
    for (int i = 0; i < het->n; i++) {
        h->C[0] += het->C[i] / het->n;
        h->t[0] += het->t[i] / het->n;
    }
    for (size_t p = 0; p < pairs; p++) {
        h->L[0] += het->L[p] / (double)pairs;
        h->inv_beta[0] += het->inv_beta[p] / (double)pairs;
    }
    cpm_lmo_rates(h);
    h->S = het->S;
    h->M1 = het->M1;
    h->M2 = het->M2;
    memcpy(h->one2many_small, het->one2many_small, sizeof h->one2many_small);
    memcpy(h->one2many_large, het->one2many_large, sizeof h->one2many_large);
    memcpy(h->many2one_small, het->many2one_small, sizeof h->many2one_small);
    memcpy(h->many2one_large, het->many2one_large, sizeof h->many2one_large);
    h->worst_ci = het->worst_ci;
    h->fixes = het->fixes;
    return h;
}

/* Flat one-to-many and many-to-one from rank 0, timed by the max method. */
struct flat_ctx {
    char *buf;
    bool gather;
    struct cpm_coll_timer timer;
    const struct cpm_precision *precision;
    size_t count;
    double *sizes, *times, *max_times;
};

static void flat_op(MPI_Comm comm, int root, size_t size, void *ctx)
{
    struct flat_ctx *c = ctx;
    int rank, n;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &n);
    if (rank != root) {
        if (c->gather)
            cpm_send_bytes(c->buf, size, root, CPM_TAG_DATA, comm);
        else
            cpm_recv_bytes(c->buf, size, root, CPM_TAG_DATA, comm);
        return;
    }
    for (int x = 0; x < n; x++) {
        if (x == root)
            continue;
        if (c->gather)
            cpm_recv_bytes(c->buf, size, x, CPM_TAG_DATA, comm);
        else
            cpm_send_bytes(c->buf, size, x, CPM_TAG_DATA, comm);
    }
}

static void flat_measure(MPI_Comm comm, size_t size, void *ctx, struct cpm_result *r)
{
    struct flat_ctx *c = ctx;
    (void)comm;
    cpm_coll_measure(&c->timer, flat_op, size, c, c->precision, r);
}

static void flat_keep(size_t index, const struct cpm_result *r, void *ctx)
{
    struct flat_ctx *c = ctx;
    c->sizes[index] = (double)r->size;
    c->times[index] = r->time;
    c->max_times[index] = r->max_time;
    c->count = index + 1;
}

/* The break of the one-to-many or many-to-one curve over the message set;
 * returns the threshold (or none) and fills the fits on both sides. */
static size_t find_break(const struct flat_ctx *c, double small[2], double large[2])
{
    struct cpm_break b;
    /* The break is searched, so a plain F test would find one too often:
     * a stricter level compensates. */
    cpm_breakpoint_search(c->sizes, c->times, c->count, 2, 0.01, &b);
    memcpy(small, b.left, 2 * sizeof *small);
    memcpy(large, b.right, 2 * sizeof *large);
    return b.found ? (size_t)b.x : CPM_NO_THRESHOLD;
}

/* A tenfold escalation: a repetition ten times slower than the small-size
 * line predicts (never less than the fastest mean seen). */
static bool escalated(const double small[2], double floor_time, double size, double max_time)
{
    double expected = fmax(small[0] + small[1] * size, floor_time);
    return max_time > 10.0 * expected;
}

/* The smallest size with an escalation, narrowed by halving the interval
 * down to one byte and truncated to whole KiB (rank 0 decides, everyone
 * measures). */
static size_t find_escalation(MPI_Comm comm, struct flat_ctx *c, const double small[2])
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    double floor_time = INFINITY;
    unsigned long long lo = 0, hi = 0;
    int found = 0;
    if (rank == 0) {
        for (size_t k = 0; k < c->count; k++)
            if (c->times[k] > 0.0)
                floor_time = fmin(floor_time, c->times[k]);
        for (size_t k = 1; k < c->count && !found; k++)
            if (escalated(small, floor_time, c->sizes[k], c->max_times[k])) {
                found = 1;
                lo = (unsigned long long)c->sizes[k - 1];
                hi = (unsigned long long)c->sizes[k];
            }
    }
    MPI_CHECK(MPI_Bcast(&found, 1, MPI_INT, 0, comm));
    if (!found)
        return CPM_NO_THRESHOLD;
    for (;;) {
        unsigned long long mid = 0;
        if (rank == 0)
            mid = hi - lo > 1 ? lo + (hi - lo) / 2 : 0;
        MPI_CHECK(MPI_Bcast(&mid, 1, MPI_UNSIGNED_LONG_LONG, 0, comm));
        if (mid == 0)
            break;
        struct cpm_result r;
        cpm_coll_measure(&c->timer, flat_op, (size_t)mid, c, c->precision, &r);
        if (rank == 0) {
            if (escalated(small, floor_time, (double)mid, r.max_time))
                hi = mid;
            else
                lo = mid;
        }
    }
    unsigned long long kib = hi / 1024 * 1024;
    return (size_t)(kib ? kib : hi);
}

static void thresholds(MPI_Comm comm, const struct cpm_precision *p, const struct cpm_msgset *set,
                       struct cpm_lmo *l)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    struct flat_ctx c = {0};
    c.buf = calloc(set->max_size + 1, 1);
    c.sizes = calloc(set->max_num, sizeof *c.sizes);
    c.times = calloc(set->max_num, sizeof *c.times);
    c.max_times = calloc(set->max_num, sizeof *c.max_times);
    if (!c.buf || !c.sizes || !c.times || !c.max_times)
        err_fatal("out of memory for messages of %zu bytes", set->max_size);
    c.precision = p;
    cpm_coll_timer_init(&c.timer, comm, CPM_TIMING_MAX, 0, p);

    c.gather = false;
    cpm_msgset_run(comm, set, 1, flat_measure, &c, flat_keep, NULL);
    if (rank == 0)
        l->S = find_break(&c, l->one2many_small, l->one2many_large);

    c.gather = true;
    c.count = 0;
    cpm_msgset_run(comm, set, 1, flat_measure, &c, flat_keep, NULL);
    if (rank == 0)
        l->M2 = find_break(&c, l->many2one_small, l->many2one_large);
    double small[2] = {0.0, 0.0};
    if (rank == 0)
        memcpy(small, l->many2one_small, sizeof small);
    size_t m1 = find_escalation(comm, &c, small);
    if (rank == 0) {
        /* Without escalations there is no medium range: M1 = M2. */
        l->M1 = m1 == CPM_NO_THRESHOLD ? l->M2 : m1;
        if (l->M2 != CPM_NO_THRESHOLD && l->M1 > l->M2)
            l->M1 = l->M2;
    }
    cpm_coll_timer_free(&c.timer);
    free(c.buf);
    free(c.sizes);
    free(c.times);
    free(c.max_times);
}

/* Notes on the estimate: the spread of the solutions and every kind of
 * correction the solver made, so that none is silent. */
void cpm_lmo_report(const struct cpm_lmo *l, size_t m, double eps, cpm_note_fn note, void *ctx)
{
    char text[600];
    const struct cpm_lmo_fixes *f = &l->fixes;
    if (f->negative_C || f->negative_t) {
        snprintf(text, sizeof text,
                 "LMO warning: %d fixed (C) and %d per-byte (t) processor delays came out "
                 "below 0 and were set to 0; L and 1/beta absorb the difference",
                 f->negative_C, f->negative_t);
        note(text, ctx);
    }
    if (f->falling_pairs) {
        snprintf(text, sizeof text,
                 "LMO warning: for %d pairs the round trip of %zu bytes was faster than the "
                 "empty one; their per-byte cost was set to 0 (measure with a larger -M)",
                 f->falling_pairs, m);
        note(text, ctx);
    }
    if (f->negative_L || f->negative_inv_beta) {
        snprintf(text, sizeof text,
                 "LMO warning: %d latencies L and %d inverse rates 1/beta came out below 0: "
                 "the one-to-two experiments put more time on the processors than the round "
                 "trips show (as when a host's own link carries both transfers). "
                 "Point-to-point predictions reproduce the round trips; flat scatter and "
                 "gather, which add these terms separately, may not",
                 f->negative_L, f->negative_inv_beta);
        note(text, ctx);
    }
    snprintf(text, sizeof text, "LMO: largest relative confidence interval over triplets: %g%s",
             l->worst_ci, l->worst_ci > eps ? " (above eps)" : "");
    note(text, ctx);
}

int cpm_lmo_estimate(MPI_Comm comm, const struct cpm_precision *p, const struct cpm_msgset *set,
                     bool parallel, struct cpm_lmo **model, char *err, size_t errlen)
{
    int rank, n;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &n);
    size_t trip = 3 * cpm_triplets(n), m = set->max_size;
    *model = NULL;
    /* p2pp at 0 and M, then the round trips of each triplet at 0 and M:
     * results for rank 0 only, which solves. */
    struct cpm_result *r[6] = {NULL};
    for (int k = 0; rank == 0 && k < 6; k++) {
        r[k] = calloc(trip + 1, sizeof *r[k]);
        if (!r[k])
            err_fatal("out of memory for %zu results", trip);
    }
    struct cpm_result *tri0[2] = {r[2], r[3]}, *trim[2] = {r[4], r[5]};
    cpm_measure_p2pp_p2p(comm, 0, parallel, p, r[0], tri0);
    cpm_measure_p2pp_p2p(comm, m, parallel, p, r[1], trim);
    struct cpm_lmo *l = NULL;
    int bad = 0;
    if (rank == 0) {
        l = cpm_lmo_alloc(n, false);
        if (!l)
            err_fatal("out of memory for an LMO model of %d processes", n);
        struct cpm_lmo_data d = {m, NULL, NULL, r[0], r[1], tri0, trim};
        bad = cpm_lmo_solve(l, &d, p->cl, err, errlen) != 0;
    }
    for (int k = 0; k < 6; k++)
        free(r[k]);
    /* Every rank leaves with the same verdict, before the thresholds. */
    MPI_CHECK(MPI_Bcast(&bad, 1, MPI_INT, 0, comm));
    if (bad) {
        cpm_lmo_free(l);
        return -1;
    }
    struct cpm_lmo scratch;
    memset(&scratch, 0, sizeof scratch);
    thresholds(comm, p, set, l ? l : &scratch);
    *model = l;
    return 0;
}

int cpm_lmo_estimate_homogeneous(MPI_Comm comm, const struct cpm_precision *p,
                                 const struct cpm_msgset *set, bool parallel,
                                 struct cpm_lmo **model, char *err, size_t errlen)
{
    struct cpm_lmo *het;
    *model = NULL;
    if (cpm_lmo_estimate(comm, p, set, parallel, &het, err, errlen) != 0)
        return -1;
    if (het) {
        *model = cpm_lmo_homogeneous_of(het);
        cpm_lmo_free(het);
    }
    return 0;
}
