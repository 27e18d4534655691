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
    if (!l->C || !l->t || !l->L || !l->inv_beta) {
        cpm_lmo_free(l);
        return NULL;
    }
    l->S = l->M1 = l->M2 = CPM_NO_THRESHOLD;
    l->predictor.p2p = cpm_lmo_predict_p2p;
    l->predictor.n = n;
    return l;
}

void cpm_lmo_free(struct cpm_lmo *l)
{
    if (!l)
        return;
    free(l->C);
    free(l->t);
    free(l->L);
    free(l->inv_beta);
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

double cpm_lmo_predict_scatter_flat(const struct cpm_lmo *l, int root, size_t m)
{
    if (l->n < 2)
        return 0.0;
    bool large = l->S != CPM_NO_THRESHOLD && m >= l->S;
    return root_work(l, root, m) + (large ? serialised(l, root, m) : overlapped(l, root, m));
}

double cpm_lmo_predict_gather_flat(const struct cpm_lmo *l, int root, size_t m)
{
    if (l->n < 2)
        return 0.0;
    if (l->M1 == CPM_NO_THRESHOLD || m < l->M1)
        return root_work(l, root, m) + overlapped(l, root, m);
    if (l->M2 != CPM_NO_THRESHOLD && m >= l->M2)
        return root_work(l, root, m) + serialised(l, root, m);
    if (l->M1 < 2)
        return root_work(l, root, m) + serialised(l, root, m);
    /* Medium sizes: gathers of pieces below M1, one after another. */
    size_t piece = l->M1 - 1, rounds = (m + piece - 1) / piece, each = (m + rounds - 1) / rounds;
    return (double)rounds * (root_work(l, root, each) + overlapped(l, root, each));
}

/* A sum of terms that must not be below 0, allowing for the rounding of
 * values written with nine significant digits. */
static bool below_zero(double a, double b, double c)
{
    return a + b + c < -1e-8 * (fabs(a) + fabs(b) + fabs(c));
}

/* What the solver guarantees, checked on a file as it is read: processor
 * delays are durations, and no pair's prediction is negative or falls with
 * the message size. */
static int check_delays(struct cpm_reader *r, const struct cpm_lmo *l, size_t procs)
{
    for (size_t i = 0; i < procs; i++)
        if (l->C[i] < 0.0 || l->t[i] < 0.0) {
            return cpm_read_fail(r, "processor %zu has a negative delay (C %g, t %g)", i,
                                 l->C[i], l->t[i]);
        }
    return 0;
}

static int check_link(struct cpm_reader *r, const struct cpm_lmo *l, int i, int j, size_t k)
{
    size_t a = proc(l, i), b = proc(l, j);
    const char *what = NULL;
    if (below_zero(l->C[a], l->L[k], l->C[b]))
        what = "C_i + L_ij + C_j";
    else if (below_zero(l->t[a], l->inv_beta[k], l->t[b]))
        what = "t_i + 1/beta_ij + t_j (a larger message would take less time)";
    if (!what)
        return 0;
    return cpm_read_fail(r, "link %d %d: %s is negative", i, j, what);
}

int cpm_lmo_read(struct cpm_reader *r, int n, struct cpm_lmo **model)
{
    int homogeneous;
    if (cpm_read_keyed_int(r, "homogeneous", 0, 1, &homogeneous) != 0)
        return -1;
    struct cpm_lmo *l = cpm_lmo_alloc(n, homogeneous);
    if (!l)
        return cpm_read_fail(r, "out of memory for an LMO model of %d processes", n);
    size_t procs = homogeneous ? 1 : (size_t)n, links = homogeneous ? 1 : cpm_pairs(n);
    int rc = cpm_read_expect(r, "C");
    if (rc == 0)
        rc = cpm_read_doubles(r, "C", l->C, procs);
    if (rc == 0)
        rc = cpm_read_expect(r, "t");
    if (rc == 0)
        rc = cpm_read_doubles(r, "t", l->t, procs);
    if (rc == 0)
        rc = check_delays(r, l, procs);
    for (size_t k = 0; rc == 0 && k < links; k++) {
        int i, j, want_i = 0, want_j = 1;
        if (!homogeneous)
            cpm_pair_at(n, k, &want_i, &want_j);
        if (cpm_read_expect(r, "link") != 0 ||
            cpm_read_int(r, "first process of a link", want_i, want_i, &i) != 0 ||
            cpm_read_int(r, "second process of a link", want_j, want_j, &j) != 0 ||
            cpm_read_double(r, "latency L", &l->L[k]) != 0 ||
            cpm_read_double(r, "inverse rate 1/beta", &l->inv_beta[k]) != 0 ||
            check_link(r, l, i, j, k) != 0)
            rc = -1;
    }
    if (rc == 0 && (cpm_read_expect(r, "S") != 0 || cpm_read_threshold(r, "S", &l->S) != 0 ||
                    cpm_read_expect(r, "one2many_small") != 0 ||
                    cpm_read_doubles(r, "one2many_small", l->one2many_small, 2) != 0 ||
                    cpm_read_expect(r, "one2many_large") != 0 ||
                    cpm_read_doubles(r, "one2many_large", l->one2many_large, 2) != 0 ||
                    cpm_read_expect(r, "M1") != 0 || cpm_read_threshold(r, "M1", &l->M1) != 0 ||
                    cpm_read_expect(r, "M2") != 0 || cpm_read_threshold(r, "M2", &l->M2) != 0 ||
                    cpm_read_expect(r, "many2one_small") != 0 ||
                    cpm_read_doubles(r, "many2one_small", l->many2one_small, 2) != 0 ||
                    cpm_read_expect(r, "many2one_large") != 0 ||
                    cpm_read_doubles(r, "many2one_large", l->many2one_large, 2) != 0))
        rc = -1;
    if (rc == 0 && l->M1 != CPM_NO_THRESHOLD && l->M2 != CPM_NO_THRESHOLD && l->M1 > l->M2) {
        rc = cpm_read_fail(r, "M1 (%zu) exceeds M2 (%zu)", l->M1, l->M2);
    }
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

static int check(const struct cpm_estimate_args *a, char *err, size_t errlen)
{
    if (cpm_estimate_flags_check(a, "LMO", false, true, err, errlen) != 0)
        return -1;
    if (a->msgset.max_size > 0)
        return 0;
    snprintf(err, errlen, "the LMO model needs a maximum message size above 0");
    return -1;
}

static int estimate(const struct cpm_estimate_args *a, void **model, char *err, size_t errlen)
{
    struct cpm_lmo *l;
    int rc = a->homogeneous ? cpm_lmo_estimate_homogeneous(a->comm, &a->precision, &a->msgset,
                                                           a->parallel, &l, err, errlen)
                            : cpm_lmo_estimate(a->comm, &a->precision, &a->msgset, a->parallel,
                                               &l, err, errlen);
    *model = l;
    return rc;
}

static void report(const void *m, const struct cpm_estimate_args *a, cpm_note_fn note, void *ctx)
{
    cpm_lmo_report(m, a->msgset.max_size, a->precision.eps, note, ctx);
}

static int read_any(struct cpm_reader *r, int n, void **m)
{
    return cpm_lmo_read(r, n, (struct cpm_lmo **)m);
}
static void write_any(FILE *f, const void *m) { cpm_lmo_write(f, m); }
static void free_any(void *m) { cpm_lmo_free(m); }
static const struct cpm_predictor *predictor_any(const void *m)
{
    return &((const struct cpm_lmo *)m)->predictor;
}
static double scatter(const void *m, int root, size_t size)
{
    return cpm_lmo_predict_scatter_flat(m, root, size);
}
static double gather(const void *m, int root, size_t size)
{
    return cpm_lmo_predict_gather_flat(m, root, size);
}

static const struct cpm_coll_prediction colls[] = {
    {"scatter_flat",
     "flat scatter: (n-1)(C_r+Mt_r) + max_i(L_ri+C_i+M(1/beta_ri+t_i)); from S on "
     "(not in the seed) sum_i M/beta_ri + max_i(L_ri+C_i+Mt_i) in place of the max",
     scatter},
    {"gather_flat",
     "flat gather: the scatter's max form below M1, its serialised form from M2 on, "
     "between them (not in the seed) rounds of pieces below M1",
     gather},
};

const struct cpm_model_kind cpm_lmo_kind = {
    .name = "LMO",
    .file_name = "LMO",
    .min_procs = 3,
    .check = check,
    .estimate = estimate,
    .read = read_any,
    .write = write_any,
    .free = free_any,
    .predictor = predictor_any,
    .report = report,
    .colls = colls,
    .ncolls = sizeof colls / sizeof colls[0],
};
