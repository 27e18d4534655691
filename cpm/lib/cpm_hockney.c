/* cpm_hockney: the heterogeneous Hockney model; see cpm_hockney.h. */
#include "cpm_hockney.h"

#include <math.h>
#include <stdlib.h>

#include "cpm_predict.h"
#include "err.h"

struct cpm_hockney *cpm_hockney_alloc(int n)
{
    struct cpm_hockney *h = calloc(1, sizeof *h);
    size_t pairs = cpm_pairs(n);
    if (!h)
        return NULL;
    h->n = n;
    h->a = calloc(pairs ? pairs : 1, sizeof *h->a);
    h->b = calloc(pairs ? pairs : 1, sizeof *h->b);
    if (!h->a || !h->b) {
        cpm_hockney_free(h);
        return NULL;
    }
    h->predictor.p2p = cpm_hockney_predict_p2p;
    h->predictor.n = n;
    h->predictor.predict_p2p = cpm_predict_p2p_int;
    return h;
}

void cpm_hockney_free(struct cpm_hockney *h)
{
    if (!h)
        return;
    free(h->a);
    free(h->b);
    free(h);
}

static struct cpm_hockney *alloc_or_die(int n)
{
    struct cpm_hockney *h = cpm_hockney_alloc(n);
    if (!h)
        err_fatal("out of memory for a Hockney model of %d processes", n);
    return h;
}

double cpm_hockney_predict_p2p(const struct cpm_predictor *self, int i, int j, size_t m)
{
    const struct cpm_hockney *h = (const struct cpm_hockney *)self;
    if (i == j)
        return 0.0;
    size_t k = cpm_pair_index(h->n, i, j);
    return h->a[k] + h->b[k] * (double)m;
}

struct cpm_hockney *cpm_hockney_estimate(MPI_Comm comm, size_t m,
                                         const struct cpm_precision *p, bool parallel)
{
    int rank, n;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &n);
    size_t pairs = cpm_pairs(n), kept = cpm_root_only(comm, pairs);
    struct cpm_result *empty = calloc(kept + 1, sizeof *empty);
    struct cpm_result *full = calloc(kept + 1, sizeof *full);
    if (!empty || !full)
        err_fatal("out of memory for %zu results", pairs);
    cpm_measure_p2p(comm, 0, parallel, p, empty);
    cpm_measure_p2p(comm, m, parallel, p, full);
    struct cpm_hockney *h = NULL;
    if (rank == 0) {
        h = alloc_or_die(n);
        /* One-way times are half the round trips. */
        for (size_t k = 0; k < pairs; k++) {
            h->a[k] = empty[k].time / 2.0;
            h->b[k] = (full[k].time / 2.0 - h->a[k]) / (double)m;
            /* A round trip of m bytes faster than the empty one is noise:
             * no time may fall with the size. */
            if (h->b[k] < 0.0) {
                h->b[k] = 0.0;
                h->constrained++;
            }
        }
    }
    free(empty);
    free(full);
    return h;
}

struct regression_ctx {
    const struct cpm_precision *precision;
    bool parallel;
    size_t pairs;
    double *times; /* [size index][pair], one-way */
    double *sizes;
};

static void measure_all_pairs(MPI_Comm comm, size_t size, void *ctx, struct cpm_result *r)
{
    struct regression_ctx *c = ctx;
    cpm_measure_p2p(comm, size, c->parallel, c->precision, r);
}

static void keep_times(size_t index, const struct cpm_result *r, void *ctx)
{
    struct regression_ctx *c = ctx;
    c->sizes[index] = (double)r[0].size;
    for (size_t k = 0; k < c->pairs; k++)
        c->times[index * c->pairs + k] = r[k].time / 2.0;
}

