/* Unit tests of common/signif: Welch's statistic and degrees of freedom
 * against values computed by hand, p against a t table, the spread of a
 * median from its percentiles, and the bootstrap's determinism and its
 * distribution in a case small enough to enumerate. */
#include "unit.h"
#include <math.h>
#include <string.h>

#include "signif.h"

static void test_welch_by_hand(void **state)
{
    (void)state;
    struct signif_welch w;
    /* s1^2/n1 = 4/10 = 0.4, s2^2/n2 = 9/15 = 0.6: standard error 1, t = 2;
     * dof = (0.4 + 0.6)^2 / (0.4^2/9 + 0.6^2/14) = 1 / 0.04349206... */
    assert_int_equal(signif_welch(10, 2, 10, 12, 3, 15, &w), 0);
    assert_double_equal(w.t, 2.0, 1e-12);
    assert_double_equal(w.dof, 22.992700729927005, 1e-9);
    /* t tables: t(0.975, 22) = 2.074, t(0.975, 23) = 2.069, so 2 is short of
     * the 5% two-sided bound and p a little above 0.05; t(0.95, 23) = 1.714
     * puts it below 0.10. */
    assert_true(w.p > 0.05 && w.p < 0.06);
    /* B below A: t changes sign, nothing else. */
    struct signif_welch back;
    assert_int_equal(signif_welch(12, 3, 15, 10, 2, 10, &back), 0);
    assert_double_equal(back.t, -2.0, 1e-12);
    assert_double_equal(back.dof, w.dof, 1e-12);
    assert_double_equal(back.p, w.p, 1e-15);
}

/* Equal counts and spreads make dof 2 (n - 1): with n = 11 and s^2 = 11/2
 * the standard error is 1, and a difference of t(0.975, 20) = 2.085963
 * (the table's) is exactly significant at 5%. */
static void test_welch_p_at_the_table_value(void **state)
{
    (void)state;
    struct signif_welch w;
    double s = sqrt(5.5);
    assert_int_equal(signif_welch(100, s, 11, 100 + 2.085963, s, 11, &w), 0);
    assert_double_equal(w.dof, 20.0, 1e-12);
    assert_double_equal(w.t, 2.085963, 1e-9);
    assert_double_equal(w.p, 0.05, 1e-6);
}

static void test_welch_edges(void **state)
{
    (void)state;
    struct signif_welch w;
    assert_int_equal(signif_welch(1, 1, 1, 2, 1, 10, &w), -1);   /* one value */
    assert_int_equal(signif_welch(1, -1, 5, 2, 1, 10, &w), -1);  /* negative spread */
    assert_int_equal(signif_welch(1, NAN, 5, 2, 1, 10, &w), -1);
    assert_int_equal(signif_welch(1, 1, 5, INFINITY, 1, 10, &w), -1);
    /* No spread on either side: equal is the same, different is different. */
    assert_int_equal(signif_welch(3, 0, 5, 3, 0, 5, &w), 0);
    assert_double_equal(w.p, 1.0, 0);
    assert_int_equal(signif_welch(3, 0, 5, 4, 0, 5, &w), 0);
    assert_double_equal(w.p, 0.0, 0);
    assert_true(isinf(w.t) && w.t > 0);
    /* One side without spread: dof is the other's n - 1. */
    assert_int_equal(signif_welch(3, 0, 5, 4, 2, 9, &w), 0);
    assert_double_equal(w.dof, 8.0, 1e-12);
}

static void test_median_spread(void **state)
{
    (void)state;
    /* A normal distribution of sd 1 has P95 - P5 = 2 * 1.6448536: the
     * spread is then sqrt(pi / 2), the median's standard error times sqrt(n). */
    double z = 1.6448536269514722;
    assert_double_equal(signif_median_spread(10 - z, 10 + z), 1.2533141373155001, 1e-9);
    assert_double_equal(signif_median_spread(0, 2 * z * 3), 3 * 1.2533141373155001, 1e-9);
    assert_double_equal(signif_median_spread(4, 4), 0, 0);
    assert_true(isnan(signif_median_spread(5, 4)));
}

