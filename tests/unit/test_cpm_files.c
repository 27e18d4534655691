/* Unit tests of the CPM model files: every model survives a write/read round
 * trip, and malformed files (truncated, wrong counts, non-numeric values,
 * another model's name, pairs out of order, LMO parameters that no solve
 * gives) are refused with a message. */
#include "unit.h"

#include "cpm_text.h"

#include <stdio.h>
#include <string.h>

#include "../../cpm/lib/cpm_hockney.h"
#include "../../cpm/lib/cpm_lininterp.h"
#include "../../cpm/lib/cpm_lmo.h"
#include "../../cpm/lib/cpm_plogp.h"
#include "../../cpm/lib/cpm_predict.h"

/* Writes model with kind, reads it back; returns what was read. */
static void *round_trip(const struct cpm_model_kind *kind, const void *model)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(cpm_model_write_stream(f, kind, model), 0);
    rewind(f);
    void *back = NULL;
    char err[300] = "";
    int rc = cpm_model_read_stream(f, kind, &back, err, sizeof err);
    fclose(f);
    if (rc != 0)
        fail_msg("read back failed: %s", err);
    return back;
}

static void test_hockney_round_trip(void **state)
{
    (void)state;
    struct cpm_hockney *h = cpm_hockney_alloc(4);
    for (int k = 0; k < 6; k++) {
        h->a[k] = 1e-6 * (k + 1);
        h->b[k] = 3e-10 * (k + 1);
    }
    struct cpm_hockney *b = round_trip(&cpm_hockney_kind, h);
    assert_int_equal(b->n, 4);
    for (int k = 0; k < 6; k++) {
        assert_double_equal(b->a[k], h->a[k], 1e-15);
        assert_double_equal(b->b[k], h->b[k], 1e-18);
    }
    cpm_hockney_free(h);
    cpm_hockney_free(b);
}

static void test_lininterp_round_trip(void **state)
{
    (void)state;
    struct cpm_lininterp *l = cpm_lininterp_alloc(3, 2);
    l->sizes[0] = 0;
    l->sizes[1] = 4096;
    for (int k = 0; k < 6; k++)
        l->times[k] = 1e-6 * (k + 1);
    struct cpm_lininterp *b = round_trip(&cpm_lininterp_kind, l);
    assert_int_equal(b->num_points, 2);
    assert_double_equal(b->sizes[1], 4096, 0);
    for (int k = 0; k < 6; k++)
        assert_double_equal(b->times[k], l->times[k], 1e-15);
    cpm_lininterp_free(l);
    cpm_lininterp_free(b);
}

static void test_plogp_round_trip(void **state)
{
    (void)state;
    struct cpm_plogp *p = cpm_plogp_alloc(2, 3);
    for (int s = 0; s < 3; s++) {
        p->sizes[s] = 1024.0 * s;
        p->pairs[0].os[s] = 1e-6 * s;
        p->pairs[0].orecv[s] = 2e-6 * s;
        p->pairs[0].g[s] = 3e-6 * s;
    }
    p->pairs[0].L = 4e-6;
    struct cpm_plogp *b = round_trip(&cpm_plogp_kind, p);
    assert_double_equal(b->pairs[0].L, 4e-6, 1e-15);
    assert_double_equal(b->pairs[0].g[2], 6e-6, 1e-15);
    assert_double_equal(b->pairs[0].orecv[1], 2e-6, 1e-15);
    /* The LogGP kind reads the same file. */
    void *g = round_trip(&cpm_loggp_kind, p);
    assert_double_equal(cpm_predict_p2p(cpm_loggp_kind.predictor(g), 0, 1, 10),
                        cpm_predict_p2p(&((struct cpm_plogp *)g)->loggp_predictor, 0, 1, 10), 0);
    cpm_plogp_free(g);
    cpm_plogp_free(p);
    cpm_plogp_free(b);
}

static void test_lmo_round_trip(void **state)
{
    (void)state;
    for (int homogeneous = 0; homogeneous < 2; homogeneous++) {
        struct cpm_lmo *l = cpm_lmo_alloc(3, homogeneous);
        int procs = homogeneous ? 1 : 3;
        for (int k = 0; k < procs; k++) {
            l->C[k] = 1e-6 * (k + 1);
            l->t[k] = 1e-9 * (k + 1);
            l->L[k] = 1e-5 * (k + 1);
            l->inv_beta[k] = 1e-8 * (k + 1);
        }
        l->S = 8192;
        l->M1 = 4096;
        l->one2many_large[1] = 2.5e-9;
        struct cpm_lmo *b = round_trip(&cpm_lmo_kind, l);
        assert_int_equal(b->homogeneous, homogeneous);
        assert_int_equal(b->S, 8192);
        assert_int_equal(b->M1, 4096);
        assert_true(b->M2 == CPM_NO_THRESHOLD);
        assert_double_equal(b->one2many_large[1], 2.5e-9, 1e-18);
        assert_double_equal(cpm_predict_p2p(&b->predictor, 0, 2, 1000),
                            cpm_predict_p2p(&l->predictor, 0, 2, 1000), 1e-12);
        cpm_lmo_free(l);
        cpm_lmo_free(b);
    }
}

