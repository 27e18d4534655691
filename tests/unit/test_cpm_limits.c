/* Unit tests of what keeps CPM models trustworthy: a model file's declared
 * counts allocate nothing the file does not hold; values beyond any real
 * measurement (1e308, negative times, falling curves, NUL bytes) are
 * refused with the line; no predictor goes below 0; sizes whose products
 * with a process count overflow are refused; the estimates' monotone fit. */
#include "unit.h"

#include "cpm_text.h"

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "../../cpm/coll/cpm_coll.h"
#include "../../cpm/lib/cpm_hockney.h"
#include "../../cpm/lib/cpm_lininterp.h"
#include "../../cpm/lib/cpm_lmo.h"
#include "../../cpm/lib/cpm_plogp.h"
#include "../../cpm/lib/cpm_predict.h"

static void accepted(const struct cpm_model_kind *kind, const char *text)
{
    char err[400];
    if (cpm_text_check(kind, text, strlen(text), 0, err, sizeof err) != 0)
        fail_msg("%s refused: %s", kind->name, err);
}

/* Allows 64 MB of address space beyond what is in use (/proc/self/statm),
 * so that an allocation for a declared count fails instead of reserving
 * pages it never touches. Not under AddressSanitizer, which reserves
 * terabytes of shadow memory. */
static void allow_64_mb_more(const struct rlimit *old)
{
#ifdef __SANITIZE_ADDRESS__
    (void)old;
#else
    unsigned long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    assert_non_null(f);
    assert_int_equal(fscanf(f, "%lu", &pages), 1);
    fclose(f);
    struct rlimit tight = {(rlim_t)pages * 4096 + ((rlim_t)64 << 20), old->rlim_max};
    if (old->rlim_max != RLIM_INFINITY && tight.rlim_cur > old->rlim_max)
        tight.rlim_cur = old->rlim_max;
    assert_int_equal(setrlimit(RLIMIT_AS, &tight), 0);
#endif
}

/* A few lines that declare millions of processes or points are refused as
 * truncated, within 64 MB more address space: the reader allocated for
 * nothing it had not read. */
static void test_declared_counts_allocate_nothing(void **state)
{
    (void)state;
    const struct {
        const struct cpm_model_kind *kind;
        const char *text;
    } cases[] = {
        {&cpm_plogp_kind, "model PLogP\nprocesses 2000\npoints 1048576\nsizes 0\n"},
        {&cpm_plogp_kind, "model PLogP\nprocesses 1048576\npoints 1\nsizes 0\npair 0 1 1e-6\n"},
        {&cpm_loggp_kind, "model PLogP\nprocesses 65536\npoints 1048576\nsizes 0 1 2\n"},
        {&cpm_lininterp_kind, "model LinInterp\nprocesses 2000\npoints 1048576\nsizes 0 1\n"},
        {&cpm_hockney_kind, "model Hockney\nprocesses 1048576\n0 1 1e-6 1e-9\n"},
        {&cpm_lmo_kind, "model LMO\nprocesses 1048576\nhomogeneous 0\nC 1e-6 1e-6\n"},
    };
    struct rlimit old;
    assert_int_equal(getrlimit(RLIMIT_AS, &old), 0);
    allow_64_mb_more(&old);
    char err[400];
    int bad = -1;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0] && bad < 0; c++)
        if (cpm_text_check(cases[c].kind, cases[c].text, strlen(cases[c].text), 0, err,
                           sizeof err) != -1 ||
            !strstr(err, "truncated"))
            bad = (int)c;
    setrlimit(RLIMIT_AS, &old);
    if (bad >= 0)
        fail_msg("case %d: '%s'", bad, err);
}

