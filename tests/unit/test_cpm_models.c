/* Unit tests of the CPM models: predictions from hand-set parameters
 * against values worked out by hand, and the LMO solver recovering planted
 * parameters from synthetic measurements, reproducing noisy round trips,
 * leaving out a spoiled experiment and correcting what noise makes
 * impossible. */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../cpm/lib/cpm_hockney.h"
#include "../../cpm/lib/cpm_lininterp.h"
#include "../../cpm/lib/cpm_lmo.h"
#include "../../cpm/lib/cpm_plogp.h"
#include "../../cpm/lib/cpm_predict.h"

#define EPS 1e-9

/* The Hockney fit never gives a negative latency or slope: a burst that
 * makes small messages cheap would otherwise put a below 0. */
static void test_nonnegative_fit(void **state)
{
    (void)state;
    const double x[] = {1024, 131072, 262144, 524288, 1048576};
    double a, b;
    bool held;
    /* affine data: the plain fit, not held */
    double y[5];
    for (size_t k = 0; k < 5; k++)
        y[k] = 2e-5 + 1e-9 * x[k];
    cpm_fit_line_nonneg(x, y, 5, &a, &b, &held);
    assert_false(held);
    assert_double_equal(a, 2e-5, 1e-12);
    assert_double_equal(b, 1e-9, 1e-15);
    /* convex data whose plain fit has a < 0: held at a = 0, slope through
     * the origin, and the prediction at 1 KiB is positive */
    const double burst[] = {1e-4, 1e-3, 2.2e-3, 4.8e-3, 1e-2};
    double plain_a, plain_b;
    cpm_fit_line(x, burst, 5, &plain_a, &plain_b);
    assert_true(plain_a < 0);
    double ssr = cpm_fit_line_nonneg(x, burst, 5, &a, &b, &held);
    assert_true(held);
    assert_double_equal(a, 0.0, 0.0);
    assert_true(b > 0);
    assert_true(a + b * 1024 > 0);
    /* it is the best line through the origin: nudging b does not fit better */
    double sxy = 0, sxx = 0;
    for (size_t k = 0; k < 5; k++) {
        sxy += x[k] * burst[k];
        sxx += x[k] * x[k];
    }
    assert_double_equal(b, sxy / sxx, 1e-18);
    assert_true(ssr >= 0);
    /* falling data: held flat at its mean, never a negative slope */
    const double falling[] = {5e-3, 4e-3, 3e-3, 2e-3, 1e-3};
    cpm_fit_line_nonneg(x, falling, 5, &a, &b, &held);
    assert_true(held);
    assert_double_equal(b, 0.0, 0.0);
    assert_double_equal(a, 3e-3, 1e-12);
}

/* The sum of |y - a - b x| / y over n points. */
static double relative_l1(const double *x, const double *y, size_t n, double a, double b)
{
    double sum = 0;
    for (size_t k = 0; k < n; k++) {
        double r = (y[k] - a - b * x[k]) / y[k];
        sum += r < 0 ? -r : r;
    }
    return sum;
}

/* The relative fit weighs every size alike: on shared memory's two
 * branches (cheap eager copies up to 4 KiB, a steeper single-copy line
 * above) plain least squares lets the large sizes set the latency and
 * misses 1 KiB by a multiple; the relative line stays near it. It is the
 * least sum of absolute relative residuals, so one disturbed size leaves
 * it where the others put it. Affine data give the same line either way;
 * a time of 0 falls back to the plain fit. */