static void test_malformed_files_refused(void **state)
{
    (void)state;
    const struct cpm_model_kind *h = &cpm_hockney_kind;
    const char *good = "model Hockney\nprocesses 3\n0 1 1e-6 1e-9\n0 2 1e-6 1e-9\n1 2 1 0.5\n";
    char err[300];
    assert_int_equal(cpm_text_check(h, good, strlen(good), 0, err, sizeof err), 0);
    cpm_text_refused(h, "", "truncated");
    cpm_text_refused(h, "model Hockney\nprocesses 3\n0 1 1e-6 1e-9\n0 2 1e-6", "truncated");
    cpm_text_refused(h, "model LMO\nprocesses 3\n", "LMO model, not Hockney");
    cpm_text_refused(h, "model Hockney\nprocesses 3\n0 1 1e-6 abc\n", "not a finite number");
    cpm_text_refused(h, "model Hockney\nprocesses 3\n0 1 1e-6 1e-9x\n", "not a finite number");
    cpm_text_refused(h, "model Hockney\nprocesses 3\n0 2 1e-6 1e-9\n", "outside");
    cpm_text_refused(h, "model Hockney\nprocesses -2\n", "outside");
    cpm_text_refused(h, "model Hockney\nprocesses many\n", "not an integer");
    /* A count too small leaves data behind. */
    cpm_text_refused(h, "model Hockney\nprocesses 2\n0 1 1 0.5\n0 2 1 0.5\n", "wrong count");
    cpm_text_refused(h, "model Hockney\nprocessors 2\n0 1 1 0.5\n", "expected 'processes'");
    cpm_text_refused(h, "model Hockney\nprocesses 2\n0 1 nan 0.5\n", "not a finite number");

    const struct cpm_model_kind *l = &cpm_lininterp_kind;
    cpm_text_refused(l, "model LinInterp\nprocesses 2\npoints 2\nsizes 10 5\n0 1 1 2\n", "increase");
    cpm_text_refused(l, "model LinInterp\nprocesses 2\npoints 3\nsizes 0 5 9\n0 1 1 2\n",
                   "truncated");
    cpm_text_refused(l, "model LinInterp\nprocesses 2\npoints 2\nsizes 0 -5\n0 1 1 2\n",
                   "not a size");
    const struct cpm_model_kind *lmo = &cpm_lmo_kind;
    const char *lmo_ok = "model LMO\nprocesses 3\nhomogeneous 1\nC 1\nt 0.2\nlink 0 1 3 0.4\n"
                         "S none\none2many_small 1 0.5\none2many_large 1 0.5\nM1 100\nM2 50\n"
                         "many2one_small 1 0.5\nmany2one_large 1 0.5\n";
    cpm_text_refused(lmo, lmo_ok, "M1 (100) exceeds M2 (50)");
    cpm_text_refused(lmo, "model LMO\nprocesses 3\nhomogeneous 2\n", "outside");
    cpm_text_refused(&cpm_plogp_kind, "model PLogP\nprocesses 2\npoints 1\nsizes 0\n"
                                    "pair 0 1 1\nos 1\nor 1\n",
                   "truncated");
}

/* An LMO file whose parameters a solve cannot give is refused. */
static void test_lmo_file_signs(void **state)
{
    (void)state;
    const char *head = "model LMO\nprocesses 3\nhomogeneous 1\n";
    const char *tail = "S none\none2many_small 1 0.5\none2many_large 1 0.5\nM1 none\nM2 none\n"
                       "many2one_small 1 0.5\nmany2one_large 1 0.5\n";
    const struct {
        const char *body, *refusal;
    } cases[] = {
        {"C 1e-6\nt 1e-9\nlink 0 1 -1e-6 -1e-9\n", NULL}, /* sums 1e-6, 1e-9 */
        {"C -1e-6\nt 1e-9\nlink 0 1 1e-5 1e-9\n", "delay C: -1e-06 s is negative"},
        {"C 1e-6\nt -1e-9\nlink 0 1 1e-5 1e-8\n", "delay t: -1e-09 s/byte is negative"},
        {"C 1e-6\nt 1e-9\nlink 0 1 -3e-6 1e-9\n", "C_i + L_ij + C_j is negative"},
        {"C 1e-6\nt 1e-9\nlink 0 1 1e-5 -3e-9\n", "larger message would take less time"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char text[512], err[300] = "";
        snprintf(text, sizeof text, "%s%s%s", head, cases[c].body, tail);
        if (!cases[c].refusal) {
            void *m;
            if (cpm_text_read(&cpm_lmo_kind, text, strlen(text), 0, &m, err, sizeof err) != 0)
                fail_msg("refused: %s", err);
            assert_double_equal(cpm_predict_p2p(cpm_lmo_kind.predictor(m), 0, 2, 1000), 2e-6,
                                1e-18);
            cpm_lmo_kind.destroy(m);
        } else {
            cpm_text_refused(&cpm_lmo_kind, text, cases[c].refusal);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hockney_round_trip),  cmocka_unit_test(test_lininterp_round_trip),
        cmocka_unit_test(test_plogp_round_trip),    cmocka_unit_test(test_lmo_round_trip),
        cmocka_unit_test(test_malformed_files_refused),
        cmocka_unit_test(test_lmo_file_signs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