struct cpm_hockney *cpm_hockney_estimate_regression(MPI_Comm comm, const struct cpm_msgset *set,
                                                    const struct cpm_precision *p,
                                                    bool parallel)
{
    int rank, n;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &n);
    struct regression_ctx c = {p, parallel, cpm_pairs(n), NULL, NULL};
    c.times = calloc(set->max_num * cpm_root_only(comm, c.pairs) + 1, sizeof *c.times);
    c.sizes = calloc(set->max_num, sizeof *c.sizes);
    if (!c.times || !c.sizes)
        err_fatal("out of memory for %zu message sizes", set->max_num);
    size_t count = cpm_msgset_run(comm, set, c.pairs, measure_all_pairs, &c, keep_times, NULL);
    struct cpm_hockney *h = NULL;
    if (rank == 0) {
        h = alloc_or_die(n);
        double *y = calloc(count + 1, sizeof *y);
        if (!y)
            err_fatal("out of memory for %zu sizes", count);
        for (size_t k = 0; k < c.pairs; k++) {
            for (size_t s = 0; s < count; s++)
                y[s] = c.times[s * c.pairs + k];
            bool held;
            cpm_fit_line_relative(c.sizes, y, count, &h->a[k], &h->b[k], &held);
            h->constrained += held;
        }
        free(y);
    }
    free(c.times);
    free(c.sizes);
    return h;
}

int cpm_hockney_read(struct cpm_reader *r, int n, struct cpm_hockney **model)
{
    struct cpm_values v = {0};
    size_t pairs = cpm_pairs(n);
    int i = 0, j = 1;
    for (size_t k = 0; k < pairs; k++, cpm_pair_next(n, &i, &j)) {
        double a, b;
        if (cpm_read_pair(r, NULL, i, j) != 0 || cpm_read_time(r, "latency a", &a) != 0 ||
            cpm_read_per_byte(r, "time per byte b", &b) != 0 || cpm_read_keep(r, &v, a) != 0 ||
            cpm_read_keep(r, &v, b) != 0) {
            cpm_values_free(&v);
            return -1;
        }
    }
    struct cpm_hockney *h = cpm_hockney_alloc(n);
    if (h)
        for (size_t k = 0; k < pairs; k++) {
            h->a[k] = v.v[2 * k];
            h->b[k] = v.v[2 * k + 1];
        }
    cpm_values_free(&v);
    if (!h)
        return cpm_read_fail(r, "out of memory for a Hockney model of %d processes", n);
    *model = h;
    return 0;
}

void cpm_hockney_write(FILE *f, const struct cpm_hockney *h)
{
    fprintf(f, "# i j a(s) b(s/byte): T_ij(M) = a + b M, one way\n");
    for (size_t k = 0; k < cpm_pairs(h->n); k++) {
        int i, j;
        cpm_pair_at(h->n, k, &i, &j);
        fprintf(f, "%d %d %.9g %.9g\n", i, j, h->a[k], h->b[k]);
    }
}

double cpm_hockney_predict_sg_flat_serial(const struct cpm_hockney *h, int root, size_t m)
{
    return cpm_predict_flat_sg_serial(&h->predictor, h->n, root, m);
}

double cpm_hockney_predict_sg_flat_parallel(const struct cpm_hockney *h, int root, size_t m)
{
    return cpm_predict_flat_sg_parallel(&h->predictor, h->n, root, m);
}

double cpm_hockney_predict_sg_binomial(const struct cpm_hockney *h, int root, size_t m)
{
    return cpm_predict_brsg(&h->predictor, h->n, root, m, CPM_COLL_SCATTER);
}

static void average(const struct cpm_hockney *h, double *a, double *b)
{
    size_t pairs = cpm_pairs(h->n);
    *a = *b = 0.0;
    for (size_t k = 0; k < pairs; k++) {
        *a += h->a[k];
        *b += h->b[k];
    }
    if (pairs) {
        *a /= (double)pairs;
        *b /= (double)pairs;
    }
}

