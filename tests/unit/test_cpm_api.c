/* Unit tests of the CPM manual's names (cpm_api.h): X_alloc's bounds,
 * X_write/X_read round trips and refusals, X_initialize setting
 * X_model_instance and X_finalize clearing it, a model-based collective
 * through the manual's name, estimates refused with a reason, LMO's
 * triplet index, the int-sized predictions and a program's own predictor
 * (one process). */
#include "unit.h"
#include "unit_mpi.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "../../cpm/coll/cpm_api.h"

static void test_alloc(void **state)
{
    (void)state;
    assert_null(Hockney_alloc(0));
    assert_null(LMO_alloc(-1));
    assert_null(PLogP_alloc(CPM_MAX_PROCESSES + 1));
    assert_null(LinInterp_alloc(2, 0));
    assert_null(LinInterp_alloc(2, CPM_MAX_POINTS + 1));
    Hockney_model *h = Hockney_alloc(3);
    LinInterp_model *l = LinInterp_alloc(3, 4);
    PLogP_model *p = PLogP_alloc(3);
    LMO_model *m = LMO_alloc(3);
    assert_non_null(h);
    assert_non_null(l);
    assert_non_null(p);
    assert_non_null(m);
    assert_int_equal(h->n, 3);
    assert_int_equal(l->num_points, 4);
    assert_int_equal(p->num_points, 1);
    assert_double_equal(p->sizes[0], 0.0, 0);
    assert_false(m->homogeneous);
    Hockney_free(h);
    LinInterp_free(l);
    PLogP_free(p);
    LMO_free(m);
}

static void test_write_read(void **state)
{
    (void)state;
    Hockney_model *h = Hockney_alloc(3), *back = NULL;
    for (int k = 0; k < 3; k++) {
        h->a[k] = 1e-5 * (k + 1);
        h->b[k] = 1e-9 * (k + 1);
    }
    FILE *f = tmpfile();
    assert_non_null(f);
    Hockney_write(f, h);
    rewind(f);
    Hockney_read(f, &back);
    fclose(f);
    assert_non_null(back);
    assert_string_equal(cpm_api_read_error(), "");
    assert_double_equal(cpm_predict_p2p(&back->predictor, 2, 1, 1000),
                        cpm_predict_p2p(&h->predictor, 1, 2, 1000), 1e-15);
    Hockney_free(back);
    Hockney_free(h);

    /* Another kind's file, and a damaged one: NULL, and the reason. */
    const char *lmo = "model LMO\nprocesses 3\n";
    f = fmemopen((void *)lmo, strlen(lmo), "r");
    back = h;
    Hockney_read(f, &back);
    fclose(f);
    assert_null(back);
    assert_non_null(strstr(cpm_api_read_error(), "holds a LMO model, not Hockney"));
    const char *bad = "model PLogP\nprocesses 2\npoints 1\nsizes 0\npair 0 1 1e308\n";
    PLogP_model *p = NULL;
    f = fmemopen((void *)bad, strlen(bad), "r");
    PLogP_read(f, &p);
    fclose(f);
    assert_null(p);
    assert_non_null(strstr(cpm_api_read_error(), "line 5: latency L: 1e+308 s is above"));
    LMO_model *m = LMO_alloc(3), *kept = m;
    LMO_read(NULL, &m);
    assert_null(m);
    LMO_free(kept);
}

static void test_instances(void **state)
{
    (void)state;
    assert_null(Hockney_model_instance);
    Hockney_model *h = Hockney_alloc(2);
    h->a[0] = 3e-6;
    h->b[0] = 2e-9;
    assert_int_equal(Hockney_initialize(MPI_COMM_WORLD, h), MPI_SUCCESS);
    Hockney_free(h);
    /* Every process holds its own copy, read back from the file's text. */
    assert_non_null(Hockney_model_instance);
    assert_ptr_not_equal(Hockney_model_instance, h);
    assert_int_equal(Hockney_model_instance->n, 2);
    assert_double_equal(Hockney_model_instance->b[0], 2e-9, 0);
    char buffer[16] = "model-based";
    assert_int_equal(Hockney_Bcast_ucs_binomial_min(buffer, 16, MPI_CHAR, 0, MPI_COMM_WORLD),
                     MPI_SUCCESS);
    assert_string_equal(buffer, "model-based");
    assert_int_equal(Hockney_finalize(MPI_COMM_WORLD), MPI_SUCCESS);
    assert_null(Hockney_model_instance);
    /* Without a model the collective refuses instead of guessing. */
    assert_int_equal(Hockney_Bcast_ucs_binomial_min(buffer, 16, MPI_CHAR, 0, MPI_COMM_WORLD),
                     MPI_ERR_ARG);

    LMO_model *m = LMO_alloc(3);
    m->C[1] = 1e-6;
    assert_int_equal(LMO_initialize(MPI_COMM_WORLD, m), MPI_SUCCESS);
    assert_double_equal(LMO_model_instance->C[1], 1e-6, 0);
    LMO_free(m);
    LMO_finalize(MPI_COMM_WORLD);
    assert_null(LMO_model_instance);
}

