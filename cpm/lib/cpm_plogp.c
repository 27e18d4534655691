/* cpm_plogp: the heterogeneous PLogP and LogGP models; see cpm_plogp.h. */
#include "cpm_plogp.h"

#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "timing.h"

struct cpm_plogp *cpm_plogp_alloc(int n, size_t num_points)
{
    struct cpm_plogp *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    size_t pairs = cpm_pairs(n);
    p->n = n;
    p->num_points = num_points;
    p->sizes = calloc(num_points + 1, sizeof *p->sizes);
    p->pairs = calloc(pairs + 1, sizeof *p->pairs);
    if (!p->sizes || !p->pairs) {
        cpm_plogp_free(p);
        return NULL;
    }
    for (size_t k = 0; k < pairs; k++) {
        struct cpm_plogp_pair *q = &p->pairs[k];
        q->os = calloc(num_points + 1, sizeof *q->os);
        q->orecv = calloc(num_points + 1, sizeof *q->orecv);
        q->g = calloc(num_points + 1, sizeof *q->g);
        if (!q->os || !q->orecv || !q->g) {
            cpm_plogp_free(p);
            return NULL;
        }
    }
    p->predictor.p2p = cpm_plogp_predict_p2p;
    p->predictor.n = n;
    p->predictor.predict_p2p = cpm_predict_p2p_int;
    p->loggp_predictor.p2p = cpm_loggp_predict_p2p;
    p->loggp_predictor.n = n;
    p->loggp_predictor.predict_p2p = cpm_loggp_predict_p2p_int;
    return p;
}

void cpm_plogp_free(struct cpm_plogp *p)
{
    if (!p)
        return;
    for (size_t k = 0; p->pairs && k < cpm_pairs(p->n); k++) {
        free(p->pairs[k].os);
        free(p->pairs[k].orecv);
        free(p->pairs[k].g);
    }
    free(p->pairs);
    free(p->sizes);
    free(p);
}

static struct cpm_plogp *alloc_or_die(int n, size_t points)
{
    struct cpm_plogp *p = cpm_plogp_alloc(n, points);
    if (!p)
        err_fatal("out of memory for a PLogP model of %d processes", n);
    return p;
}

static double curve(const struct cpm_plogp *p, const double *y, double m)
{
    return cpm_curve_eval(p->sizes, y, p->num_points, m);
}

/* A model the reader or the estimate let through never predicts below 0
 * but for the rounding of L + g(0) in a file's nine digits. */
static double at_least_zero(double t) { return t > 0.0 ? t : 0.0; }

double cpm_plogp_predict_p2p(const struct cpm_predictor *self, int i, int j, size_t m)
{
    const struct cpm_plogp *p = (const struct cpm_plogp *)self;
    if (i == j)
        return 0.0;
    const struct cpm_plogp_pair *q = &p->pairs[cpm_pair_index(p->n, i, j)];
    return at_least_zero(q->L + curve(p, q->g, (double)m));
}

/* LogGP's M - 1: the bytes after the first; an empty message costs what one
 * of a byte does (the seed's formula would give it -G). */
static double bytes_after_first(size_t m) { return m > 0 ? (double)m - 1.0 : 0.0; }

void cpm_loggp_params(const struct cpm_plogp *p, int i, int j, struct cpm_loggp_params *out)
{
    const struct cpm_plogp_pair *q = &p->pairs[cpm_pair_index(p->n, i, j)];
    double os1 = curve(p, q->os, 1.0), or1 = curve(p, q->orecv, 1.0), g1 = curve(p, q->g, 1.0);
    double mmax = p->sizes[p->num_points - 1];
    out->L = q->L + g1 - os1 - or1;
    out->o2 = os1 + or1;
    out->g = g1;
    out->G = mmax > 0.0 ? curve(p, q->g, mmax) / mmax : 0.0;
}

double cpm_loggp_predict_p2p(const struct cpm_predictor *self, int i, int j, size_t m)
{
    /* loggp_predictor is the second member: step back to the model. */
    const struct cpm_plogp *p =
        (const struct cpm_plogp *)((const char *)self - offsetof(struct cpm_plogp, loggp_predictor));
    if (i == j)
        return 0.0;
    struct cpm_loggp_params l;
    cpm_loggp_params(p, i, j, &l);
    return at_least_zero(l.L + l.o2 + l.G * bytes_after_first(m));
}

