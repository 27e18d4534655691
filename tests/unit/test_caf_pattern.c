/* Unit tests of the point-to-point pattern arithmetic (caf_pattern). */
#include "unit.h"

#include "../../caf/caf_pattern.h"

#define CAP 64

static void test_ndata_nextent(void **state)
{
    (void)state;
    struct caf_shape contiguous = {1, 8, 8}, strided = {4, 1, 16}, gaps = {4, 2, 4};
    assert_int_equal(caf_shape_ndata(&contiguous), 8);
    assert_int_equal(caf_shape_nextent(&contiguous), 8);
    assert_int_equal(caf_shape_ndata(&strided), 4);
    assert_int_equal(caf_shape_nextent(&strided), 1 + 3 * 16);
    assert_int_equal(caf_shape_ndata(&gaps), 8);
    assert_int_equal(caf_shape_nextent(&gaps), 2 + 3 * 4);
}

static void test_selects(void **state)
{
    (void)state;
    struct caf_shape gaps = {3, 2, 4}; /* elements 0 1 . . 4 5 . . 8 9 */
    const int want[12] = {1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0};
    size_t moved = 0;
    for (size_t i = 0; i < 12; i++) {
        assert_int_equal(caf_shape_selects(&gaps, i), want[i]);
        moved += caf_shape_selects(&gaps, i);
    }
    assert_int_equal(moved, caf_shape_ndata(&gaps));
}

static void test_contiguous_sweep(void **state)
{
    (void)state;
    struct caf_shape s[CAP];
    size_t n = caf_shape_sweep(CAF_CONTIGUOUS, 16, 128, s, CAP);
    assert_int_equal(n, 5);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(s[i].count, 1);
        assert_int_equal(s[i].blksize, (size_t)1 << i);
        assert_int_equal(caf_shape_nextent(&s[i]), caf_shape_ndata(&s[i]));
    }
}

static void test_many_sweep(void **state)
{
    (void)state;
    struct caf_shape s[CAP];
    size_t n = caf_shape_sweep(CAF_MANY, 16, 128, s, CAP);
    assert_int_equal(n, 5);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(s[i].count, (size_t)1 << i);
        assert_int_equal(s[i].blksize, s[i].stride);
        assert_int_equal(caf_shape_ndata(&s[i]), 16);
        assert_int_equal(caf_shape_nextent(&s[i]), 16);
    }
}

static void test_strided_sweep(void **state)
{
    (void)state;
    struct caf_shape s[CAP];
    size_t n = caf_shape_sweep(CAF_STRIDED, 1024, 128, s, CAP);
    assert_int_equal(n, 8); /* 128, 64, ..., 1 */
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(s[i].count, 8);
        assert_int_equal(s[i].blksize, 1);
        assert_int_equal(s[i].stride, (size_t)128 >> i);
        assert_true(caf_shape_nextent(&s[i]) <= 1024);
    }
    assert_int_equal(caf_shape_nextent(&s[0]), 1 + 7 * 128);
    /* maxstride above maxndata is capped */
    n = caf_shape_sweep(CAF_STRIDED, 16, 128, s, CAP);
    assert_int_equal(n, 5);
    assert_int_equal(s[0].stride, 16);
    assert_int_equal(s[0].count, 1);
    /* halving of a stride that is not a power of two: 6, 3, 1 */
    n = caf_shape_sweep(CAF_STRIDED, 64, 6, s, CAP);
    assert_int_equal(n, 3);
    assert_int_equal(s[1].stride, 3);
    assert_int_equal(s[2].stride, 1);
    assert_int_equal(s[0].count, 10);
    assert_int_equal(caf_effective_maxstride(16, 128), 16);
}

static void test_strided_many_sweep(void **state)
{
    (void)state;
    struct caf_shape s[CAP];
    size_t n = caf_shape_sweep(CAF_STRIDED_MANY, 16, 128, s, CAP);
    assert_int_equal(n, 4); /* strides 16, 8, 4, 2 */
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(s[i].stride, 2 * s[i].blksize);
        assert_int_equal(caf_shape_ndata(&s[i]), 8);
        assert_int_equal(caf_shape_nextent(&s[i]), 16 - s[i].blksize);
    }
    assert_int_equal(s[n - 1].stride, 2);
    assert_int_equal(s[n - 1].count, 8);
}

static void test_power_of_two(void **state)
{
    (void)state;
    struct caf_shape s[CAP];
    assert_true(caf_is_power_of_two(1));
    assert_true(caf_is_power_of_two(4096));
    assert_false(caf_is_power_of_two(0));
    assert_false(caf_is_power_of_two(12));
    assert_int_equal(caf_shape_sweep(CAF_CONTIGUOUS, 12, 128, s, CAP), 0);
    assert_int_equal(caf_shape_sweep(CAF_MANY, 16, 128, s, 2), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ndata_nextent),     cmocka_unit_test(test_selects),
        cmocka_unit_test(test_contiguous_sweep),  cmocka_unit_test(test_many_sweep),
        cmocka_unit_test(test_strided_sweep),     cmocka_unit_test(test_strided_many_sweep),
        cmocka_unit_test(test_power_of_two),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