static void test_bootstrap_reproduces_from_its_seed(void **state)
{
    (void)state;
    double a[200], b[150];
    for (size_t i = 0; i < 200; i++)
        a[i] = 1.0 + (double)((i * 7919) % 200) / 100.0;
    for (size_t i = 0; i < 150; i++)
        b[i] = 1.1 + (double)((i * 104729) % 150) / 100.0;
    double a_before[200];
    memcpy(a_before, a, sizeof a);
    struct signif_boot one, two, other;
    assert_int_equal(signif_bootstrap_median(a, 200, b, 150, 500, 42, 0.95, &one), 0);
    assert_int_equal(signif_bootstrap_median(a, 200, b, 150, 500, 42, 0.95, &two), 0);
    assert_memory_equal(&one, &two, sizeof one);
    assert_memory_equal(a, a_before, sizeof a); /* the input stays as it was */
    assert_int_equal(signif_bootstrap_median(a, 200, b, 150, 500, 43, 0.95, &other), 0);
    assert_true(other.lo != one.lo || other.hi != one.hi || other.p != one.p);
    assert_double_equal(one.diff, other.diff, 0); /* the data's own difference */
    assert_true(one.lo <= one.diff && one.diff <= one.hi);
}

/* a = {0, 1}: a resample is {0, 0}, {0, 1} or {1, 1} with probability 1/4,
 * 1/2, 1/4, its median 0, 0.5 or 1; b = {0} always gives 0. So the
 * differences are 0, -0.5, -1: all <= 0, a quarter >= 0, p = 2 / 4. */
static void test_bootstrap_distribution_by_hand(void **state)
{
    (void)state;
    const double a[] = {1, 0}, b[] = {0};
    struct signif_boot r;
    assert_int_equal(signif_bootstrap_median(a, 2, b, 1, 4000, 7, 0.95, &r), 0);
    assert_double_equal(r.diff, -0.5, 0);
    assert_double_equal(r.lo, -1, 0);
    assert_double_equal(r.hi, 0, 0);
    assert_true(fabs(r.p - 0.5) < 0.05); /* 4000 draws: sd of the share 0.007 */
    /* One value each: every resample is the data, the difference exact. */
    const double x[] = {5}, y[] = {7};
    assert_int_equal(signif_bootstrap_median(x, 1, y, 1, 10, 1, 0.95, &r), 0);
    assert_double_equal(r.lo, 2, 0);
    assert_double_equal(r.hi, 2, 0);
    assert_double_equal(r.p, 0, 0);
    assert_int_equal(signif_bootstrap_median(x, 0, y, 1, 10, 1, 0.95, &r), -1);
    assert_int_equal(signif_bootstrap_median(x, 1, y, 1, 0, 1, 0.95, &r), -1);
}

/* A shift of 10% over a spread of 5% is found; the same data are not. */
static void test_bootstrap_power_and_calm(void **state)
{
    (void)state;
    double a[400], b[400];
    for (size_t i = 0; i < 400; i++)
        a[i] = 10.0 + 0.5 * sin((double)i * 1.7);
    for (size_t i = 0; i < 400; i++)
        b[i] = 1.1 * a[(i * 13) % 400]; /* the same values in another order, 10% up */
    struct signif_boot r;
    assert_int_equal(signif_bootstrap_median(a, 400, b, 400, 1000, 1, 0.95, &r), 0);
    assert_true(r.p < 0.001 && r.lo > 0);
    assert_int_equal(signif_bootstrap_median(a, 400, a, 400, 1000, 1, 0.95, &r), 0);
    assert_true(r.p > 0.5 && r.lo < 0 && r.hi > 0);
    assert_double_equal(r.diff, 0, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_welch_by_hand),
        cmocka_unit_test(test_welch_p_at_the_table_value),
        cmocka_unit_test(test_welch_edges),
        cmocka_unit_test(test_median_spread),
        cmocka_unit_test(test_bootstrap_reproduces_from_its_seed),
        cmocka_unit_test(test_bootstrap_distribution_by_hand),
        cmocka_unit_test(test_bootstrap_power_and_calm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