double cpm_loggp_predict_p2p_int(void *self, int i, int j, int m)
{
    const struct cpm_predictor *p = self;
    /* The model itself begins with the PLogP predictor: take its LogGP one. */
    if (p->p2p != cpm_loggp_predict_p2p)
        p = &((const struct cpm_plogp *)self)->loggp_predictor;
    return cpm_predict_p2p_int((void *)p, i, j, m);
}

double cpm_plogp_hpredict_sg_linear(const struct cpm_plogp *p, size_t m)
{
    size_t pairs = cpm_pairs(p->n);
    if (pairs == 0)
        return 0.0;
    double L = 0.0, g = 0.0;
    for (size_t k = 0; k < pairs; k++) {
        L += p->pairs[k].L;
        g += curve(p, p->pairs[k].g, (double)m);
    }
    return at_least_zero(L / (double)pairs + (p->n - 1) * g / (double)pairs);
}

double cpm_loggp_hpredict_sg_linear(const struct cpm_plogp *p, size_t m)
{
    size_t pairs = cpm_pairs(p->n);
    if (pairs == 0)
        return 0.0;
    struct cpm_loggp_params avg = {0, 0, 0, 0};
    for (size_t k = 0; k < pairs; k++) {
        int i, j;
        struct cpm_loggp_params l;
        cpm_pair_at(p->n, k, &i, &j);
        cpm_loggp_params(p, i, j, &l);
        avg.L += l.L / (double)pairs;
        avg.o2 += l.o2 / (double)pairs;
        avg.g += l.g / (double)pairs;
        avg.G += l.G / (double)pairs;
    }
    return at_least_zero(avg.L + avg.o2 + (p->n - 1) * bytes_after_first(m) * avg.G +
                         (p->n - 2) * avg.g);
}

/* Measurement of one pair at one size: RTT(M), os(M), or(M), g(M). */
enum { Q_RTT, Q_OS, Q_OR, Q_G, Q_COUNT };
enum { STREAM_LENGTH = 32 };

struct plogp_ctx {
    const struct cpm_precision *precision;
    bool parallel;
    size_t pairs;
    double *sizes;
    struct cpm_result *kept; /* [size][pair][Q_COUNT] */
};


/* One pair's PLogP experiments at one size, on the measurer and its peer. */
struct plogp_pair_ctx {
    char *buf;
    int peer;
    size_t size;
    double rtt; /* measurer: RTT(M), once measured */
};

/* RTT(M) and os(M) from the same round trips: M bytes out, empty back. */
static void rtt_os_repeat(MPI_Comm comm, void *ctx, double *samples)
{
    const struct plogp_pair_ctx *c = ctx;
    double t0 = MPI_Wtime();
    cpm_send_bytes(c->buf, c->size, c->peer, CPM_TAG_DATA, comm);
    double t1 = MPI_Wtime();
    cpm_recv_bytes(c->buf, 0, c->peer, CPM_TAG_BACK, comm);
    samples[Q_RTT] = MPI_Wtime() - t0;
    samples[Q_OS] = t1 - t0;
}

static void rtt_os_answer(MPI_Comm comm, void *ctx)
{
    const struct plogp_pair_ctx *c = ctx;
    cpm_recv_bytes(c->buf, c->size, c->peer, CPM_TAG_DATA, comm);
    cpm_send_bytes(c->buf, 0, c->peer, CPM_TAG_BACK, comm);
}

/* or(M): ask for the message, let it arrive, time the receive. */
static void or_repeat(MPI_Comm comm, void *ctx, double *samples)
{
    const struct plogp_pair_ctx *c = ctx;
    cpm_send_bytes(c->buf, 0, c->peer, CPM_TAG_DATA, comm);
    timing_busy(1.2 * c->rtt);
    double t0 = MPI_Wtime();
    cpm_recv_bytes(c->buf, c->size, c->peer, CPM_TAG_BACK, comm);
    samples[0] = MPI_Wtime() - t0;
}

static void or_answer(MPI_Comm comm, void *ctx)
{
    const struct plogp_pair_ctx *c = ctx;
    cpm_recv_bytes(c->buf, 0, c->peer, CPM_TAG_DATA, comm);
    cpm_send_bytes(c->buf, c->size, c->peer, CPM_TAG_BACK, comm);
}