static void test_relative_fit(void **state)
{
    (void)state;
    const double x[] = {0, 1024, 2048, 4096, 8192, 16384, 32768, 65536};
    enum { N = sizeof x / sizeof x[0] };
    double y[N], a, b, pa, pb;
    bool held;
    for (size_t k = 0; k < N; k++)
        y[k] = x[k] < 4096 ? 3.3e-6 + 0.1e-9 * x[k] : 6e-6 + 0.3e-9 * x[k];
    cpm_fit_line_nonneg(x, y, N, &pa, &pb, &held);
    double cost = cpm_fit_line_relative(x, y, N, &a, &b, &held);
    assert_false(held);
    double plain_miss = (pa + pb * 1024) / y[1] - 1, relative_miss = (a + b * 1024) / y[1] - 1;
    assert_true(plain_miss > 0.3);
    assert_true(relative_miss < 0.15 && relative_miss > -0.15);
    /* the largest size stays within 20% too */
    double top = (a + b * x[N - 1]) / y[N - 1] - 1;
    assert_true(top < 0.2 && top > -0.2);
    /* it is the minimum: nudging a or b either way is no better, and the
     * cost returned is its own */
    assert_double_equal(cost, relative_l1(x, y, N, a, b), 1e-12);
    const double nudge[] = {0.99, 1.01};
    for (size_t k = 0; k < 2; k++) {
        assert_true(cost <= relative_l1(x, y, N, a * nudge[k], b) + 1e-12);
        assert_true(cost <= relative_l1(x, y, N, a, b * nudge[k]) + 1e-12);
    }
    /* no line through two of the points does better */
    for (size_t i = 0; i < N; i++)
        for (size_t j = i + 1; j < N; j++) {
            double s = (y[j] - y[i]) / (x[j] - x[i]);
            assert_true(cost <= relative_l1(x, y, N, y[i] - s * x[i], s) + 1e-12);
        }
    for (size_t k = 0; k < N; k++)
        y[k] = 2e-6 + 1e-9 * x[k];
    cpm_fit_line_relative(x, y, N, &a, &b, &held);
    assert_double_equal(a, 2e-6, 1e-15);
    assert_double_equal(b, 1e-9, 1e-18);
    /* a size disturbed to three times its time moves the line not at all */
    y[5] *= 3;
    cpm_fit_line_relative(x, y, N, &a, &b, &held);
    assert_double_equal(a, 2e-6, 1e-15);
    assert_double_equal(b, 1e-9, 1e-18);
    /* falling times: held at a bound, never a negative slope */
    for (size_t k = 0; k < N; k++)
        y[k] = 9e-6 - 1e-10 * x[k];
    cpm_fit_line_relative(x, y, N, &a, &b, &held);
    assert_true(held);
    assert_true(a >= 0 && b >= 0);
    y[0] = 0;
    cpm_fit_line_relative(x, y, N, &a, &b, &held);
    cpm_fit_line_nonneg(x, y, N, &pa, &pb, &held);
    assert_double_equal(a, pa, 0.0);
    assert_double_equal(b, pb, 0.0);
}

static void test_hockney_heterogeneous(void **state)
{
    (void)state;
    struct cpm_hockney *h = cpm_hockney_alloc(3);
    const double a[] = {1, 2, 3}, b[] = {0.1, 0.2, 0.3}; /* pairs 01, 02, 12 */
    for (int k = 0; k < 3; k++) {
        h->a[k] = a[k];
        h->b[k] = b[k];
    }
    assert_double_equal(cpm_predict_p2p(&h->predictor, 0, 1, 10), 2.0, EPS);
    assert_double_equal(cpm_predict_p2p(&h->predictor, 2, 0, 10), 4.0, EPS);
    assert_double_equal(cpm_predict_p2p(&h->predictor, 2, 1, 10), 6.0, EPS);
    assert_double_equal(cpm_predict_p2p(&h->predictor, 1, 1, 10), 0.0, EPS);
    assert_double_equal(cpm_hockney_predict_sg_flat_serial(h, 0, 10), 6.0, EPS);
    assert_double_equal(cpm_hockney_predict_sg_flat_serial(h, 1, 10), 8.0, EPS);
    assert_double_equal(cpm_hockney_predict_sg_flat_parallel(h, 0, 10), 4.0, EPS);
    /* Root 0 sends to 2 first (time 4), then to 1 (4 + 2). */
    assert_double_equal(cpm_hockney_predict_sg_binomial(h, 0, 10), 6.0, EPS);
    /* Averages a = 2, b = 0.2: (n-1)(a+bM) = 8, a+bM = 4, 2a + 2bM = 8. */
    assert_double_equal(cpm_hockney_hpredict_sg_flat_serial(h, 10), 8.0, EPS);
    assert_double_equal(cpm_hockney_hpredict_sg_flat_parallel(h, 10), 4.0, EPS);
    assert_double_equal(cpm_hockney_hpredict_sg_binomial(h, 10), 8.0, EPS);
    cpm_hockney_free(h);
}

/* Four processes, every link a = 1, b = 0.01: one message of B bytes costs
 * 1 + B/100. */