static void test_values_bounded(void **state)
{
    (void)state;
    const struct cpm_model_kind *h = &cpm_hockney_kind;
    accepted(h, "model Hockney\nprocesses 2\n0 1 3600 1\n");
    cpm_text_refused(h, "model Hockney\nprocesses 2\n0 1 1e308 1e-9\n",
                     "line 3: latency a: 1e+308 s is above 3600 s");
    cpm_text_refused(h, "model Hockney\nprocesses 2\n0 1 1e-6 1.5\n",
                     "time per byte b: 1.5 s/byte is above 1 s/byte");
    cpm_text_refused(h, "model Hockney\nprocesses 2\n0 1 -1e-6 1e-9\n",
                     "latency a: -1e-06 s is negative");
    cpm_text_refused(h, "model Hockney\nprocesses 2\n0 1 1e-6 -1e-9\n",
                     "time per byte b: -1e-09 s/byte is negative");
    cpm_text_refused(h, "model Hockney\nprocesses 2\n0 1 inf 1e-9\n", "not a finite number");
    cpm_text_refused(h, "model Hockney\nprocesses 2\n0 1 1e-6 1e999\n", "not a finite number");
    cpm_text_refused(&cpm_lmo_kind,
                     "model LMO\nprocesses 3\nhomogeneous 1\nC 1e-6\nt 1e-9\nlink 0 1 -4000 1e-9\n",
                     "latency L: -4000 s is below -3600 s");
    cpm_text_refused(
        &cpm_lmo_kind,
        "model LMO\nprocesses 3\nhomogeneous 1\nC 1e-6\nt 1e-9\nlink 0 1 1e-5 1e-9\nS none\n"
        "one2many_small 1e-5 1e300\n",
        "one2many_small: 1e+300 s/byte is above 1 s/byte");
    cpm_text_refused(&cpm_plogp_kind,
                     "model PLogP\nprocesses 2\npoints 1\nsizes 0\npair 0 1 1e-5\nos -1e-6\n",
                     "os: -1e-06 s is negative");
}

/* A NUL byte inside a number was read as the digits before it. */
static void test_nul_bytes_refused(void **state)
{
    (void)state;
    static const char in_number[] = "model Hockney\nprocesses 2\n0 1 12\0"
                                    "34 1e-9\n";
    static const char in_comment[] = "model Hockney\nprocesses 2\n# a\0b\n0 1 1e-6 1e-9\n";
    static const char at_end[] = "model Hockney\nprocesses 2\n0 1 1e-6 1e-9\n\0";
    char err[400];
    assert_int_equal(
        cpm_text_check(&cpm_hockney_kind, in_number, sizeof in_number - 1, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "line 3: a NUL byte"));
    assert_int_equal(
        cpm_text_check(&cpm_hockney_kind, in_comment, sizeof in_comment - 1, 0, err, sizeof err),
        -1);
    assert_non_null(strstr(err, "NUL"));
    assert_int_equal(
        cpm_text_check(&cpm_hockney_kind, at_end, sizeof at_end - 1, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "NUL"));
    /* Other control bytes are quoted as '?', keeping the message one line. */
    cpm_text_refused(&cpm_hockney_kind, "model Hockney\nprocesses 2\n0 1 1\0332 1e-9\n",
                     "'1?2' is not a finite number");
}

static void test_falling_curves_refused(void **state)
{
    (void)state;
    const struct cpm_model_kind *l = &cpm_lininterp_kind, *p = &cpm_plogp_kind;
    accepted(l, "model LinInterp\nprocesses 2\npoints 3\nsizes 0 10 20\n0 1 1e-6 1e-6 2e-6\n");
    cpm_text_refused(l,
                     "model LinInterp\nprocesses 2\npoints 3\nsizes 0 10 20\n0 1 1e-6 3e-6 2e-6\n",
                     "line 5: time: 2e-06 s at 20 bytes is below 3e-06 s at 10 bytes");
    cpm_text_refused(l, "model LinInterp\nprocesses 2\npoints 2\nsizes 0 10\n0 1 0 11\n",
                     "time rises by 1.1 s/byte between 0 and 10 bytes");
    const char *head = "model PLogP\nprocesses 2\npoints 2\nsizes 0 100\n";
    char text[300];
    /* L below 0 is what noise gives; L + g(0) below 0 would predict it. */
    snprintf(text, sizeof text, "%spair 0 1 -1e-6\nos 1 0.5\nor 1 1\ng 2e-6 3e-6\n", head);
    accepted(p, text);
    snprintf(text, sizeof text, "%spair 0 1 -3e-6\nos 1 1\nor 1 1\ng 2e-6 3e-6\n", head);
    cpm_text_refused(p, text, "pair 0 1: L + g(0) = -1e-06 s");
    snprintf(text, sizeof text, "%spair 0 1 1e-6\nos 1 1\nor 1 1\ng 3e-6 2e-6\n", head);
    cpm_text_refused(p, text, "g: 2e-06 s at 100 bytes is below 3e-06 s at 0 bytes");
    cpm_text_refused(p,
                     "model PLogP\nprocesses 2\npoints 1\nsizes 5\npair 0 1 1\nos 1\nor 1\ng 1\n",
                     "the first message size must be 0");
}

