/* Unit tests of CPM message sets as the models see them: the regular and
 * adaptive sets end with the maximum itself, the doubling set (the
 * manual's rule of collective and prediction) stops at the last size that
 * fits; the count a set yields, and the check that refuses a set too small
 * for a regression. */
#include "unit.h"

#include <string.h>

#include "../../cpm/lib/cpm_measure.h"

/* The sizes a set yields against a straight line; returns the count. */
static size_t sizes_of(const struct cpm_msgset *m, size_t *sizes)
{
    struct cpm_msgset_walk w;
    cpm_msgset_walk_init(&w, m);
    size_t size;
    while (cpm_msgset_walk_next(&w, &size))
        cpm_msgset_walk_record(&w, size, 5.0 + 0.002 * (double)size);
    size_t count = w.count;
    memcpy(sizes, w.sizes, count * sizeof *sizes);
    cpm_msgset_walk_free(&w);
    return count;
}

static void test_regular_set_ends_with_max(void **state)
{
    (void)state;
    size_t sizes[100];
    /* -M 4096 with the default stride 8192: 0 and 4096, not 0 alone. */
    struct cpm_msgset m = CPM_MSGSET_DEFAULT;
    m.max_size = 4096;
    assert_int_equal(sizes_of(&m, sizes), 2);
    assert_int_equal(sizes[0], 0);
    assert_int_equal(sizes[1], 4096);
    assert_int_equal(cpm_msgset_count(&m), 2);
    /* Off the grid: 0 4 8 and then 10. */
    struct cpm_msgset off = {0, 10, 4, 0.1, 1, 100, false};
    assert_int_equal(sizes_of(&off, sizes), 4);
    assert_int_equal(sizes[2], 8);
    assert_int_equal(sizes[3], 10);
    assert_int_equal(cpm_msgset_count(&off), 4);
    /* On the grid: max once. */
    struct cpm_msgset on = {0, 8, 4, 0.1, 1, 100, false};
    assert_int_equal(sizes_of(&on, sizes), 3);
    assert_int_equal(sizes[2], 8);
    assert_int_equal(cpm_msgset_count(&on), 3);
    /* max_num still bounds it. */
    off.max_num = 2;
    assert_int_equal(sizes_of(&off, sizes), 2);
    assert_int_equal(cpm_msgset_count(&off), 2);
    /* A stride larger than the whole range, min above 0. */
    struct cpm_msgset far = {100, 150, 1000, 0.1, 1, 100, false};
    assert_int_equal(sizes_of(&far, sizes), 2);
    assert_int_equal(sizes[1], 150);
    /* A huge stride does not overflow past max. */
    struct cpm_msgset huge = {0, 10, SIZE_MAX, 0.1, 1, 100, false};
    assert_int_equal(sizes_of(&huge, sizes), 2);
    assert_int_equal(sizes[1], 10);
    /* Default set: 0, 8192, ..., 65536. */
    struct cpm_msgset def = CPM_MSGSET_DEFAULT;
    assert_int_equal(sizes_of(&def, sizes), 9);
    assert_int_equal(sizes[8], 65536);
    assert_int_equal(cpm_msgset_count(&def), 9);
}

static void test_count_matches_walk(void **state)
{
    (void)state;
    size_t sizes[100];
    for (size_t min = 0; min < 20; min += 3)
        for (size_t max = min; max < 40; max += 5)
            for (size_t stride = 1; stride < 12; stride += 2)
                for (size_t num = 1; num < 6; num++) {
                    struct cpm_msgset m = {min, max, stride, 0.1, 1, num, false};
                    assert_int_equal(cpm_msgset_count(&m), sizes_of(&m, sizes));
                }
}

static void test_doubling_set(void **state)
{
    (void)state;
    size_t sizes[100];
    /* The manual's example: -m 1024 -M 2049 gives 1024 and 2048. */
    struct cpm_msgset m = {1024, 2049, 8192, 0.1, 1024, 100, true};
    assert_int_equal(sizes_of(&m, sizes), 2);
    assert_int_equal(sizes[0], 1024);
    assert_int_equal(sizes[1], 2048);
    assert_int_equal(cpm_msgset_count(&m), 2);
    /* 0 is followed by 1; the maximum is kept when a doubling lands on it. */
    m.min_size = 0;
    m.max_size = 8;
    assert_int_equal(sizes_of(&m, sizes), 5);
    assert_int_equal(sizes[1], 1);
    assert_int_equal(sizes[4], 8);
    m.max_num = 3;
    assert_int_equal(sizes_of(&m, sizes), 3);
    assert_int_equal(cpm_msgset_count(&m), 3);
    /* Near the top of size_t the doubling ends instead of wrapping. */
    struct cpm_msgset top = {SIZE_MAX / 2 + 1, SIZE_MAX, 0, 0.1, 1, 100, true};
    size_t next;
    assert_false(cpm_msgset_after(&top, top.min_size, &next));
    assert_int_equal(cpm_msgset_count(&top), 1);
    for (size_t min = 0; min < 20; min += 3)
        for (size_t max = min; max < 300; max += 37) {
            struct cpm_msgset d = {min, max, 0, 0, 0, 100, true};
            assert_int_equal(cpm_msgset_count(&d), sizes_of(&d, sizes));
            char err[200];
            assert_int_equal(cpm_msgset_check(&d, 1, err, sizeof err), 0);
        }
    /* A regular set steps by the stride and ends with the maximum. */
    struct cpm_msgset r = {1024, 2049, 1024, 0.1, 1, 100, false};
    assert_true(cpm_msgset_after(&r, 1024, &next) && next == 2048);
    assert_true(cpm_msgset_after(&r, 2048, &next) && next == 2049);
    assert_false(cpm_msgset_after(&r, 2049, &next));
}

static void test_check_needs_two_sizes(void **state)
{
    (void)state;
    char err[200] = "";
    struct cpm_msgset one = {0, 0, 8192, 0.1, 1024, 100, false};
    assert_int_equal(cpm_msgset_check(&one, 1, err, sizeof err), 0);
    assert_int_equal(cpm_msgset_check(&one, 2, err, sizeof err), -1);
    assert_non_null(strstr(err, "gives 1 size; 2 are needed"));
    struct cpm_msgset small = {0, 4096, 8192, 0.1, 1024, 100, false};
    assert_int_equal(cpm_msgset_check(&small, 2, err, sizeof err), 0);
    small.max_num = 1;
    assert_int_equal(cpm_msgset_check(&small, 2, err, sizeof err), -1);
    /* Adaptive: two sizes as soon as min < max and two are allowed. */
    struct cpm_msgset adaptive = {0, 4096, 0, 0.1, 1024, 2, false};
    assert_int_equal(cpm_msgset_check(&adaptive, 2, err, sizeof err), 0);
    adaptive.max_size = 0;
    assert_int_equal(cpm_msgset_check(&adaptive, 2, err, sizeof err), -1);
    /* The field checks still come first. */
    struct cpm_msgset upside = {10, 5, 1, 0.1, 1, 100, false};
    assert_int_equal(cpm_msgset_check(&upside, 1, err, sizeof err), -1);
    assert_non_null(strstr(err, "exceeds maximum"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_regular_set_ends_with_max),
        cmocka_unit_test(test_count_matches_walk),
        cmocka_unit_test(test_doubling_set),
        cmocka_unit_test(test_check_needs_two_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