/* g(M): a stream of K sends of M bytes closed by one empty answer lasts
 * about (K - 1) g(M) + RTT(M). */
static void g_repeat(MPI_Comm comm, void *ctx, double *samples)
{
    const struct plogp_pair_ctx *c = ctx;
    double t0 = MPI_Wtime();
    for (int k = 0; k < STREAM_LENGTH; k++)
        cpm_send_bytes(c->buf, c->size, c->peer, CPM_TAG_DATA, comm);
    cpm_recv_bytes(c->buf, 0, c->peer, CPM_TAG_BACK, comm);
    double gap = (MPI_Wtime() - t0 - c->rtt) / (STREAM_LENGTH - 1);
    samples[0] = gap > 0.0 ? gap : 0.0;
}

static void g_answer(MPI_Comm comm, void *ctx)
{
    const struct plogp_pair_ctx *c = ctx;
    for (int k = 0; k < STREAM_LENGTH; k++)
        cpm_recv_bytes(c->buf, c->size, c->peer, CPM_TAG_DATA, comm);
    cpm_send_bytes(c->buf, 0, c->peer, CPM_TAG_BACK, comm);
}

/* The three experiments in turn, each with its warm-up; or(M) and g(M)
 * use the RTT(M) of the first. */
static void plogp_pair(MPI_Comm comm, int i, int j, size_t size, void *ctx,
                       struct cpm_result *r)
{
    const struct plogp_ctx *c = ctx;
    int rank;
    MPI_Comm_rank(comm, &rank);
    struct plogp_pair_ctx pc = {calloc(size + 1, 1), rank == i ? j : i, size, 0.0};
    if (!pc.buf)
        err_fatal("out of memory for a message of %zu bytes", size);
    struct cpm_experiment e[] = {
        {i, &j, 1, size, 2, rtt_os_repeat, rtt_os_answer, &pc},
        {i, &j, 1, size, 1, or_repeat, or_answer, &pc},
        {i, &j, 1, size, 1, g_repeat, g_answer, &pc},
    };
    cpm_experiment_run(comm, &e[0], c->precision, &r[Q_RTT]);
    if (rank == i)
        pc.rtt = r[Q_RTT].time;
    cpm_experiment_run(comm, &e[1], c->precision, &r[Q_OR]);
    cpm_experiment_run(comm, &e[2], c->precision, &r[Q_G]);
    free(pc.buf);
}

static void plogp_measure(MPI_Comm comm, size_t size, void *ctx, struct cpm_result *r)
{
    struct plogp_ctx *c = ctx;
    cpm_measure_pairs(comm, size, c->parallel, Q_COUNT, plogp_pair, c, r);
}

static void plogp_keep(size_t index, const struct cpm_result *r, void *ctx)
{
    struct plogp_ctx *c = ctx;
    c->sizes[index] = (double)r[0].size;
    memcpy(c->kept + index * c->pairs * Q_COUNT, r, c->pairs * Q_COUNT * sizeof *r);
}

/* Size 0 always comes first (it defines L and g(0)); the message set goes
 * on above it in rest. False when the set has no size above 0 to add. */
static bool sizes_above_zero(const struct cpm_msgset *set, struct cpm_msgset *rest)
{
    *rest = *set;
    if (rest->min_size == 0) {
        size_t step = set->stride ? set->stride : set->min_stride;
        rest->min_size = step < set->max_size ? step : set->max_size;
    }
    if (rest->min_size == 0 || set->max_num < 2)
        return false;
    rest->max_num--;
    return true;
}

