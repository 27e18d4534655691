/* cpm_lininterp: the linear interpolation model; see cpm_lininterp.h. */
#include "cpm_lininterp.h"

#include <stdlib.h>
#include <string.h>

#include "err.h"

struct cpm_lininterp *cpm_lininterp_alloc(int n, size_t num_points)
{
    struct cpm_lininterp *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    size_t pairs = cpm_pairs(n);
    l->n = n;
    l->num_points = num_points;
    l->sizes = calloc(num_points + 1, sizeof *l->sizes);
    l->times = calloc(pairs * num_points + 1, sizeof *l->times);
    if (!l->sizes || !l->times) {
        cpm_lininterp_free(l);
        return NULL;
    }
    l->predictor.p2p = cpm_lininterp_predict_p2p;
    l->predictor.n = n;
    l->predictor.predict_p2p = cpm_predict_p2p_int;
    return l;
}

void cpm_lininterp_free(struct cpm_lininterp *l)
{
    if (!l)
        return;
    free(l->sizes);
    free(l->times);
    free(l);
}

static struct cpm_lininterp *alloc_or_die(int n, size_t points)
{
    struct cpm_lininterp *l = cpm_lininterp_alloc(n, points);
    if (!l)
        err_fatal("out of memory for a LinInterp model of %d processes", n);
    return l;
}

double cpm_lininterp_predict_p2p(const struct cpm_predictor *self, int i, int j, size_t m)
{
    const struct cpm_lininterp *l = (const struct cpm_lininterp *)self;
    if (i == j)
        return 0.0;
    const double *y = l->times + cpm_pair_index(l->n, i, j) * l->num_points;
    return cpm_curve_eval(l->sizes, y, l->num_points, (double)m);
}

struct estimate_ctx {
    const struct cpm_precision *precision;
    bool parallel;
    size_t pairs;
    double *sizes;
    double *times; /* [size][pair] while measuring */
};

static void measure(MPI_Comm comm, size_t size, void *ctx, struct cpm_result *r)
{
    struct estimate_ctx *c = ctx;
    cpm_measure_p2p(comm, size, c->parallel, c->precision, r);
}

static void keep(size_t index, const struct cpm_result *r, void *ctx)
{
    struct estimate_ctx *c = ctx;
    c->sizes[index] = (double)r[0].size;
    for (size_t k = 0; k < c->pairs; k++)
        c->times[index * c->pairs + k] = r[k].time / 2.0;
}

struct cpm_lininterp *cpm_lininterp_estimate(MPI_Comm comm, const struct cpm_precision *p,
                                             const struct cpm_msgset *set, bool parallel)
{
    int rank, n;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &n);
    struct estimate_ctx c = {p, parallel, cpm_pairs(n), NULL, NULL};
    c.sizes = calloc(set->max_num, sizeof *c.sizes);
    c.times = calloc(set->max_num * cpm_root_only(comm, c.pairs) + 1, sizeof *c.times);
    if (!c.sizes || !c.times)
        err_fatal("out of memory for %zu message sizes", set->max_num);
    size_t count = cpm_msgset_run(comm, set, c.pairs, measure, &c, keep, NULL);
    struct cpm_lininterp *l = NULL;
    if (rank == 0) {
        l = alloc_or_die(n, count);
        memcpy(l->sizes, c.sizes, count * sizeof *c.sizes);
        for (size_t k = 0; k < c.pairs; k++) {
            double *y = l->times + k * count;
            for (size_t s = 0; s < count; s++)
                y[s] = c.times[s * c.pairs + k];
            /* Noise can make a larger message look faster; a model must
             * not predict that, so the curve becomes the closest one that
             * never falls (and the tool says so). */
            l->adjusted += cpm_make_nondecreasing(y, count);
        }
    }
    free(c.sizes);
    free(c.times);
    return l;
}

int cpm_lininterp_read(struct cpm_reader *r, int n, struct cpm_lininterp **model)
{
    int points;
    if (cpm_read_keyed_int(r, "points", 1, CPM_MAX_POINTS, &points) != 0)
        return -1;
    struct cpm_values sizes = {0}, times = {0};
    size_t pairs = cpm_pairs(n);
    int rc = cpm_read_sizes(r, (size_t)points, &sizes), i = 0, j = 1;
    for (size_t k = 0; rc == 0 && k < pairs; k++, cpm_pair_next(n, &i, &j))
        if (cpm_read_pair(r, NULL, i, j) != 0 ||
            cpm_read_curve(r, "time", sizes.v, (size_t)points, &times) != 0)
            rc = -1;
    struct cpm_lininterp *l = NULL;
    if (rc == 0) {
        l = cpm_lininterp_alloc(n, (size_t)points);
        if (l) {
            memcpy(l->sizes, sizes.v, (size_t)points * sizeof *l->sizes);
            memcpy(l->times, times.v, times.len * sizeof *l->times);
        } else {
            rc = cpm_read_fail(r, "out of memory for a LinInterp model of %d processes", n);
        }
    }
    cpm_values_free(&sizes);
    cpm_values_free(&times);
    if (rc == 0)
        *model = l;
    return rc;
}

void cpm_lininterp_write(FILE *f, const struct cpm_lininterp *l)
{
    fprintf(f, "points %zu\n", l->num_points);
    cpm_write_sizes(f, l->sizes, l->num_points);
    fprintf(f, "# i j one-way time (s) at each size\n");
    for (size_t k = 0; k < cpm_pairs(l->n); k++) {
        int i, j;
        cpm_pair_at(l->n, k, &i, &j);
        fprintf(f, "%d %d", i, j);
        for (size_t s = 0; s < l->num_points; s++)
            fprintf(f, " %.9g", l->times[k * l->num_points + s]);
        fputc('\n', f);
    }
}

static int check(const struct cpm_estimate_args *a, char *err, size_t errlen)
{
    return cpm_estimate_flags_check(a, "LinInterp", false, false, err, errlen);
}

static int estimate(const struct cpm_estimate_args *a, void **model, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    *model = cpm_lininterp_estimate(a->comm, &a->precision, &a->msgset, a->parallel);
    return 0;
}

static int read_any(struct cpm_reader *r, int n, void **m)
{
    return cpm_lininterp_read(r, n, (struct cpm_lininterp **)m);
}
static void write_any(FILE *f, const void *m) { cpm_lininterp_write(f, m); }
static void free_any(void *m) { cpm_lininterp_free(m); }
static const struct cpm_predictor *predictor_any(const void *m)
{
    return &((const struct cpm_lininterp *)m)->predictor;
}

static void report(const void *model, const struct cpm_estimate_args *a, cpm_note_fn note,
                   void *ctx)
{
    (void)a;
    const struct cpm_lininterp *l = model;
    cpm_note_monotone("LinInterp", "a larger message was measured faster than a smaller one",
                      l->adjusted, cpm_pairs(l->n), note, ctx);
}

const struct cpm_model_kind cpm_lininterp_kind = {
    .name = "LinInterp",
    .file_name = "LinInterp",
    .min_procs = 2,
    .check = check,
    .estimate = estimate,
    .read = read_any,
    .write = write_any,
    .destroy = free_any,
    .predictor = predictor_any,
    .report = report,
};