static struct cpm_hockney *uniform4(void)
{
    struct cpm_hockney *h = cpm_hockney_alloc(4);
    for (int k = 0; k < 6; k++) {
        h->a[k] = 1.0;
        h->b[k] = 0.01;
    }
    return h;
}

static void test_binomial_trees(void **state)
{
    (void)state;
    struct cpm_hockney *h = uniform4();
    const struct cpm_predictor *p = &h->predictor;
    /* Scatter: 0 -> 2 carries 200 bytes (3), then 0 -> 1 (2): 5; 2 -> 3 at
     * 3 + 2 = 5. Same as the homogeneous formula 2a + 3bM. */
    assert_double_equal(cpm_predict_brsg(p, 4, 0, 100, CPM_COLL_SCATTER), 5.0, EPS);
    assert_double_equal(cpm_hockney_hpredict_sg_binomial(h, 100), 5.0, EPS);
    /* Gather: 3 -> 2 (2), then 1 -> 0 (2), 2 -> 0 with 200 bytes (3): 5. */
    assert_double_equal(cpm_predict_brsg(p, 4, 0, 100, CPM_COLL_GATHER), 5.0, EPS);
    /* Bcast/Reduce: every edge 100 bytes: 0->2, 0->1 | 2->3: 4. */
    assert_double_equal(cpm_predict_brsg(p, 4, 0, 100, CPM_COLL_BCAST), 4.0, EPS);
    assert_double_equal(cpm_predict_brsg(p, 4, 3, 100, CPM_COLL_REDUCE), 4.0, EPS);
    /* Scatterv with 0, 10, 20, 30 bytes: 0->2 50 bytes (1.5), 0->1 (1.1)
     * at 2.6, 2->3 30 bytes at 2.8. */
    const size_t sizes[] = {0, 10, 20, 30};
    assert_double_equal(cpm_predict_sgv(p, 4, 0, sizes, CPM_COLL_SCATTER), 2.8, EPS);
    assert_double_equal(cpm_predict_flat_sgv_serial(p, 4, 0, sizes), 3.6, EPS);
    assert_double_equal(cpm_predict_flat_sgv_parallel(p, 4, 0, sizes), 1.3, EPS);
    assert_double_equal(cpm_predict_flat_sg(p, 4, 0, 100), 6.0, EPS);
    cpm_hockney_free(h);
}

static void test_lininterp(void **state)
{
    (void)state;
    struct cpm_lininterp *l = cpm_lininterp_alloc(2, 3);
    const double x[] = {0, 100, 200}, y[] = {1, 2, 4};
    for (int k = 0; k < 3; k++) {
        l->sizes[k] = x[k];
        l->times[k] = y[k];
    }
    const struct cpm_predictor *p = &l->predictor;
    assert_double_equal(cpm_predict_p2p(p, 0, 1, 0), 1.0, EPS);
    assert_double_equal(cpm_predict_p2p(p, 1, 0, 50), 1.5, EPS);
    assert_double_equal(cpm_predict_p2p(p, 0, 1, 150), 3.0, EPS);
    assert_double_equal(cpm_predict_p2p(p, 0, 1, 200), 4.0, EPS);
    /* Beyond the last size the last segment goes on: slope 0.02. */
    assert_double_equal(cpm_predict_p2p(p, 0, 1, 300), 6.0, EPS);
    cpm_lininterp_free(l);
}

static struct cpm_plogp *plogp2(void)
{
    struct cpm_plogp *m = cpm_plogp_alloc(2, 2);
    m->sizes[0] = 0;
    m->sizes[1] = 100;
    struct cpm_plogp_pair *q = &m->pairs[0];
    q->L = 5;
    q->os[0] = 1;
    q->os[1] = 2;
    q->orecv[0] = 1;
    q->orecv[1] = 3;
    q->g[0] = 2;
    q->g[1] = 12;
    return m;
}

