/* Unit tests of the parallel matrix product's logic: rows of A shared in
 * proportion to the speeds (they add up, remainders to the largest
 * fractions, a faster process never gets fewer), and the sets of
 * collectives named on the command line. */
#include "unit.h"

#include <stdlib.h>
#include <string.h>

#include "../../cpm/matmul_part.h"
#include "../../cpm/matmul_sets.h"

static void expect_rows(const double *speed, int p, size_t n, const size_t *want)
{
    size_t rows[8];
    matmul_rows(speed, p, n, rows);
    for (int r = 0; r < p; r++)
        if (rows[r] != want[r])
            fail_msg("n %zu, rank %d: %zu rows, expected %zu", n, r, rows[r], want[r]);
}

static void test_rows(void **state)
{
    (void)state;
    expect_rows((double[]){1, 1, 1}, 3, 10, (size_t[]){4, 3, 3});
    expect_rows((double[]){3, 1}, 2, 10, (size_t[]){8, 2});
    expect_rows((double[]){1, 3}, 2, 10, (size_t[]){2, 8});
    expect_rows((double[]){1, 2, 4}, 3, 7, (size_t[]){1, 2, 4});
    expect_rows((double[]){2, 1, 1}, 3, 0, (size_t[]){0, 0, 0});
    expect_rows((double[]){1, 5}, 2, 1, (size_t[]){0, 1});
    expect_rows((double[]){1e-9, 1}, 2, 100, (size_t[]){0, 100});
    expect_rows((double[]){1.5e4, 1.5e4, 0.5e4, 0.5e4}, 4, 512, (size_t[]){192, 192, 64, 64});
    /* Random speeds: the rows add up, follow the speeds, and stay within
     * one row of the exact share. */
    srand(7);
    for (int t = 0; t < 2000; t++) {
        int p = 1 + rand() % 8;
        size_t n = (size_t)(rand() % 5000), rows[8], sum = 0;
        double speed[8], total = 0;
        for (int r = 0; r < p; r++)
            total += speed[r] = 1e-3 + rand() / (double)RAND_MAX;
        matmul_rows(speed, p, n, rows);
        for (int r = 0; r < p; r++) {
            sum += rows[r];
            assert_true(fabs((double)rows[r] - n * speed[r] / total) < 1.0);
            for (int q = 0; q < p; q++)
                if (speed[q] > speed[r])
                    assert_true(rows[q] >= rows[r]);
        }
        assert_int_equal(sum, n);
    }
}

static void test_sets(void **state)
{
    (void)state;
    struct matmul_set s;
    char err[300], text[300];
    assert_int_equal(matmul_set_parse("native", &s, err, sizeof err), 0);
    assert_string_equal(s.model, "");
    matmul_set_describe(&s, text, sizeof text);
    assert_string_equal(text, "MPI_Scatterv, MPI_Bcast, MPI_Gatherv");
    assert_int_equal(matmul_set_parse("Hockney_dfs_binomial_min", &s, err, sizeof err), 0);
    assert_string_equal(s.model, "Hockney");
    matmul_set_describe(&s, text, sizeof text);
    assert_string_equal(text, "Hockney_Scatterv_dfs_binomial_min, Hockney_Bcast_dfs_binomial_min, "
                              "Hockney_Gatherv_dfs_binomial_min");
    assert_int_equal(matmul_set_parse("LMO_Traff", &s, err, sizeof err), 0);
    assert_null(s.bcast);
    assert_string_equal(s.scatterv->name, "LMO_Scatterv_Traff");
    assert_int_equal(matmul_set_parse("PLogP_sorted_flat_dsc", &s, err, sizeof err), 0);
    assert_string_equal(s.gatherv->name, "PLogP_Gatherv_sorted_flat_dsc");
    const char *bad[] = {"Hockney", "LMO_split_flat",           "Foo_dfs_binomial_min",
                         "",        "Hockney_dfs_binomial_mid", "NATIVE"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        err[0] = '\0';
        assert_int_equal(matmul_set_parse(bad[k], &s, err, sizeof err), -1);
        assert_non_null(strstr(err, "neither native nor MODEL_ALGORITHM"));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows),
        cmocka_unit_test(test_sets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
