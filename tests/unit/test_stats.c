/* Unit tests of common/stats against values computed by hand. */
#include "unit.h"
#include <math.h>

#include "stats.h"

static void test_summary_known_values(void **state)
{
    (void)state;
    const double x[] = {2, 4, 4, 4, 5, 5, 7, 9};
    struct stats_summary s;
    stats_summarize(x, 8, &s);
    assert_int_equal(s.n, 8);
    assert_double_equal(s.min, 2.0, 1e-12);
    assert_double_equal(s.max, 9.0, 1e-12);
    assert_double_equal(s.mean, 5.0, 1e-12);
    /* sum of squared deviations 32, n - 1 = 7 */
    assert_double_equal(s.stddev, sqrt(32.0 / 7.0), 1e-12);
    assert_double_equal(s.median, 4.5, 1e-12);
}

static void test_percentiles_interpolate(void **state)
{
    (void)state;
    double x[] = {10, 1, 7, 3, 5};
    stats_sort(x, 5);
    assert_double_equal(x[0], 1, 0);
    assert_double_equal(x[4], 10, 0);
    assert_double_equal(stats_percentile_sorted(x, 5, 0), 1, 1e-12);
    assert_double_equal(stats_percentile_sorted(x, 5, 50), 5, 1e-12);
    assert_double_equal(stats_percentile_sorted(x, 5, 100), 10, 1e-12);
    /* position 0.25 * 4 = 1: x[1] = 3; 0.9 * 4 = 3.6: 7 + 0.6 * 3 */
    assert_double_equal(stats_percentile_sorted(x, 5, 25), 3, 1e-12);
    assert_double_equal(stats_percentile_sorted(x, 5, 90), 8.8, 1e-12);
}

static void test_median_odd_even_and_untouched_input(void **state)
{
    (void)state;
    const double odd[] = {3, 1, 2};
    const double even[] = {4, 1, 3, 2};
    assert_double_equal(stats_median(odd, 3), 2, 0);
    assert_double_equal(stats_median(even, 4), 2.5, 0);
    assert_double_equal(odd[0], 3, 0);
}

static void test_t_quantiles_match_tables(void **state)
{
    (void)state;
    /* Student t two-sided 95%: 12.706 (1 dof), 2.571 (5), 2.262 (9), 1.984 (100) */
    assert_double_equal(stats_t_quantile(0.975, 1), 12.7062, 1e-3);
    assert_double_equal(stats_t_quantile(0.975, 5), 2.5706, 1e-3);
    assert_double_equal(stats_t_quantile(0.975, 9), 2.2622, 1e-3);
    assert_double_equal(stats_t_quantile(0.975, 100), 1.9840, 1e-3);
    /* half width for sd 2, n 10 at 95%: 2.2622 * 2 / sqrt(10) */
    assert_double_equal(stats_t_halfwidth(2.0, 10, 0.95), 2.2622 * 2 / sqrt(10.0), 1e-3);
    assert_double_equal(stats_t_halfwidth(2.0, 1, 0.95), 0.0, 0);
}

static void test_outliers(void **state)
{
    (void)state;
    double x[20];
    for (int i = 0; i < 19; i++)
        x[i] = 10.0 + (i % 2 ? 0.1 : -0.1);
    x[19] = 100.0;
    assert_int_equal(stats_count_outliers(x, 20, 3.0), 1);
    assert_double_equal(stats_mean_without_outliers(x, 20, 3.0), stats_mean(x, 19), 1e-12);
    assert_int_equal(stats_count_outliers(x, 19, 3.0), 0);
}

static void test_empty_and_single(void **state)
{
    (void)state;
    double one = 4.0;
    assert_double_equal(stats_mean(NULL, 0), 0, 0);
    assert_double_equal(stats_stddev(&one, 1), 0, 0);
    assert_double_equal(stats_median(&one, 1), 4, 0);
}

/* Worked by hand: sorted 2 4 4 4 5 5 7 9 (n 8, mean 5, squared deviations
 * summing to 32). Type-7 positions h = 7 p / 100: P50 at 3.5 -> 4 + 0.5 * 1,
 * P5 at 0.35 -> 2 + 0.35 * 2, P95 at 6.65 -> 7 + 0.65 * 2; CV = sqrt(32 / 7)
 * / 5. */
static void test_dispersion_hand_computed(void **state)
{
    (void)state;
    const double x[] = {2, 4, 4, 4, 5, 5, 7, 9};
    struct stats_dispersion d;
    stats_dispersion_sorted(x, 8, &d);
    assert_double_equal(d.median, 4.5, 1e-12);
    assert_double_equal(d.p5, 2.7, 1e-12);
    assert_double_equal(d.p95, 8.3, 1e-12);
    assert_double_equal(d.cv, 0.42761798705987, 1e-12);
}

/* No spread can be told from one value, nor a relative one around a mean of 0. */
static void test_dispersion_undefined_cv(void **state)
{
    (void)state;
    const double one = 3.5, around_zero[] = {-1, 1};
    struct stats_dispersion d;
    stats_dispersion_sorted(&one, 1, &d);
    assert_double_equal(d.median, 3.5, 0);
    assert_double_equal(d.p5, 3.5, 0);
    assert_double_equal(d.p95, 3.5, 0);
    assert_true(isnan(d.cv));
    stats_dispersion_sorted(around_zero, 2, &d);
    assert_double_equal(d.median, 0, 0);
    assert_double_equal(d.p5, -0.9, 1e-12);
    assert_true(isnan(d.cv));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summary_known_values),
        cmocka_unit_test(test_percentiles_interpolate),
        cmocka_unit_test(test_median_odd_even_and_untouched_input),
        cmocka_unit_test(test_t_quantiles_match_tables),
        cmocka_unit_test(test_outliers),
        cmocka_unit_test(test_empty_and_single),
        cmocka_unit_test(test_dispersion_hand_computed),
        cmocka_unit_test(test_dispersion_undefined_cv),
    };
    return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