static void test_plogp_and_loggp(void **state)
{
    (void)state;
    struct cpm_plogp *m = plogp2();
    /* L + g(50) = 5 + 7. */
    assert_double_equal(cpm_predict_p2p(&m->predictor, 0, 1, 50), 12.0, EPS);
    assert_double_equal(cpm_plogp_hpredict_sg_linear(m, 50), 12.0, EPS);
    /* os(1) = 1.01, or(1) = 1.02, g(1) = 2.1, g(100) = 12:
     * L' = 5 + 2.1 - 2.03 = 5.07, 2o = 2.03, G = 0.12. */
    struct cpm_loggp_params l;
    cpm_loggp_params(m, 0, 1, &l);
    assert_double_equal(l.L, 5.07, EPS);
    assert_double_equal(l.o2, 2.03, EPS);
    assert_double_equal(l.g, 2.1, EPS);
    assert_double_equal(l.G, 0.12, EPS);
    /* L' + 2o + G(M - 1) at M = 11: 5.07 + 2.03 + 1.2. */
    assert_double_equal(cpm_predict_p2p(&m->loggp_predictor, 1, 0, 11), 8.3, EPS);
    assert_double_equal(cpm_loggp_hpredict_sg_linear(m, 11), 8.3, EPS);
    cpm_plogp_free(m);
}

static struct cpm_lmo *lmo3(void)
{
    struct cpm_lmo *l = cpm_lmo_alloc(3, false);
    const double C[] = {1, 2, 3}, t[] = {0.1, 0.2, 0.3}, L[] = {10, 20, 30},
                 ib[] = {0.01, 0.02, 0.03};
    for (int k = 0; k < 3; k++) {
        l->C[k] = C[k];
        l->t[k] = t[k];
        l->L[k] = L[k];
        l->inv_beta[k] = ib[k];
    }
    return l;
}

static void test_lmo_predictions(void **state)
{
    (void)state;
    struct cpm_lmo *l = lmo3();
    /* 1 + 10 + 2 + 100 (0.1 + 0.01 + 0.2). */
    assert_double_equal(cpm_predict_p2p(&l->predictor, 0, 1, 100), 44.0, EPS);
    assert_double_equal(cpm_predict_p2p(&l->predictor, 1, 0, 100), 44.0, EPS);
    /* Scatter below S: 2 (1 + 10) + max(10 + 2 + 21, 20 + 3 + 32) = 77. */
    assert_double_equal(cpm_lmo_predict_scatter_flat(l, 0, 100), 77.0, EPS);
    /* From S on: 22 + (1 + 2) + max(10 + 2 + 20, 20 + 3 + 30) = 78. */
    l->S = 50;
    assert_double_equal(cpm_lmo_predict_scatter_flat(l, 0, 100), 78.0, EPS);
    assert_double_equal(cpm_lmo_predict_scatter_flat(l, 0, 10), 30.2, EPS);
    /* Gather without thresholds is the overlapped form. */
    assert_double_equal(cpm_lmo_predict_gather_flat(l, 0, 100), 77.0, EPS);
    l->M1 = 40;
    l->M2 = 80;
    assert_double_equal(cpm_lmo_predict_gather_flat(l, 0, 10), 30.2, EPS);
    assert_double_equal(cpm_lmo_predict_gather_flat(l, 0, 100), 78.0, EPS);
    /* Medium: two gathers of 30 bytes: 2 (8 + 32.6). */
    assert_double_equal(cpm_lmo_predict_gather_flat(l, 0, 60), 81.2, EPS);
    struct cpm_lmo *h = cpm_lmo_homogeneous_of(l);
    /* C = 2, t = 0.2, L = 20, 1/beta = 0.02: 2 + 20 + 2 + 100 * 0.42. */
    assert_double_equal(cpm_predict_p2p(&h->predictor, 2, 1, 100), 66.0, EPS);
    cpm_lmo_free(h);
    cpm_lmo_free(l);
}

/* Planted LMO parameters of 4 processes and the measurements the LMO
 * experiments would give for them: one-to-two times per triplet and root,
 * and the round trips of each pair, once (p2p0/p2pm) and as measured inside
 * each triplet from each root to the next and the one after (tri[0..1] at
 * 0 bytes, tri[2..3] at M). noise(k) scales the k-th triplet-level time. */
enum { LN = 4, LPAIRS = 6, LTRIP = 4 };
struct lmo_planted {
    double C[LN], t[LN], L[LPAIRS], ib[LPAIRS];
    size_t m;
    struct cpm_result p2p0[LPAIRS], p2pm[LPAIRS], p2pp0[3 * LTRIP], p2ppm[3 * LTRIP];
    struct cpm_result tri[4][3 * LTRIP];
    struct cpm_result *tri0[2], *trim[2];
};

static double no_noise(int k)
{
    (void)k;
    return 1.0;
}

