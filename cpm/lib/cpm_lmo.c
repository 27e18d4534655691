/* cpm_lmo: the LMO model, its file and its predictions; see cpm_lmo.h. */
#include "cpm_lmo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct cpm_lmo *cpm_lmo_alloc(int n, bool homogeneous)
{
    struct cpm_lmo *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    size_t procs = homogeneous ? 1 : (size_t)n, links = homogeneous ? 1 : cpm_pairs(n);
    l->n = n;
    l->homogeneous = homogeneous;
    l->C = calloc(procs + 1, sizeof *l->C);
    l->t = calloc(procs + 1, sizeof *l->t);
    l->L = calloc(links + 1, sizeof *l->L);
    l->inv_beta = calloc(links + 1, sizeof *l->inv_beta);
    l->b = calloc(links + 1, sizeof *l->b);
    if (!l->C || !l->t || !l->L || !l->inv_beta || !l->b) {
        cpm_lmo_free(l);
        return NULL;
    }
    l->S = l->M1 = l->M2 = CPM_NO_THRESHOLD;
    l->predictor.p2p = cpm_lmo_predict_p2p;
    l->predictor.n = n;
    l->predictor.predict_p2p = cpm_predict_p2p_int;
    cpm_lmo_rates(l);
    return l;
}

void cpm_lmo_rates(struct cpm_lmo *l)
{
    size_t links = l->homogeneous ? 1 : cpm_pairs(l->n);
    for (size_t k = 0; k < links; k++)
        l->b[k] = 1.0 / l->inv_beta[k];
}

void cpm_lmo_free(struct cpm_lmo *l)
{
    if (!l)
        return;
    free(l->C);
    free(l->t);
    free(l->L);
    free(l->inv_beta);
    free(l->b);
    free(l);
}

static size_t proc(const struct cpm_lmo *l, int i) { return l->homogeneous ? 0 : (size_t)i; }
static size_t link_of(const struct cpm_lmo *l, int i, int j)
{
    return l->homogeneous ? 0 : cpm_pair_index(l->n, i, j);
}

double cpm_lmo_predict_p2p(const struct cpm_predictor *self, int i, int j, size_t m)
{
    const struct cpm_lmo *l = (const struct cpm_lmo *)self;
    if (i == j)
        return 0.0;
    size_t a = proc(l, i), b = proc(l, j), k = link_of(l, i, j);
    /* The sums are never below 0 in a model the solver or the reader let
     * through, up to the rounding of a file's nine digits, which the
     * clamp keeps from making a larger message the faster one. */
    double fixed = l->C[a] + l->L[k] + l->C[b];
    double per_byte = l->t[a] + l->inv_beta[k] + l->t[b];
    return fmax(fixed, 0.0) + (double)m * fmax(per_byte, 0.0);
}

/* The root's own work: n - 1 messages, each C_r + M t_r. */
static double root_work(const struct cpm_lmo *l, int root, size_t m)
{
    return (l->n - 1) * (l->C[proc(l, root)] + (double)m * l->t[proc(l, root)]);
}

/* Transfers overlapping: the slowest L_ri + C_i + M(1/beta_ri + t_i). */
static double overlapped(const struct cpm_lmo *l, int root, size_t m)
{
    double worst = 0.0;
    for (int i = 0; i < l->n; i++) {
        if (i == root)
            continue;
        size_t k = link_of(l, root, i), p = proc(l, i);
        double v = l->L[k] + l->C[p] + (double)m * (l->inv_beta[k] + l->t[p]);
        if (v > worst)
            worst = v;
    }
    return worst;
}

/* Transfers sharing the root's link one after another: every byte crosses
 * at its own rate (the sum of M / beta_ri), while the latencies and the
 * remote processing still overlap (the largest L_ri + C_i + M t_i).
 * The seed's gather formula for large messages survives only as a sum over
 * i = 1 .. n-1 with 1/beta_ri in it; this is the reading taken. Its scatter
 * formula has no large-message branch: using this one from S on is a
 * deviation (the README and prediction --help say so). */
static double serialised(const struct cpm_lmo *l, int root, size_t m)
{
    double wire = 0.0, worst = 0.0;
    for (int i = 0; i < l->n; i++) {
        if (i == root)
            continue;
        size_t k = link_of(l, root, i), p = proc(l, i);
        wire += (double)m * l->inv_beta[k];
        double v = l->L[k] + l->C[p] + (double)m * l->t[p];
        if (v > worst)
            worst = v;
    }
    return wire + worst;
}