static void test_make_nondecreasing(void **state)
{
    (void)state;
    double y[] = {1, 3, 2, 4}, z[] = {3, 2, 1}, up[] = {1, 1, 2}, one[] = {5};
    assert_true(cpm_make_nondecreasing(y, 4));
    const double want[] = {1, 2.5, 2.5, 4};
    for (int k = 0; k < 4; k++)
        assert_double_equal(y[k], want[k], 1e-15);
    assert_true(cpm_make_nondecreasing(z, 3));
    for (int k = 0; k < 3; k++)
        assert_double_equal(z[k], 2.0, 1e-15);
    assert_false(cpm_make_nondecreasing(up, 3));
    assert_double_equal(up[2], 2.0, 0);
    assert_false(cpm_make_nondecreasing(one, 1));
}

struct notes {
    char text[400];
    int count;
};
static void keep_note(const char *text, void *ctx)
{
    struct notes *n = ctx;
    snprintf(n->text, sizeof n->text, "%s", text);
    n->count++;
}

/* The estimates count the curves they made non-decreasing; model prints it. */
static void test_adjusted_curves_reported(void **state)
{
    (void)state;
    struct cpm_estimate_args a = {0};
    struct cpm_lininterp *l = cpm_lininterp_alloc(3, 2);
    struct cpm_plogp *p = cpm_plogp_alloc(3, 2);
    struct notes n = {"", 0};
    cpm_lininterp_kind.report(l, &a, keep_note, &n);
    cpm_plogp_kind.report(p, &a, keep_note, &n);
    assert_int_equal(n.count, 0);
    l->adjusted = 2;
    cpm_lininterp_kind.report(l, &a, keep_note, &n);
    assert_non_null(strstr(n.text, "LinInterp warning: for 2 of 3 pairs"));
    p->adjusted = 1;
    cpm_plogp_kind.report(p, &a, keep_note, &n);
    assert_non_null(strstr(n.text, "PLogP warning: for 1 of 3 pairs"));
    cpm_lininterp_free(l);
    cpm_plogp_free(p);
}

/* Predictions that went below 0 before: a LinInterp extension below its
 * first size, LogGP's G(M - 1) at M = 0, a PLogP L below 0, LMO's
 * serialised flat scatter with link terms below 0. */
static void test_predictions_never_negative(void **state)
{
    (void)state;
    struct cpm_lininterp *l = cpm_lininterp_alloc(2, 2);
    l->sizes[0] = 1024;
    l->sizes[1] = 2048;
    l->times[0] = 1e-6;
    l->times[1] = 1e-3;
    assert_double_equal(cpm_predict_p2p(&l->predictor, 0, 1, 0), 0.0, 0);
    assert_double_equal(cpm_predict_p2p(&l->predictor, 0, 1, 1536), 5.005e-4, 1e-12);
    cpm_lininterp_free(l);

    struct cpm_plogp *p = cpm_plogp_alloc(2, 3);
    const double sizes[] = {0, 1, 1000}, g[] = {0, 0, 1e-3};
    for (int s = 0; s < 3; s++) {
        p->sizes[s] = sizes[s];
        p->pairs[0].g[s] = g[s];
    }
    /* L' + 2o = L + g(1) = 0; G = 1e-6: the seed's formula gave -1e-6 at 0. */
    assert_double_equal(cpm_predict_p2p(&p->loggp_predictor, 0, 1, 0), 0.0, 0);
    assert_double_equal(cpm_predict_p2p(&p->loggp_predictor, 0, 1, 11), 1e-5, 1e-18);
    assert_true(cpm_loggp_hpredict_sg_linear(p, 0) >= 0.0);
    /* An empty message costs what a byte does: L + g(1), not L + g(1) - G. */
    p->pairs[0].L = 5e-6;
    assert_double_equal(cpm_predict_p2p(&p->loggp_predictor, 0, 1, 0), 5e-6, 1e-18);
    assert_double_equal(cpm_loggp_hpredict_sg_linear(p, 0), 5e-6, 1e-18);
    p->pairs[0].L = -2e-6;
    p->pairs[0].g[0] = 2e-6;
    p->pairs[0].g[1] = 2e-6;
    assert_double_equal(cpm_predict_p2p(&p->predictor, 0, 1, 0), 0.0, 1e-18);
    assert_true(cpm_plogp_hpredict_sg_linear(p, 0) >= 0.0);
    cpm_plogp_free(p);

    struct cpm_lmo *m = cpm_lmo_alloc(3, false);
    for (int v = 0; v < 3; v++)
        m->t[v] = 1e-9;
    for (int k = 0; k < 3; k++)
        m->inv_beta[k] = -1e-9; /* t_i + 1/beta + t_j = 1e-9 per byte */
    m->S = 0;
    /* (n-1)(C + M t_r) + sum M/beta + max(M t_i) = 2M - 2M + M, in ns: the
     * slowest transfer alone, M (t_r + 1/beta + t_i), is the floor. */
    assert_double_equal(cpm_lmo_predict_scatter_flat(m, 0, 1000), 1e-6, 1e-18);
    m->t[0] = 0.0;
    m->inv_beta[0] = m->inv_beta[1] = -0.5e-9;
    /* 0 + (-1e-6) + 1e-6 = 0 by the sum; the slowest p2p is 0.5e-6. */
    assert_double_equal(cpm_lmo_predict_scatter_flat(m, 0, 1000), 0.5e-6, 1e-18);
    m->M1 = 0;
    m->M2 = 0;
    assert_double_equal(cpm_lmo_predict_gather_flat(m, 0, 1000), 0.5e-6, 1e-18);
    cpm_lmo_free(m);
}