struct cpm_plogp *cpm_plogp_estimate(MPI_Comm comm, const struct cpm_precision *p,
                                     const struct cpm_msgset *set, bool parallel)
{
    int rank, n;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &n);
    struct cpm_msgset rest;
    bool more = sizes_above_zero(set, &rest);
    struct plogp_ctx c = {p, parallel, cpm_pairs(n), NULL, NULL};
    size_t cap = set->max_num + 1;
    c.sizes = calloc(cap, sizeof *c.sizes);
    size_t kept = cpm_root_only(comm, c.pairs * Q_COUNT);
    c.kept = calloc(cap * kept + 1, sizeof *c.kept);
    struct cpm_result *zero = calloc(kept + 1, sizeof *zero);
    if (!c.sizes || !c.kept || !zero)
        err_fatal("out of memory for %zu message sizes", cap);
    plogp_measure(comm, 0, &c, zero);
    size_t count = 0;
    if (rank == 0) {
        plogp_keep(0, zero, &c);
        c.sizes++; /* the message set fills from index 1 */
        c.kept += c.pairs * Q_COUNT;
    }
    if (more)
        count = cpm_msgset_run(comm, &rest, c.pairs * Q_COUNT, plogp_measure, &c, plogp_keep,
                               NULL);
    struct cpm_plogp *model = NULL;
    if (rank == 0) {
        c.sizes--;
        c.kept -= c.pairs * Q_COUNT;
        model = alloc_or_die(n, count + 1);
        memcpy(model->sizes, c.sizes, (count + 1) * sizeof *c.sizes);
        for (size_t k = 0; k < c.pairs; k++) {
            struct cpm_plogp_pair *q = &model->pairs[k];
            const struct cpm_result *z = zero + k * Q_COUNT;
            for (size_t s = 0; s <= count; s++) {
                const struct cpm_result *at = c.kept + (s * c.pairs + k) * Q_COUNT;
                q->os[s] = at[Q_OS].time;
                q->orecv[s] = at[Q_OR].time;
                q->g[s] = at[Q_G].time;
            }
            /* A gap that falls as messages grow is noise, and would make a
             * prediction fall with them: g becomes the closest curve that
             * never falls, and L is taken against that g(0), so L + g(0)
             * stays RTT(0)/2. */
            model->adjusted += cpm_make_nondecreasing(q->g, count + 1);
            q->L = z[Q_RTT].time / 2.0 - q->g[0];
        }
    }
    free(c.sizes);
    free(c.kept);
    free(zero);
    return model;
}

/* One pair's "pair i j L", "os ..", "or ..", "g .." appended to the values. */
static int read_pair(struct cpm_reader *r, int i, int j, const double *sizes, size_t points,
                     struct cpm_values v[4])
{
    double L;
    if (cpm_read_pair(r, "pair", i, j) != 0 ||
        cpm_read_bounded(r, "latency L", -CPM_MAX_TIME, CPM_MAX_TIME, "s", &L) != 0 ||
        cpm_read_keep(r, &v[0], L) != 0 || cpm_read_expect(r, "os") != 0 ||
        cpm_read_times(r, "os", points, &v[1]) != 0 || cpm_read_expect(r, "or") != 0 ||
        cpm_read_times(r, "or", points, &v[2]) != 0 || cpm_read_expect(r, "g") != 0 ||
        cpm_read_curve(r, "g", sizes, points, &v[3]) != 0)
        return -1;
    /* L may be below 0 (RTT(0)/2 < g(0) in noise), the prediction L + g(M)
     * may not; g never falls, so M = 0 is where to look. */
    double g0 = v[3].v[v[3].len - points];
    if (cpm_sum_below_zero(L, g0, 0.0))
        return cpm_read_fail(r, "pair %d %d: L + g(0) = %g s, the time of an empty message, "
                                "is negative", i, j, L + g0);
    return 0;
}

int cpm_plogp_read(struct cpm_reader *r, int n, struct cpm_plogp **model)
{
    int points;
    if (cpm_read_keyed_int(r, "points", 1, CPM_MAX_POINTS, &points) != 0)
        return -1;
    size_t count = (size_t)points, pairs = cpm_pairs(n);
    struct cpm_values sizes = {0}, v[4] = {{0}}; /* L, os, or, g */
    int rc = cpm_read_sizes(r, count, &sizes), i = 0, j = 1;
    if (rc == 0 && sizes.v[0] != 0.0)
        rc = cpm_read_fail(r, "the first message size must be 0 (L and g(0) are measured there)");
    for (size_t k = 0; rc == 0 && k < pairs; k++, cpm_pair_next(n, &i, &j))
        rc = read_pair(r, i, j, sizes.v, count, v);
    struct cpm_plogp *p = NULL;
    if (rc == 0) {
        p = cpm_plogp_alloc(n, count);
        if (!p)
            rc = cpm_read_fail(r, "out of memory for a PLogP model of %d processes", n);
    }
    if (rc == 0) {
        memcpy(p->sizes, sizes.v, count * sizeof *p->sizes);
        for (size_t k = 0; k < pairs; k++) {
            struct cpm_plogp_pair *q = &p->pairs[k];
            q->L = v[0].v[k];
            memcpy(q->os, v[1].v + k * count, count * sizeof *q->os);
            memcpy(q->orecv, v[2].v + k * count, count * sizeof *q->orecv);
            memcpy(q->g, v[3].v + k * count, count * sizeof *q->g);
        }
        *model = p;
    }
    cpm_values_free(&sizes);
    for (int f = 0; f < 4; f++)
        cpm_values_free(&v[f]);
    return rc;
}