/* No flat scatter or gather ends before its slowest transfer alone would.
 * The forms above add the terms of different processors and links
 * separately, and with link terms below 0 (kept by the solver: see
 * cpm_lmo_fixes) the serialised sum can fall below that, even below 0. */
static double at_least_slowest(const struct cpm_lmo *l, int root, size_t m, double t)
{
    for (int i = 0; i < l->n; i++) {
        double one = i == root ? 0.0 : cpm_lmo_predict_p2p(&l->predictor, root, i, m);
        if (one > t)
            t = one;
    }
    return t;
}

double cpm_lmo_predict_scatter_flat(const struct cpm_lmo *l, int root, size_t m)
{
    if (l->n < 2)
        return 0.0;
    bool large = l->S != CPM_NO_THRESHOLD && m >= l->S;
    return at_least_slowest(l, root, m, root_work(l, root, m) + (large ? serialised(l, root, m)
                                                                       : overlapped(l, root, m)));
}

/* a / b rounded up, for any a (a + b - 1 can wrap). */
static size_t ceil_div(size_t a, size_t b) { return a / b + (a % b != 0); }

size_t cpm_lmo_gather_rounds(const struct cpm_lmo *l, size_t m)
{
    if (l->M1 == CPM_NO_THRESHOLD || m < l->M1 || l->M1 < 2 ||
        (l->M2 != CPM_NO_THRESHOLD && m >= l->M2))
        return 1;
    return ceil_div(m, l->M1 - 1);
}

static double gather_flat(const struct cpm_lmo *l, int root, size_t m)
{
    if (l->M1 == CPM_NO_THRESHOLD || m < l->M1)
        return root_work(l, root, m) + overlapped(l, root, m);
    if (l->M2 != CPM_NO_THRESHOLD && m >= l->M2)
        return root_work(l, root, m) + serialised(l, root, m);
    if (l->M1 < 2)
        return root_work(l, root, m) + serialised(l, root, m);
    /* Medium sizes: gathers of pieces below M1, one after another. */
    size_t rounds = cpm_lmo_gather_rounds(l, m), each = ceil_div(m, rounds);
    return (double)rounds * (root_work(l, root, each) + overlapped(l, root, each));
}

double cpm_lmo_predict_gather_flat(const struct cpm_lmo *l, int root, size_t m)
{
    if (l->n < 2)
        return 0.0;
    return at_least_slowest(l, root, m, gather_flat(l, root, m));
}

/* What the solver guarantees, checked on a file as it is read: no pair's
 * prediction is negative or falls with the message size. */
static int check_link(struct cpm_reader *r, const double *C, const double *t, bool homogeneous,
                      int i, int j, double L, double inv_beta)
{
    size_t a = homogeneous ? 0 : (size_t)i, b = homogeneous ? 0 : (size_t)j;
    const char *what = NULL;
    if (cpm_sum_below_zero(C[a], L, C[b]))
        what = "C_i + L_ij + C_j";
    else if (cpm_sum_below_zero(t[a], inv_beta, t[b]))
        what = "t_i + 1/beta_ij + t_j (a larger message would take less time)";
    if (!what)
        return 0;
    return cpm_read_fail(r, "link %d %d: %s is negative", i, j, what);
}

/* "KEY intercept slope" of a linear fit: the tools print these, no
 * prediction uses them, and a least-squares line may have either sign. */
static int read_fit(struct cpm_reader *r, const char *key, double fit[2])
{
    if (cpm_read_expect(r, key) != 0 ||
        cpm_read_bounded(r, key, -CPM_MAX_TIME, CPM_MAX_TIME, "s", &fit[0]) != 0 ||
        cpm_read_bounded(r, key, -CPM_MAX_PER_BYTE, CPM_MAX_PER_BYTE, "s/byte", &fit[1]) != 0)
        return -1;
    return 0;
}

/* The processor delays, then one line per link; C, t: procs values each
 * (durations), links: L and 1/beta per link (either sign, the sums checked). */