/* Up to +-6% per time, different for every time, the same on every run. */
static double some_noise(int k) { return 1.0 + 0.06 * sin(1.7 * k + 0.3); }

static void lmo_plant(struct lmo_planted *w, double (*noise)(int))
{
    memset(w, 0, sizeof *w);
    const double C[LN] = {1e-6, 2e-6, 1.5e-6, 3e-6}, t[LN] = {1e-9, 2e-9, 3e-9, 1.5e-9};
    for (int i = 0; i < LN; i++) {
        w->C[i] = C[i];
        w->t[i] = t[i];
    }
    for (int k = 0; k < LPAIRS; k++) {
        w->L[k] = (5 + k) * 1e-6;
        w->ib[k] = (1 + 0.5 * k) * 1e-9;
    }
    w->m = 4096;
    double M = (double)w->m;
    for (int k = 0; k < LPAIRS; k++) {
        int a, b;
        cpm_pair_at(LN, (size_t)k, &a, &b);
        w->p2p0[k].time = 2 * (C[a] + w->L[k] + C[b]);
        w->p2pm[k].time = 2 * (C[a] + w->L[k] + C[b] + M * (t[a] + w->ib[k] + t[b]));
    }
    int serial = 0;
    for (size_t tr = 0; tr < LTRIP; tr++) {
        int v[3];
        cpm_triplet_at(LN, tr, &v[0], &v[1], &v[2]);
        for (int r = 0; r < 3; r++) {
            double worst0 = 0, worstm = 0;
            for (int o = 1; o <= 2; o++) {
                int x = v[(r + o) % 3];
                size_t p = cpm_pair_index(LN, v[r], x);
                worst0 = fmax(worst0, 2 * (w->L[p] + C[x]));
                worstm = fmax(worstm, 2 * (w->L[p] + C[x]) + M * (w->ib[p] + t[x]));
                w->tri[o - 1][3 * tr + (size_t)r].time = w->p2p0[p].time * noise(serial++);
                w->tri[o + 1][3 * tr + (size_t)r].time = w->p2pm[p].time * noise(serial++);
            }
            w->p2pp0[3 * tr + (size_t)r].time = (4 * C[v[r]] + worst0) * noise(serial++);
            w->p2ppm[3 * tr + (size_t)r].time =
                (2 * (2 * C[v[r]] + M * t[v[r]]) + worstm) * noise(serial++);
        }
    }
    w->tri0[0] = w->tri[0];
    w->tri0[1] = w->tri[1];
    w->trim[0] = w->tri[2];
    w->trim[1] = w->tri[3];
}

/* The data as the solver reads it: per-pair round trips, or those measured
 * inside the triplets. */
static struct cpm_lmo_data lmo_data(const struct lmo_planted *w, bool in_triplets)
{
    struct cpm_lmo_data d = {w->m, w->p2p0, w->p2pm, w->p2pp0, w->p2ppm, NULL, NULL};
    if (in_triplets) {
        d.p2p0 = d.p2pm = NULL;
        d.tri0 = w->tri0;
        d.trim = w->trim;
    }
    return d;
}

