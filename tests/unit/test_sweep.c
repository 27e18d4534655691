/* Unit tests of common/sweep: halving and doubling sequences, partitions. */
#include "unit.h"
#include <stdint.h>

#include "sweep.h"

static void expect_sequence(const size_t *got, size_t n, const size_t *want, size_t wn)
{
    assert_int_equal(n, wn);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(got[i], want[i]);
}

static void test_halving_remainder_rule(void **state)
{
    (void)state;
    size_t out[64];
    const size_t w8[] = {8, 4, 2, 1}, w6[] = {6, 3, 1}, w7[] = {7, 3, 1}, w1[] = {1};
    const size_t w1536[] = {1536, 768, 384, 192, 96, 48, 24, 12, 6, 3, 1};
    expect_sequence(out, sweep_halving(8, out, 64), w8, 4);
    expect_sequence(out, sweep_halving(6, out, 64), w6, 3);
    expect_sequence(out, sweep_halving(7, out, 64), w7, 3);
    expect_sequence(out, sweep_halving(1, out, 64), w1, 1);
    expect_sequence(out, sweep_halving(1536, out, 64), w1536, 11);
    assert_int_equal(sweep_halving(0, out, 64), 0);
    assert_int_equal(sweep_halving(1024, out, 3), 3); /* capped */
}

static void test_doubling(void **state)
{
    (void)state;
    size_t out[80];
    const size_t from0[] = {0, 1, 2, 4, 8};
    const size_t from3[] = {3, 6, 12};
    expect_sequence(out, sweep_doubling(0, 8, out, 80), from0, 5);
    expect_sequence(out, sweep_doubling(3, 20, out, 80), from3, 3);
    assert_int_equal(sweep_doubling(5, 4, out, 80), 0);
    /* near the top of size_t it stops instead of wrapping */
    size_t top = (size_t)1 << 63;
    assert_int_equal(sweep_doubling(top, SIZE_MAX, out, 80), 1);
    assert_int_equal(sweep_doubling(1, SIZE_MAX, out, 80), 64);
}

static void test_partition_contiguous(void **state)
{
    (void)state;
    struct sweep_part p;
    sweep_partition(5, 8, 4, false, &p);
    assert_int_equal(p.ncomms, 2);
    assert_int_equal(p.color, 1);
    assert_int_equal(p.key, 1);
    assert_int_equal(p.comm_size, 4);
    /* 7 ranks in 3s: {0,1,2} {3,4,5} {6}: the last is smaller */
    sweep_partition(6, 7, 3, false, &p);
    assert_int_equal(p.ncomms, 3);
    assert_int_equal(p.color, 2);
    assert_int_equal(p.comm_size, 1);
    sweep_partition(4, 7, 3, false, &p);
    assert_int_equal(p.comm_size, 3);
}

static void test_partition_strided_pairs_half_world_apart(void **state)
{
    (void)state;
    struct sweep_part a, b;
    for (int r = 0; r < 4; r++) {
        sweep_partition(r, 8, 2, true, &a);
        sweep_partition(r + 4, 8, 2, true, &b);
        assert_int_equal(a.ncomms, 4);
        assert_int_equal(a.color, b.color);
        assert_int_equal(a.key, 0);
        assert_int_equal(b.key, 1);
        assert_int_equal(a.comm_size, 2);
    }
    /* halves: odd and even ranks */
    sweep_partition(3, 8, 4, true, &a);
    sweep_partition(6, 8, 4, true, &b);
    assert_int_equal(a.color, 1);
    assert_int_equal(b.color, 0);
    /* 6 ranks in 3s: {0,2,4} {1,3,5} */
    sweep_partition(4, 6, 3, true, &a);
    assert_int_equal(a.color, 0);
    assert_int_equal(a.key, 2);
    assert_int_equal(a.comm_size, 3);
    /* 7 ranks in 3s strided: colors by rank % 3, sizes 3, 2, 2 */
    sweep_partition(6, 7, 3, true, &a);
    assert_int_equal(a.color, 0);
    assert_int_equal(a.comm_size, 3);
    sweep_partition(5, 7, 3, true, &a);
    assert_int_equal(a.comm_size, 2);
}

static void test_partition_every_rank_placed_once(void **state)
{
    (void)state;
    for (int world = 1; world <= 13; world++) {
        for (int target = 1; target <= world; target++) {
            for (int strided = 0; strided < 2; strided++) {
                int seen[13][13] = {{0}};
                for (int r = 0; r < world; r++) {
                    struct sweep_part p;
                    sweep_partition(r, world, target, strided, &p);
                    assert_true(p.color >= 0 && p.color < p.ncomms);
                    assert_true(p.key >= 0 && p.key < p.comm_size);
                    assert_true(p.comm_size <= target);
                    seen[p.color][p.key]++;
                }
                for (int c = 0; c < 13; c++)
                    for (int k = 0; k < 13; k++)
                        assert_true(seen[c][k] <= 1);
            }
        }
    }
}

/* The seed's program splits with stride = (world - 1) / target + 1 teams,
 * team = rank % stride (strided) or rank / target (contiguous), ranks in
 * world order; the cut here must be the same, with the sizes it says. */
static void test_partition_as_the_seed_splits(void **state)
{
    (void)state;
    enum { MAXW = 40 };
    for (int world = 1; world <= MAXW; world++) {
        for (int target = 1; target <= world; target++) {
            for (int strided = 0; strided < 2; strided++) {
                int stride = (world - 1) / target + 1;
                int members[MAXW] = {0}, last_key[MAXW];
                for (int c = 0; c < MAXW; c++)
                    last_key[c] = -1;
                for (int r = 0; r < world; r++)
                    members[strided ? r % stride : r / target]++;
                for (int r = 0; r < world; r++) {
                    int team = strided ? r % stride : r / target;
                    struct sweep_part p;
                    sweep_partition(r, world, target, strided, &p);
                    assert_int_equal(p.ncomms, stride);
                    assert_int_equal(p.color, team);
                    assert_true(p.key > last_key[team]); /* world order */
                    last_key[team] = p.key;
                    assert_int_equal(p.comm_size, members[team]);
                }
                for (int c = 0; c < stride; c++)
                    assert_int_equal(sweep_comm_size(world, target, strided, c), members[c]);
                assert_int_equal(sweep_comm_size(world, target, strided, stride), 0);
                assert_int_equal(sweep_comm_size(world, target, strided, -1), 0);
            }
        }
    }
    /* 9 ranks strided, target 4: 3 communicators of 3, none of 4 */
    for (int c = 0; c < 3; c++)
        assert_int_equal(sweep_comm_size(9, 4, true, c), 3);
    assert_int_equal(sweep_comm_size(5, 2, false, 2), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_halving_remainder_rule),
        cmocka_unit_test(test_doubling),
        cmocka_unit_test(test_partition_contiguous),
        cmocka_unit_test(test_partition_strided_pairs_half_world_apart),
        cmocka_unit_test(test_partition_every_rank_placed_once),
        cmocka_unit_test(test_partition_as_the_seed_splits),
    };
    return cmocka_run_group_tests_name("sweep", tests, NULL, NULL);
}
