/* Unit tests of the CPM manual's names (cpm_api.h): X_alloc's bounds,
 * X_write/X_read round trips and refusals, X_initialize setting
 * X_model_instance and X_finalize clearing it, a model-based collective
 * through the manual's name (one process). */
#include "unit.h"
#include "unit_mpi.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alloc),
        cmocka_unit_test(test_write_read),
        cmocka_unit_test(test_instances),
    };
    return cmocka_run_group_tests(tests, unit_mpi_up, unit_mpi_down);
}