static struct cpm_lmo *lmo_solved(const struct cpm_lmo_data *d)
{
    struct cpm_lmo *l = cpm_lmo_alloc(LN, false);
    char err[200] = "";
    assert_int_equal(cpm_lmo_solve(l, d, 0.95, err, sizeof err), 0);
    return l;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of n values (sorted in place). */
static double median_of(double *x, int n)
{
    qsort(x, (size_t)n, sizeof *x, by_value);
    return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

/* The half round trip of pair a-b: the median of the round trips each of
 * its processes timed in each triplet holding it, at 0 bytes (full 0) or M
 * (full 1). */
static double lmo_half_round_trip(const struct lmo_planted *w, int a, int b, int full)
{
    double x[2 * (LN - 2)];
    int count = 0;
    for (size_t tr = 0; tr < LTRIP; tr++) {
        int v[3];
        cpm_triplet_at(LN, tr, &v[0], &v[1], &v[2]);
        for (int r = 0; r < 3; r++)
            for (int o = 1; o <= 2; o++)
                if ((v[r] == a && v[(r + o) % 3] == b) || (v[r] == b && v[(r + o) % 3] == a))
                    x[count++] = w->tri[o - 1 + 2 * full][3 * tr + (size_t)r].time;
    }
    assert_int_equal(count, 2 * (LN - 2));
    return median_of(x, count) / 2.0;
}

/* The solved model holds the planted parameters, predicts as they do from
 * 0 bytes to 1 MiB, and corrected nothing. */
static void lmo_assert_planted(const struct lmo_planted *w, const struct cpm_lmo *l)
{
    for (int i = 0; i < LN; i++) {
        assert_double_equal(l->C[i], w->C[i], 1e-15);
        assert_double_equal(l->t[i], w->t[i], 1e-15);
    }
    for (int k = 0; k < LPAIRS; k++) {
        assert_double_equal(l->L[k], w->L[k], 1e-15);
        assert_double_equal(l->inv_beta[k], w->ib[k], 1e-15);
    }
    for (size_t m = 0; m <= 1 << 20; m = m ? 4 * m : 1)
        for (int k = 0; k < LPAIRS; k++) {
            int a, b;
            cpm_pair_at(LN, (size_t)k, &a, &b);
            double want = w->C[a] + w->L[k] + w->C[b] + (double)m * (w->t[a] + w->ib[k] + w->t[b]);
            assert_double_equal(cpm_predict_p2p(&l->predictor, a, b, m), want, 1e-12 * want);
        }
    assert_int_equal(l->fixes.negative_C + l->fixes.negative_t + l->fixes.falling_pairs +
                         l->fixes.negative_L + l->fixes.negative_inv_beta,
                     0);
}

/* Exact measurements give back the planted parameters and predictions. */
static void test_lmo_solve_recovers_parameters(void **state)
{
    (void)state;
    struct lmo_planted w;
    lmo_plant(&w, no_noise);
    for (int local = 0; local < 2; local++) {
        struct cpm_lmo_data d = lmo_data(&w, local);
        struct cpm_lmo *l = lmo_solved(&d);
        lmo_assert_planted(&w, l);
        /* Pair 1-3 (index 4): C 2e-6 + 3e-6, L 9e-6, per byte 2e-9 + 3e-9 + 1.5e-9. */
        assert_double_equal(cpm_predict_p2p(&l->predictor, 3, 1, 1000), 14e-6 + 6.5e-6, 1e-15);
        /* Exact data: every triplet gives the same answer. */
        assert_true(l->worst_ci < 1e-6);
        cpm_lmo_free(l);
    }
}

/* With timing noise the per-triplet C and t differ from triplet to triplet;
 * the predictions must still give back the measured round trips (halved,
 * the median over the triplets and directions that measured them), at 0
 * and M bytes and on the line through them, and rise with the message
 * size. */
static void test_lmo_solve_reproduces_round_trips(void **state)
{
    (void)state;
    struct lmo_planted w;
    lmo_plant(&w, some_noise);
    struct cpm_lmo_data d = lmo_data(&w, true);
    struct cpm_lmo *l = lmo_solved(&d);
    assert_true(l->worst_ci > 1e-3); /* the noise shows */
    for (int k = 0; k < LPAIRS; k++) {
        int a, b;
        cpm_pair_at(LN, (size_t)k, &a, &b);
        double at0 = lmo_half_round_trip(&w, a, b, 0), atm = lmo_half_round_trip(&w, a, b, 1);
        assert_double_equal(cpm_predict_p2p(&l->predictor, a, b, 0), at0, 1e-12 * at0);
        assert_double_equal(cpm_predict_p2p(&l->predictor, b, a, w.m), atm, 1e-12 * atm);
        double mid = at0 + (atm - at0) * 3.0;
        assert_double_equal(cpm_predict_p2p(&l->predictor, a, b, 3 * w.m), mid, 1e-12 * mid);
        for (size_t m = 1; m <= 1 << 20; m *= 2)
            assert_true(cpm_predict_p2p(&l->predictor, a, b, m) >=
                        cpm_predict_p2p(&l->predictor, a, b, m / 2));
    }
    /* The processor delays are the medians of the seed's per-triplet
     * solutions: C_0 from the triplets 012, 013, 023. */
    double c0[3];
    for (size_t tr = 0; tr < 3; tr++) {
        double rt1 = (w.tri[0][3 * tr].time + w.tri[1][3 * tr + 1].time) / 2;
        double rt2 = (w.tri[1][3 * tr].time + w.tri[0][3 * tr + 2].time) / 2;
        c0[tr] = (w.p2pp0[3 * tr].time - fmax(rt1, rt2)) / 2;
    }
    assert_double_equal(l->C[0], median_of(c0, 3), 1e-18);
    cpm_lmo_free(l);
}

/* On a loaded machine an experiment now and then catches a descheduling
 * that makes its mean many times the others. Here every experiment rooted
 * at process 0 in triplet 012 took 30 times as long: its one-to-two at 0
 * and M bytes, its round trip to 1 at 0 bytes and to 2 at M. That spoils
 * one of the three triplet solutions of processes 0, 1 and 2 and one of
 * the four round trips of pairs 0-1 and 0-2; the rest are exact, so the
 * planted parameters must come back exactly. */
static void test_lmo_solve_resists_a_spoiled_experiment(void **state)
{
    (void)state;
    struct lmo_planted w;
    lmo_plant(&w, no_noise);
    const double slow = 30.0;
    w.p2pp0[0].time *= slow;
    w.p2ppm[0].time *= slow;
    w.tri[0][0].time *= slow; /* tri0[0]: root 0 to 1, 0 bytes */
    w.tri[3][0].time *= slow; /* trim[1]: root 0 to 2, M bytes */
    struct cpm_lmo_data d = lmo_data(&w, true);
    struct cpm_lmo *l = lmo_solved(&d);
    lmo_assert_planted(&w, l);
    /* The spoiled solutions still show in the spread. */
    assert_true(l->worst_ci > 0.1);
    cpm_lmo_free(l);
}

/* Noisy data that would give negative delays or a falling pair is
 * corrected and the corrections counted; non-finite times are refused. */
static void test_lmo_solve_corrections(void **state)
{
    (void)state;
    struct lmo_planted w;
    lmo_plant(&w, no_noise);
    /* Process 3's one-to-two experiments faster than its round trips: C_3
     * and t_3 below 0. Pair 0-1's round trips at M faster than empty. */
    for (size_t tr = 1; tr < LTRIP; tr++) {
        w.p2pp0[3 * tr + 2].time *= 0.5;
        w.p2ppm[3 * tr + 2].time *= 0.5;
    }
    w.p2pm[0].time = 0.9 * w.p2p0[0].time;
    struct cpm_lmo_data d = lmo_data(&w, false);
    struct cpm_lmo *l = lmo_solved(&d);
    assert_int_equal(l->fixes.negative_C, 1);
    assert_int_equal(l->fixes.negative_t, 1);
    assert_int_equal(l->fixes.falling_pairs, 1);
    assert_double_equal(l->C[3], 0.0, 0);
    assert_double_equal(l->t[3], 0.0, 0);
    /* The round trips still come back, pair 0-1 flat at its empty time. */
    for (int k = 0; k < LPAIRS; k++) {
        int a, b;
        cpm_pair_at(LN, (size_t)k, &a, &b);
        double at0 = w.p2p0[k].time / 2, atm = k == 0 ? at0 : w.p2pm[k].time / 2;
        assert_double_equal(cpm_predict_p2p(&l->predictor, a, b, 0), at0, 1e-12 * at0);
        assert_double_equal(cpm_predict_p2p(&l->predictor, a, b, w.m), atm, 1e-12 * atm);
    }
    cpm_lmo_free(l);

    for (int which = 0; which < 2; which++) {
        lmo_plant(&w, no_noise);
        if (which)
            w.p2ppm[5].time = NAN;
        else
            w.p2p0[2].time = -1e-6;
        d = lmo_data(&w, false);
        l = cpm_lmo_alloc(LN, false);
        char err[200] = "";
        assert_int_equal(cpm_lmo_solve(l, &d, 0.95, err, sizeof err), -1);
        assert_non_null(strstr(err, "not a duration"));
        cpm_lmo_free(l);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nonnegative_fit),
        cmocka_unit_test(test_relative_fit),
        cmocka_unit_test(test_hockney_heterogeneous),
        cmocka_unit_test(test_binomial_trees),
        cmocka_unit_test(test_lininterp),
        cmocka_unit_test(test_plogp_and_loggp),
        cmocka_unit_test(test_lmo_predictions),
        cmocka_unit_test(test_lmo_solve_recovers_parameters),
        cmocka_unit_test(test_lmo_solve_reproduces_round_trips),
        cmocka_unit_test(test_lmo_solve_resists_a_spoiled_experiment),
        cmocka_unit_test(test_lmo_solve_corrections),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