double cpm_hockney_hpredict_sg_flat_serial(const struct cpm_hockney *h, size_t m)
{
    double a, b;
    average(h, &a, &b);
    return (h->n - 1) * (a + b * (double)m);
}

double cpm_hockney_hpredict_sg_flat_parallel(const struct cpm_hockney *h, size_t m)
{
    double a, b;
    average(h, &a, &b);
    return h->n > 1 ? a + b * (double)m : 0.0;
}

double cpm_hockney_hpredict_sg_binomial(const struct cpm_hockney *h, size_t m)
{
    double a, b;
    average(h, &a, &b);
    int levels = 0;
    while ((1 << levels) < h->n)
        levels++;
    return levels * a + (h->n - 1) * b * (double)m;
}

/* The registry's view. */
static int check(const struct cpm_estimate_args *a, char *err, size_t errlen)
{
    if (cpm_estimate_flags_check(a, "Hockney", true, false, err, errlen) != 0)
        return -1;
    if (!a->two_point)
        return cpm_msgset_check(&a->msgset, 2, err, errlen);
    if (a->msgset.max_size > 0)
        return 0;
    snprintf(err, errlen, "the two-point Hockney estimate needs a maximum size above 0");
    return -1;
}

static int estimate(const struct cpm_estimate_args *a, void **model, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    if (a->two_point)
        *model = cpm_hockney_estimate(a->comm, a->msgset.max_size, &a->precision, a->parallel);
    else
        *model = cpm_hockney_estimate_regression(a->comm, &a->msgset, &a->precision, a->parallel);
    return 0;
}

static int read_any(struct cpm_reader *r, int n, void **m)
{
    return cpm_hockney_read(r, n, (struct cpm_hockney **)m);
}
static void write_any(FILE *f, const void *m) { cpm_hockney_write(f, m); }
static void free_any(void *m) { cpm_hockney_free(m); }
static const struct cpm_predictor *predictor_any(const void *m)
{
    return &((const struct cpm_hockney *)m)->predictor;
}

static double hsg_serial(const void *m, int root, size_t size)
{
    (void)root;
    return cpm_hockney_hpredict_sg_flat_serial(m, size);
}
static double hsg_parallel(const void *m, int root, size_t size)
{
    (void)root;
    return cpm_hockney_hpredict_sg_flat_parallel(m, size);
}
static double hsg_binomial(const void *m, int root, size_t size)
{
    (void)root;
    return cpm_hockney_hpredict_sg_binomial(m, size);
}

static const struct cpm_coll_prediction colls[] = {
    {"hsg_flat_serial", "homogeneous flat scatter/gather, serial: (n-1)(a+bM)", hsg_serial},
    {"hsg_flat_parallel", "homogeneous flat scatter/gather, parallel: a+bM", hsg_parallel},
    {"hsg_binomial", "homogeneous binomial scatter/gather: ceil(log2 n)a+(n-1)bM",
     hsg_binomial},
};

static void report(const void *model, const struct cpm_estimate_args *a, cpm_note_fn note,
                   void *ctx)
{
    const struct cpm_hockney *h = model;
    if (!h->constrained)
        return;
    char text[400];
    snprintf(text, sizeof text,
             "Hockney warning: for %d of %zu pairs the %s gave a negative %s and was held at "
             "0 (times not affine in the size, or too noisy: measure more sizes, a wider "
             "range or with a tighter precision)",
             h->constrained, cpm_pairs(h->n), a->two_point ? "two-point estimate" : "line fit",
             a->two_point ? "per-byte time b" : "latency a or per-byte time b");
    note(text, ctx);
}

const struct cpm_model_kind cpm_hockney_kind = {
    .name = "Hockney",
    .file_name = "Hockney",
    .min_procs = 2,
    .check = check,
    .estimate = estimate,
    .read = read_any,
    .write = write_any,
    .destroy = free_any,
    .predictor = predictor_any,
    .report = report,
    .colls = colls,
    .ncolls = sizeof colls / sizeof colls[0],
};