static void test_estimates_refused(void **state)
{
    (void)state;
    MPIB_precision p = CPM_PRECISION_DEFAULT;
    MPIB_msgset m = CPM_MSGSET_DEFAULT;
    /* An output: what it pointed to is the caller's to free. */
    LMO_model *given = LMO_alloc(3), *lmo = given;
    LMO_estimate(MPI_COMM_WORLD, p, m, 0, &lmo);
    assert_null(lmo);
    LMO_free(given);
    assert_non_null(strstr(cpm_api_error(), "needs at least 3 processes, not 1"));
    Hockney_model *h = Hockney_alloc(2);
    Hockney_free(h);
    Hockney_estimate(MPI_COMM_WORLD, -5, p, 0, &h);
    assert_null(h);
    assert_string_not_equal(cpm_api_error(), "");
}

static void test_triplet_index(void **state)
{
    (void)state;
    for (int n = 3; n < 9; n++) {
        assert_int_equal(LMO_C3(n), (int)cpm_triplets(n));
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++)
                for (int k = j + 1; k < n; k++)
                    assert_int_equal(LMO_IJK2INDEX(n, i, j, k), (int)cpm_triplet_index(n, i, j, k));
    }
}

/* A model of one's own, as the manual's 6.8 has it: only predict_p2p. */
struct own_model {
    CPM_predictor predictor;
    double per_byte;
};
static double own_p2p(void *self, int i, int j, int m)
{
    const struct own_model *o = self;
    return 1e-6 * (i + j) + o->per_byte * m;
}

static void test_predictions_by_int(void **state)
{
    (void)state;
    Hockney_model *h = Hockney_alloc(3);
    h->a[0] = 1e-6;
    h->b[0] = 1e-9;
    assert_double_equal(Hockney_predict_p2p(h, 1, 0, 1000), 2e-6, 1e-18);
    assert_double_equal(h->predictor.predict_p2p(h, 0, 1, 1000), 2e-6, 1e-18);
    assert_true(isnan(Hockney_predict_p2p(h, 0, 1, -1)));
    int bytes[3] = {10, -1, 10};
    assert_true(isnan(CPM_predict_flat_sgv(&h->predictor, 3, 0, bytes)));
    assert_true(isnan(CPM_predict_flat_sg(&h->predictor, 4, 0, 10))); /* more than the model's */
    assert_true(isnan(CPM_predict_brsg(&h->predictor, 3, 3, 10, CPM_COLL_BCAST)));
    Hockney_free(h);
    PLogP_model *p = PLogP_alloc(2);
    p->pairs[0].L = 1e-6;
    p->pairs[0].os[0] = 2e-6;
    /* LogGP's predictor takes the model or itself. */
    assert_double_equal(LogGP_predict_p2p(p, 0, 1, 0),
                        p->LogGP_predictor.predict_p2p(&p->LogGP_predictor, 0, 1, 0), 0);
    assert_double_equal(LogGP_predict_p2p(p, 0, 1, 0),
                        cpm_predict_p2p(&p->loggp_predictor, 0, 1, 0), 0);
    PLogP_free(p);
    LMO_model *l = LMO_alloc(3);
    assert_true(isinf(l->b[0]));
    l->inv_beta[1] = 4e-9;
    cpm_lmo_rates(l);
    assert_double_equal(l->b[1], 2.5e8, 1e-3);
    LMO_free(l);
    struct own_model own = {.predictor.predict_p2p = own_p2p, .per_byte = 1e-9};
    assert_double_equal(cpm_predict_p2p(&own.predictor, 1, 2, 1000), 4e-6, 1e-18);
    assert_double_equal(CPM_predict_flat_sg_serial(&own.predictor, 3, 0, 1000),
                        1e-6 + 1e-6 + 2e-6 + 1e-6, 1e-15);
    char data[4] = "abc";
    assert_int_equal(CPM_Bcast_bfs_binomial(&own.predictor, CPM_NEXT_MIN, data, 4, MPI_CHAR, 0,
                                            MPI_COMM_WORLD),
                     MPI_SUCCESS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alloc),
        cmocka_unit_test(test_write_read),
        cmocka_unit_test(test_instances),
        cmocka_unit_test(test_estimates_refused),
        cmocka_unit_test(test_triplet_index),
        cmocka_unit_test(test_predictions_by_int),
    };
    return cmocka_run_group_tests(tests, unit_mpi_up, unit_mpi_down);
}
