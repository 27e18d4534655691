/* Unit tests of the data collective reduces (cpm/reduce_data.c): the sum
 * of every rank's bytes counted once is what the check expects; a rank
 * missing, counted twice or three times, or a flipped bit changes the
 * result (where a bitwise OR of patterns did not); and no byte's sum
 * passes 255, so wrapping and saturating libraries agree. */
#include "unit.h"

#include <stdbool.h>

#include "../../cpm/reduce_data.h"

/* Byte i of the sum, without wrapping, when rank x is counted times times
 * (the others once). */
static unsigned sum_with(int n, size_t size, size_t iter, size_t i, int x, int times)
{
    unsigned s = 0;
    for (int r = 0; r < n; r++)
        s += (unsigned)(r == x ? times : 1) * reduce_data_term(r, n, size, iter, i);
    return s;
}

static void test_every_contribution_counted_once(void **state)
{
    (void)state;
    for (int n = 1; n <= 20; n++)
        for (size_t size = 1; size <= 45; size += size < 8 ? 1 : 9)
            for (size_t iter = 1; iter < 4; iter++)
                for (int x = 0; x < n; x++) {
                    /* Checked unless more than 7 ranks share a byte. */
                    bool checked = (size_t)x / size < 7;
                    bool seen[4] = {false, false, false, false};
                    for (size_t i = 0; i < size; i++) {
                        unsigned want = reduce_data_sum(n, size, iter, i);
                        assert_int_equal(sum_with(n, size, iter, i, x, 1), want);
                        for (int times = 0; times < 4; times++) {
                            unsigned got = sum_with(n, size, iter, i, x, times);
                            assert_true(got <= 255);
                            seen[times] |= got != want;
                        }
                    }
                    if (checked && (!seen[0] || !seen[2] || !seen[3]))
                        fail_msg("n %d, %zu bytes: rank %d missing or repeated unseen", n, size,
                                 x);
                }
}

static void test_one_owner_per_byte(void **state)
{
    (void)state;
    /* From n bytes on, a byte's sum is its owner's term alone, never 0. */
    int n = 6;
    for (size_t i = 0; i < 64; i++) {
        unsigned char want = reduce_data_sum(n, 64, 9, i);
        assert_int_equal(want, reduce_data_term((int)(i % 6), n, 64, 9, i));
        assert_true(want >= 1 && want <= 85);
    }
    /* Below n bytes: the ranks of a byte are its bits (7 ranks, 1 byte). */
    assert_int_equal(reduce_data_sum(7, 1, 1, 0), 127);
    assert_int_equal(reduce_data_sum(3, 2, 1, 0), 1 + 2);
    assert_int_equal(reduce_data_sum(3, 2, 1, 1), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_contribution_counted_once),
        cmocka_unit_test(test_one_owner_per_byte),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