/* A scatter's first edge carries every process's bytes: a size whose
 * product with the process count wraps is refused, not predicted. */
static void test_size_products_refused(void **state)
{
    (void)state;
    struct cpm_hockney *h = cpm_hockney_alloc(4);
    for (int k = 0; k < 6; k++) {
        h->a[k] = 1e-6;
        h->b[k] = 1e-9;
    }
    const struct cpm_predictor *p = &h->predictor;
    size_t big = SIZE_MAX / 4 + 1, fits = SIZE_MAX / 4;
    assert_true(cpm_predict_brsg(p, 4, 0, big, CPM_COLL_SCATTER) < 0.0);
    assert_true(cpm_predict_brsg(p, 4, 0, big, CPM_COLL_GATHER) < 0.0);
    assert_true(cpm_predict_brsg(p, 4, 0, fits, CPM_COLL_SCATTER) > 0.0);
    assert_true(cpm_predict_brsg(p, 4, 0, big, CPM_COLL_BCAST) > 0.0);
    size_t sizes[4] = {1, SIZE_MAX / 2, SIZE_MAX / 2, 2};
    assert_true(cpm_predict_sgv(p, 4, 0, sizes, CPM_COLL_SCATTER) < 0.0);
    struct cpm_tree t;
    assert_int_equal(
        cpm_tree_binomial(p, 4, 0, CPM_TREE_DOWN, CPM_TREE_UCS, CPM_NEXT_MIN, 0, sizes, &t),
        MPI_ERR_ARG);
    assert_int_equal(cpm_tree_sorted_flat(p, 4, 0, CPM_TREE_DOWN, CPM_SORT_ASC, 0, sizes, &t),
                     MPI_ERR_ARG);
    assert_int_equal(cpm_tree_traff(p, 4, 0, CPM_TREE_UP, 0, sizes, &t), MPI_ERR_ARG);
    const struct cpm_coll_alg alg = {CPM_ALG_BINOMIAL, CPM_TREE_DFS, CPM_NEXT_MIN, CPM_SORT_ASC};
    assert_true(cpm_coll_predict(p, &alg, CPM_OP_SCATTER, 4, 0, big, NULL) < 0.0);
    assert_true(cpm_coll_predict(p, &alg, CPM_OP_SCATTER, 4, 0, fits, NULL) > 0.0);
    cpm_hockney_free(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_declared_counts_allocate_nothing),
        cmocka_unit_test(test_values_bounded),
        cmocka_unit_test(test_nul_bytes_refused),
        cmocka_unit_test(test_falling_curves_refused),
        cmocka_unit_test(test_make_nondecreasing),
        cmocka_unit_test(test_adjusted_curves_reported),
        cmocka_unit_test(test_predictions_never_negative),
        cmocka_unit_test(test_size_products_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
