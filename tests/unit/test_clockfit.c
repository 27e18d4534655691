/* Unit tests of common/clockfit: the offset of a ping-pong, the line through
 * offsets (exact, noisy, with disturbed points), the mapping, and the skew
 * hook's text and clock. */
#include "unit.h"

#include <string.h>

#include "clockfit.h"

/* Points on the line offset(t) = off0 + drift * (t - t0), one every step
 * seconds from t0, each with round trip rtt. Clocks a day apart (8.64e4 s)
 * and an uptime of 10^6 s, as between two hosts. */
static void line_points(struct clockfit_point *p, size_t n, double t0, double step,
                        double off0, double drift, double rtt)
{
    for (size_t i = 0; i < n; i++) {
        double t = t0 + (double)i * step;
        p[i] = (struct clockfit_point){t, off0 + drift * (t - t0), rtt};
    }
}

static void test_exchange_keeps_the_fastest_midpoint(void **state)
{
    (void)state;
    struct clockfit_point best = {0, 0, HUGE_VAL};
    /* Remote reads 100 at the middle of [10, 12]: offset 89, rtt 2. */
    clockfit_exchange(10, 100, 12, &best);
    assert_double_equal(best.rtt, 2, 1e-12);
    assert_double_equal(best.local, 11, 1e-12);
    assert_double_equal(best.offset, 89, 1e-12);
    /* Slower: ignored. Faster: [20, 21] with remote 110.5 -> offset 90. */
    clockfit_exchange(13, 500, 16, &best);
    assert_double_equal(best.offset, 89, 1e-12);
    clockfit_exchange(20, 110.5, 21, &best);
    assert_double_equal(best.rtt, 1, 1e-12);
    assert_double_equal(best.local, 20.5, 1e-12);
    assert_double_equal(best.offset, 90, 1e-12);
}

static void test_exact_line_far_apart_clocks(void **state)
{
    (void)state;
    struct clockfit_point p[16];
    double t0 = 1e6, off0 = 86400.0000025, drift = -37e-6;
    line_points(p, 16, t0, 5e-3, off0, drift, 2e-6);
    struct clockfit_model m;
    assert_int_equal(clockfit_fit(p, 16, true, &m), 0);
    assert_int_equal(m.used, 16);
    assert_double_equal(m.drift, drift, 1e-10);
    /* Mapped times to the nanosecond, inside the points and 1 s past them. */
    for (double t = t0; t < t0 + 1.1; t += 0.25)
        assert_double_equal(clockfit_map(&m, t), t + off0 + drift * (t - t0), 1e-9);
    assert_true(m.resid_sd < 1e-9);
}

static void test_offset_only_fits_the_mean(void **state)
{
    (void)state;
    struct clockfit_point p[4];
    line_points(p, 4, 50, 1, 3e-6, 1e-6, 1e-6); /* offsets 3, 4, 5, 6 us */
    struct clockfit_model m;
    assert_int_equal(clockfit_fit(p, 4, false, &m), 0);
    assert_double_equal(m.drift, 0, 0);
    assert_double_equal(clockfit_map(&m, 1000), 1000 + 4.5e-6, 1e-12);
    /* Residuals -1.5, -0.5, 0.5, 1.5 us around the mean, 3 degrees of freedom. */
    assert_double_equal(m.resid_sd, sqrt(5e-12 / 3), 1e-15);
}

static void test_disturbed_round_trip_left_out(void **state)
{
    (void)state;
    struct clockfit_point p[12];
    line_points(p, 12, 1e6, 1e-2, -2e-3, 20e-6, 1e-6);
    /* A descheduled exchange: 30 us round trip, 12 us off the line. */
    p[11].rtt = 30e-6;
    p[11].offset += 12e-6;
    struct clockfit_model m;
    clockfit_fit(p, 12, true, &m);
    assert_int_equal(m.used, 11);
    assert_double_equal(m.drift, 20e-6, 1e-10);
    assert_double_equal(clockfit_map(&m, 1e6) - 1e6, -2e-3, 1e-10);
}