static int read_params(struct cpm_reader *r, int n, bool homogeneous, struct cpm_values v[4])
{
    size_t procs = homogeneous ? 1 : (size_t)n, links = homogeneous ? 1 : cpm_pairs(n);
    if (cpm_read_expect(r, "C") != 0 ||
        cpm_read_times(r, "fixed processing delay C", procs, &v[0]) != 0 ||
        cpm_read_expect(r, "t") != 0)
        return -1;
    for (size_t k = 0; k < procs; k++) {
        double t;
        if (cpm_read_per_byte(r, "per-byte processing delay t", &t) != 0 ||
            cpm_read_keep(r, &v[1], t) != 0)
            return -1;
    }
    int i = 0, j = 1;
    for (size_t k = 0; k < links; k++, cpm_pair_next(n, &i, &j)) {
        double L, ib;
        if (cpm_read_pair(r, "link", i, j) != 0 ||
            cpm_read_bounded(r, "latency L", -CPM_MAX_TIME, CPM_MAX_TIME, "s", &L) != 0 ||
            cpm_read_bounded(r, "inverse rate 1/beta", -CPM_MAX_PER_BYTE, CPM_MAX_PER_BYTE,
                             "s/byte", &ib) != 0 ||
            check_link(r, v[0].v, v[1].v, homogeneous, i, j, L, ib) != 0 ||
            cpm_read_keep(r, &v[2], L) != 0 || cpm_read_keep(r, &v[3], ib) != 0)
            return -1;
    }
    return 0;
}

static int read_thresholds(struct cpm_reader *r, struct cpm_lmo *l)
{
    if (cpm_read_expect(r, "S") != 0 || cpm_read_threshold(r, "S", &l->S) != 0 ||
        read_fit(r, "one2many_small", l->one2many_small) != 0 ||
        read_fit(r, "one2many_large", l->one2many_large) != 0 || cpm_read_expect(r, "M1") != 0 ||
        cpm_read_threshold(r, "M1", &l->M1) != 0 || cpm_read_expect(r, "M2") != 0 ||
        cpm_read_threshold(r, "M2", &l->M2) != 0 ||
        read_fit(r, "many2one_small", l->many2one_small) != 0 ||
        read_fit(r, "many2one_large", l->many2one_large) != 0)
        return -1;
    if (l->M1 != CPM_NO_THRESHOLD && l->M2 != CPM_NO_THRESHOLD && l->M1 > l->M2)
        return cpm_read_fail(r, "M1 (%zu) exceeds M2 (%zu)", l->M1, l->M2);
    return 0;
}

int cpm_lmo_read(struct cpm_reader *r, int n, struct cpm_lmo **model)
{
    int homogeneous;
    if (cpm_read_keyed_int(r, "homogeneous", 0, 1, &homogeneous) != 0)
        return -1;
    struct cpm_values v[4] = {{0}}; /* C, t, L, 1/beta */
    struct cpm_lmo *l = NULL;
    int rc = read_params(r, n, homogeneous, v);
    if (rc == 0) {
        l = cpm_lmo_alloc(n, homogeneous);
        if (!l)
            rc = cpm_read_fail(r, "out of memory for an LMO model of %d processes", n);
    }
    if (rc == 0) {
        memcpy(l->C, v[0].v, v[0].len * sizeof *l->C);
        memcpy(l->t, v[1].v, v[1].len * sizeof *l->t);
        memcpy(l->L, v[2].v, v[2].len * sizeof *l->L);
        memcpy(l->inv_beta, v[3].v, v[3].len * sizeof *l->inv_beta);
        cpm_lmo_rates(l);
        rc = read_thresholds(r, l);
    }
    for (int f = 0; f < 4; f++)
        cpm_values_free(&v[f]);
    if (rc != 0) {
        cpm_lmo_free(l);
        return -1;
    }
    *model = l;
    return 0;
}

void cpm_lmo_write(FILE *f, const struct cpm_lmo *l)
{
    size_t procs = l->homogeneous ? 1 : (size_t)l->n, links = l->homogeneous ? 1 : cpm_pairs(l->n);
    fprintf(f, "homogeneous %d\n", l->homogeneous ? 1 : 0);
    fprintf(f, "# fixed (s) and per-byte (s/byte) processing delays\n");
    cpm_write_doubles(f, "C", l->C, procs);
    cpm_write_doubles(f, "t", l->t, procs);
    fprintf(f, "# link i j L(s) 1/beta(s/byte)\n");
    for (size_t k = 0; k < links; k++) {
        int i = 0, j = 1;
        if (!l->homogeneous)
            cpm_pair_at(l->n, k, &i, &j);
        fprintf(f, "link %d %d %.9g %.9g\n", i, j, l->L[k], l->inv_beta[k]);
    }
    fprintf(f, "# thresholds (bytes) and the linear fits (s, s/byte) beside them\n");
    cpm_write_threshold(f, "S", l->S);
    cpm_write_doubles(f, "one2many_small", l->one2many_small, 2);
    cpm_write_doubles(f, "one2many_large", l->one2many_large, 2);
    cpm_write_threshold(f, "M1", l->M1);
    cpm_write_threshold(f, "M2", l->M2);
    cpm_write_doubles(f, "many2one_small", l->many2one_small, 2);
    cpm_write_doubles(f, "many2one_large", l->many2one_large, 2);
}
