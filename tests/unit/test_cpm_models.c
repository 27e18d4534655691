/* Unit tests of the CPM models: predictions from hand-set parameters
 * against values worked out by hand, and the LMO solver recovering planted
 * parameters from synthetic measurements. */
#include "unit.h"

#include <stdlib.h>

#include "../../cpm/cpm_hockney.h"
#include "../../cpm/cpm_lininterp.h"
#include "../../cpm/cpm_lmo.h"
#include "../../cpm/cpm_plogp.h"
#include "../../cpm/cpm_predict.h"

#define EPS 1e-9

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

/* Measurements the LMO experiments would give for planted parameters. */
static void test_lmo_solve_recovers_parameters(void **state)
{
    (void)state;
    enum { N = 4 };
    const double C[N] = {1e-6, 2e-6, 1.5e-6, 3e-6}, t[N] = {1e-9, 2e-9, 3e-9, 1.5e-9};
    double L[6], ib[6];
    for (int k = 0; k < 6; k++) {
        L[k] = (5 + k) * 1e-6;
        ib[k] = (1 + 0.5 * k) * 1e-9;
    }
    const size_t M = 4096;
    struct cpm_result p2p0[6] = {0}, p2pm[6] = {0}, p2pp0[12] = {0}, p2ppm[12] = {0};
    for (int k = 0; k < 6; k++) {
        int a, b;
        cpm_pair_at(N, (size_t)k, &a, &b);
        p2p0[k].time = 2 * (C[a] + L[k] + C[b]);
        p2pm[k].time = 2 * (C[a] + L[k] + C[b] + M * (t[a] + ib[k] + t[b]));
    }
    for (size_t tr = 0; tr < cpm_triplets(N); tr++) {
        int v[3];
        cpm_triplet_at(N, tr, &v[0], &v[1], &v[2]);
        for (int r = 0; r < 3; r++) {
            double worst0 = 0, worstm = 0;
            for (int o = 1; o <= 2; o++) {
                int x = v[(r + o) % 3];
                size_t p = cpm_pair_index(N, v[r], x);
                worst0 = fmax(worst0, 2 * (L[p] + C[x]));
                worstm = fmax(worstm, 2 * (L[p] + C[x]) + M * (ib[p] + t[x]));
            }
            p2pp0[3 * tr + (size_t)r].time = 4 * C[v[r]] + worst0;
            p2ppm[3 * tr + (size_t)r].time = 2 * (2 * C[v[r]] + M * t[v[r]]) + worstm;
        }
    }
    /* The same round trips as measured inside each triplet, from each root
     * to the next and the one after. */
    struct cpm_result tri[4][12] = {{{0}}};
    for (size_t tr = 0; tr < cpm_triplets(N); tr++) {
        int v[3];
        cpm_triplet_at(N, tr, &v[0], &v[1], &v[2]);
        for (int r = 0; r < 3; r++)
            for (int o = 1; o <= 2; o++) {
                size_t p = cpm_pair_index(N, v[r], v[(r + o) % 3]);
                tri[o - 1][3 * tr + (size_t)r] = p2p0[p];
                tri[o + 1][3 * tr + (size_t)r] = p2pm[p];
            }
    }
    struct cpm_result *tri0[2] = {tri[0], tri[1]}, *trim[2] = {tri[2], tri[3]};
    for (int local = 0; local < 2; local++) {
        struct cpm_lmo *l = cpm_lmo_alloc(N, false);
        struct cpm_lmo_data d = {M, p2p0, p2pm, p2pp0, p2ppm, NULL, NULL};
        if (local) {
            d.tri0 = tri0;
            d.trim = trim;
            d.p2p0 = d.p2pm = NULL;
        }
        cpm_lmo_solve(l, &d, 0.95);
        for (int i = 0; i < N; i++) {
            assert_double_equal(l->C[i], C[i], 1e-15);
            assert_double_equal(l->t[i], t[i], 1e-15);
        }
        for (int k = 0; k < 6; k++) {
            assert_double_equal(l->L[k], L[k], 1e-15);
            assert_double_equal(l->inv_beta[k], ib[k], 1e-15);
        }
        /* Exact data: every triplet gives the same answer. */
        assert_true(l->worst_ci < 1e-6);
        cpm_lmo_free(l);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hockney_heterogeneous),
        cmocka_unit_test(test_binomial_trees),
        cmocka_unit_test(test_lininterp),
        cmocka_unit_test(test_plogp_and_loggp),
        cmocka_unit_test(test_lmo_predictions),
        cmocka_unit_test(test_lmo_solve_recovers_parameters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