static void test_point_off_the_line_left_out(void **state)
{
    (void)state;
    /* Jitter of +-20 ns on every point, and one with a normal round trip
     * but 2 us off: the second fit must not follow it. */
    struct clockfit_point p[20];
    line_points(p, 20, 1e6, 1e-2, 1e-3, -5e-6, 1e-6);
    for (size_t i = 0; i < 20; i++)
        p[i].offset += (i % 2 ? 20e-9 : -20e-9);
    p[19].offset += 2e-6;
    struct clockfit_model m;
    clockfit_fit(p, 20, true, &m);
    assert_int_equal(m.used, 19);
    assert_double_equal(m.drift, -5e-6, 1e-8);
    double t = 1e6 + 0.19;
    assert_double_equal(clockfit_map(&m, t) - t, 1e-3 - 5e-6 * 0.19, 50e-9);
}

static void test_noisy_points_recover_offset_and_drift(void **state)
{
    (void)state;
    /* 32 points over 0.2 s with +-0.3 us of deterministic noise: the line
     * must stay within 1 us for 0.1 s past the last point. */
    struct clockfit_point p[32];
    double drift = 100e-6;
    line_points(p, 32, 1e6, 0.2 / 31, 2.5e-3, drift, 1e-6);
    unsigned x = 12345;
    for (size_t i = 0; i < 32; i++) {
        x = x * 1103515245u + 12345u;
        p[i].offset += ((double)(x >> 16 & 0x7fff) / 0x7fff - 0.5) * 0.6e-6;
    }
    struct clockfit_model m;
    clockfit_fit(p, 32, true, &m);
    for (double t = 1e6; t <= 1e6 + 0.3; t += 0.01)
        assert_double_equal(clockfit_map(&m, t) - t, 2.5e-3 + drift * (t - 1e6), 1e-6);
    /* The offset alone misses by drift * 0.15 s = 15 us at the end. */
    clockfit_fit(p, 32, false, &m);
    double t = 1e6 + 0.3;
    assert_true(fabs(clockfit_map(&m, t) - t - (2.5e-3 + drift * 0.3)) > 10e-6);
}

static void test_degenerate_inputs(void **state)
{
    (void)state;
    struct clockfit_model m;
    assert_int_equal(clockfit_fit(NULL, 0, true, &m), -1);
    struct clockfit_point one = {7, 3e-6, 1e-6};
    assert_int_equal(clockfit_fit(&one, 1, true, &m), 0);
    assert_double_equal(m.drift, 0, 0);
    assert_double_equal(clockfit_map(&m, 9) - 9, 3e-6, 1e-15);
    struct clockfit_model id = CLOCKFIT_IDENTITY;
    assert_double_equal(clockfit_map(&id, 12.5), 12.5, 0);
}

static void test_skew_text(void **state)
{
    (void)state;
    struct clockfit_skew s;
    char err[200];
    assert_int_equal(clockfit_parse_skew("3:2500:-40", &s, err, sizeof err), 0);
    assert_int_equal(s.rank, 3);
    assert_double_equal(s.offset, 2.5e-3, 1e-15);
    assert_double_equal(s.drift, -40e-6, 1e-18);
    assert_int_equal(clockfit_parse_skew("0:-1.5:0", &s, err, sizeof err), 0);
    assert_double_equal(s.offset, -1.5e-6, 1e-18);
    const char *bad[] = {"", "3", "3:1", "3:1:", "-1:0:0", "1.5:0:0", "x:1:1",
                         "1:1:1x", "1:1:200000", "1:nan:0", "1:inf:0", "1::0", "1:2:3:4"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        if (clockfit_parse_skew(bad[i], &s, err, sizeof err) != -1)
            fail_msg("'%s' was accepted", bad[i]);
        assert_true(strlen(err) > 0);
    }
}

static void test_skewed_clock(void **state)
{
    (void)state;
    struct clockfit_skew s = {1, 2e-3, 50e-6};
    assert_double_equal(clockfit_skewed(&s, 100, 100), 100.002, 1e-12);
    assert_double_equal(clockfit_skewed(&s, 110, 100), 110.002 + 500e-6, 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exchange_keeps_the_fastest_midpoint),
        cmocka_unit_test(test_exact_line_far_apart_clocks),
        cmocka_unit_test(test_offset_only_fits_the_mean),
        cmocka_unit_test(test_disturbed_round_trip_left_out),
        cmocka_unit_test(test_point_off_the_line_left_out),
        cmocka_unit_test(test_noisy_points_recover_offset_and_drift),
        cmocka_unit_test(test_degenerate_inputs),
        cmocka_unit_test(test_skew_text),
        cmocka_unit_test(test_skewed_clock),
    };
    return cmocka_run_group_tests_name("clockfit", tests, NULL, NULL);
}
