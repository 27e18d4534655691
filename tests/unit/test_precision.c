/* Unit tests of common/precision: the intervals by hand, the counts, and
 * the batches of precision_measure on one process with batches that write
 * chosen times (a fake clock). */
#include "unit.h"
#include "unit_mpi.h"

#include <string.h>

#include "opt.h"
#include "precision.h"

static double times[4096];
static size_t calls, next_first, batch_sizes[64];

/* Writes times of iteration i: constant, or 1 and 3 alternating. */
static void fake_batch(void *arg, size_t first, size_t n)
{
    bool noisy = *(bool *)arg;
    assert_int_equal(first, next_first); /* batches follow each other */
    for (size_t i = first; i < first + n; i++)
        times[i] = noisy ? (i % 2 ? 3.0 : 1.0) : 2.0;
    if (calls < 64)
        batch_sizes[calls] = n;
    calls++;
    next_first = first + n;
}

static void set_options(const char *const *args, int n)
{
    struct opt_spec specs[PRECISION_NOPTIONS];
    precision_options(specs);
    char *argv[8] = {"test"};
    for (int i = 0; i < n; i++)
        argv[i + 1] = (char *)args[i];
    struct opt_result r;
    assert_int_equal(opt_parse(n + 1, argv, specs, PRECISION_NOPTIONS, NULL, &r), OPT_OK);
}

static void reset(void)
{
    calls = next_first = 0;
    memset(times, 0, sizeof times);
}

static void test_mean_interval_by_hand(void **state)
{
    (void)state;
    /* mean 2, sd 1 over 4: t(0.975, 3) = 3.182446, half 1.591223: 79.56% */
    const double x[] = {1, 2, 3, 2};
    double sd1 = sqrt(2.0 / 3.0);
    assert_double_equal(precision_interval_pct(x, 4, PRECISION_MEAN, NULL),
                        100.0 * 3.182446305 * sd1 / 2.0 / 2.0, 1e-4);
    const double same[] = {5, 5, 5};
    assert_double_equal(precision_interval_pct(same, 3, PRECISION_MEAN, NULL), 0, 0);
    assert_true(isinf(precision_interval_pct(x, 1, PRECISION_MEAN, NULL)));
}

static void test_median_interval_by_hand(void **state)
{
    (void)state;
    /* n 100: ranks floor(50 - 9.8) = 40 and ceil(50 + 9.8) = 60 of 1..100,
     * so the half-width is 10 around a median of 50.5: 19.80%. */
    double x[100], scratch[100];
    for (int i = 0; i < 100; i++)
        x[i] = 100 - i;
    assert_double_equal(precision_interval_pct(x, 100, PRECISION_MEDIAN, scratch),
                        100.0 * 10.0 / 50.5, 1e-9);
    assert_double_equal(x[0], 100, 0); /* input untouched */
    /* too few for an interval of the median */
    assert_true(isinf(precision_interval_pct(x, 3, PRECISION_MEDIAN, scratch)));
}

static void test_counts(void **state)
{
    (void)state;
    assert_int_equal(precision_floor(1000, false), 1000); /* off: the counts */
    const char *on[] = {"--precision=2"};
    set_options(on, 1);
    assert_true(precision_on());
    assert_int_equal(precision_floor(10000, false), 1000);
    assert_int_equal(precision_floor(50, false), 10);
    assert_int_equal(precision_floor(5, false), 5);
    assert_int_equal(precision_floor(300, true), 300); /* -i: all of it */
    assert_int_equal(precision_cap(10000, false), 100000);
    assert_int_equal(precision_cap((size_t)1 << 30, false), (size_t)1 << 30);
}

static void test_quiet_stops_at_the_floor(void **state)
{
    (void)state;
    const char *on[] = {"--precision=1"};
    set_options(on, 1);
    reset();
    bool noisy = false;
    struct precision_result r;
    size_t n = precision_measure(100, 1000, times, true, PRECISION_MEAN, MPI_COMM_SELF,
                                 fake_batch, &noisy, &r);
    assert_int_equal(n, 100);
    assert_int_equal(calls, 1);
    assert_true(r.on && r.reached);
    assert_int_equal(r.iterations, 100);
    assert_double_equal(r.ci_pct, 0, 0);
}

static void test_noise_runs_to_the_cap(void **state)
{
    (void)state;
    const char *on[] = {"--precision=0.01", "--max-time=60"};
    set_options(on, 2);
    reset();
    bool noisy = true;
    struct precision_result r;
    size_t n = precision_measure(100, 1000, times, true, PRECISION_MEAN, MPI_COMM_SELF,
                                 fake_batch, &noisy, &r);
    assert_int_equal(n, 1000);
    assert_int_equal(next_first, 1000);
    assert_false(r.reached);
    assert_true(r.ci_pct > 0.01);
    /* a batch at most doubles what was done */
    size_t done = batch_sizes[0];
    for (size_t i = 1; i < calls && i < 64; i++) {
        assert_true(batch_sizes[i] <= done);
        done += batch_sizes[i];
    }
}

static void test_noise_reaches_a_wide_precision(void **state)
{
    (void)state;
    /* 1 and 3: sd/mean about 0.5, so 5% needs about 400 iterations. */
    const char *on[] = {"--precision=5"};
    set_options(on, 1);
    reset();
    bool noisy = true;
    struct precision_result r;
    size_t n = precision_measure(100, 4000, times, true, PRECISION_MEAN, MPI_COMM_SELF,
                                 fake_batch, &noisy, &r);
    assert_true(r.reached);
    assert_true(n > 100 && n < 1000);
    assert_true(r.ci_pct <= 5);
}

static void test_untimed_rank_never_decides(void **state)
{
    (void)state;
    const char *on[] = {"--precision=0.01"};
    set_options(on, 1);
    reset();
    bool noisy = true;
    struct precision_result r;
    /* Its times are no figure: as precise as can be. */
    size_t n = precision_measure(100, 1000, times, false, PRECISION_MEAN, MPI_COMM_SELF,
                                 fake_batch, &noisy, &r);
    assert_int_equal(n, 100);
    assert_true(r.reached);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mean_interval_by_hand),
        cmocka_unit_test(test_median_interval_by_hand),
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_quiet_stops_at_the_floor),
        cmocka_unit_test(test_noise_runs_to_the_cap),
        cmocka_unit_test(test_noise_reaches_a_wide_precision),
        cmocka_unit_test(test_untimed_rank_never_decides),
    };
    return cmocka_run_group_tests(tests, unit_mpi_up, unit_mpi_down);
}