void cpm_plogp_write(FILE *f, const struct cpm_plogp *p)
{
    fprintf(f, "points %zu\n", p->num_points);
    cpm_write_sizes(f, p->sizes, p->num_points);
    fprintf(f, "# pair i j L(s), then os(M), or(M), g(M) at each size (s)\n");
    for (size_t k = 0; k < cpm_pairs(p->n); k++) {
        const struct cpm_plogp_pair *q = &p->pairs[k];
        int i, j;
        cpm_pair_at(p->n, k, &i, &j);
        fprintf(f, "pair %d %d %.9g\n", i, j, q->L);
        cpm_write_doubles(f, "os", q->os, p->num_points);
        cpm_write_doubles(f, "or", q->orecv, p->num_points);
        cpm_write_doubles(f, "g", q->g, p->num_points);
    }
}

static int check(const struct cpm_estimate_args *a, char *err, size_t errlen)
{
    struct cpm_msgset rest;
    if (cpm_estimate_flags_check(a, "PLogP", false, false, err, errlen) != 0)
        return -1;
    if (sizes_above_zero(&a->msgset, &rest))
        return 0;
    snprintf(err, errlen, "the PLogP model needs a message size above 0 besides 0 "
                          "(-M above 0 and at least 2 sizes)");
    return -1;
}

static int estimate(const struct cpm_estimate_args *a, void **model, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    *model = cpm_plogp_estimate(a->comm, &a->precision, &a->msgset, a->parallel);
    return 0;
}

static int read_any(struct cpm_reader *r, int n, void **m)
{
    return cpm_plogp_read(r, n, (struct cpm_plogp **)m);
}
static void write_any(FILE *f, const void *m) { cpm_plogp_write(f, m); }
static void free_any(void *m) { cpm_plogp_free(m); }
static const struct cpm_predictor *plogp_predictor(const void *m)
{
    return &((const struct cpm_plogp *)m)->predictor;
}
static const struct cpm_predictor *loggp_predictor(const void *m)
{
    return &((const struct cpm_plogp *)m)->loggp_predictor;
}
static double plogp_linear(const void *m, int root, size_t size)
{
    (void)root;
    return cpm_plogp_hpredict_sg_linear(m, size);
}
static double loggp_linear(const void *m, int root, size_t size)
{
    (void)root;
    return cpm_loggp_hpredict_sg_linear(m, size);
}

static const struct cpm_coll_prediction plogp_colls[] = {
    {"hsg_linear", "homogeneous linear scatter/gather: L+(n-1)g(M)", plogp_linear},
};
static const struct cpm_coll_prediction loggp_colls[] = {
    {"hsg_linear", "homogeneous linear scatter/gather: L+2o+(n-1)(M-1)G+(n-2)g", loggp_linear},
};

static void report(const void *model, const struct cpm_estimate_args *a, cpm_note_fn note,
                   void *ctx)
{
    (void)a;
    const struct cpm_plogp *p = model;
    cpm_note_monotone("PLogP", "the gap g(M) fell as the size grew (L is taken against the new "
                      "g(0))", p->adjusted, cpm_pairs(p->n), note, ctx);
}

const struct cpm_model_kind cpm_plogp_kind = {
    .name = "PLogP",
    .file_name = "PLogP",
    .min_procs = 2,
    .check = check,
    .estimate = estimate,
    .read = read_any,
    .write = write_any,
    .destroy = free_any,
    .predictor = plogp_predictor,
    .report = report,
    .colls = plogp_colls,
    .ncolls = sizeof plogp_colls / sizeof plogp_colls[0],
};
/* LogGP is not measured on its own: it reads PLogP files. */
const struct cpm_model_kind cpm_loggp_kind = {
    .name = "LogGP",
    .file_name = "PLogP",
    .read = read_any,
    .write = write_any,
    .destroy = free_any,
    .predictor = loggp_predictor,
    .colls = loggp_colls,
    .ncolls = sizeof loggp_colls / sizeof loggp_colls[0],
};
