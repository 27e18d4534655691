/* Unit tests of the point-to-point figures, pair roles and -t counts
 * (osu/pt2pt_arith, osu_msg_rate, pt2pt_pair_roles, pt2pt_aggregate_values)
 * against values worked out by hand. */
#include "unit.h"

#include "../../osu/pt2pt.h"
#include "../../osu/pt2pt_arith.h"

static void test_latency_is_half_the_round_trip(void **state)
{
    (void)state;
    /* 3 us round trip: 1.5 us one way. */
    assert_double_equal(pt2pt_latency_us(3e-6), 1.5, 1e-12);
    assert_double_equal(pt2pt_latency_us(0.0), 0.0, 0);
    assert_double_equal(pt2pt_latency_us(2.0), 1e6, 1e-6);
}

static void test_bandwidth_counts_decimal_megabytes(void **state)
{
    (void)state;
    /* 64 messages of 1 MiB in 0.01 s: 67108864 bytes / 0.01 s = 6710.8864 MB/s. */
    assert_double_equal(pt2pt_bandwidth_mb((size_t)1 << 20, 64, 0.01), 6710.8864, 1e-9);
    /* Both directions of osu_bibw double the bytes, not the time. */
    assert_double_equal(pt2pt_bandwidth_mb(1000, 2 * 64, 1e-3), 128.0, 1e-9);
    /* 2 GiB messages: the product must not wrap. */
    assert_double_equal(pt2pt_bandwidth_mb((size_t)1 << 31, 64, 1.0), 137438.953472, 1e-6);
    /* No time measured: 0 rather than infinity. */
    assert_double_equal(pt2pt_bandwidth_mb(100, 1, 0.0), 0.0, 0);
    assert_double_equal(pt2pt_bandwidth_mb(0, 64, 1e-3), 0.0, 0);
}

static void test_message_rate(void **state)
{
    (void)state;
    /* 4 pairs x 64 messages in 2 ms: 128000 messages per second. */
    assert_double_equal(osu_msg_rate(4.0 * 64, 2e-3), 128000.0, 1e-6);
    assert_double_equal(osu_msg_rate(10, 0.0), 0.0, 0);
}

static struct pt2pt_ctx roles(int rank, int nranks, size_t npairs)
{
    struct pt2pt_ctx c = {0};
    c.rank = rank;
    c.nranks = nranks;
    pt2pt_pair_roles(&c, npairs);
    return c;
}

static void test_pairs_are_block_placed(void **state)
{
    (void)state;
    /* 8 ranks, 4 pairs: 0-4, 1-5, 2-6, 3-7; the first half initiates. */
    for (int r = 0; r < 8; r++) {
        struct pt2pt_ctx c = roles(r, 8, 4);
        assert_int_equal(c.peer, r < 4 ? r + 4 : r - 4);
        assert_int_equal(c.initiator, r < 4);
        assert_int_equal(c.timed, r < 4);
        assert_true(c.sends_data && c.receives_data);
        assert_int_equal(c.npairs, 4);
    }
    /* Two ranks: one pair, rank 0 first. */
    assert_int_equal(roles(0, 2, 1).peer, 1);
    assert_int_equal(roles(1, 2, 1).peer, 0);
    assert_false(roles(1, 2, 1).initiator);
}

static void test_fewer_pairs_leave_ranks_idle(void **state)
{
    (void)state;
    /* 8 ranks, -p 2: 0-4 and 1-5 communicate, 2, 3, 6, 7 stay out. */
    int expected_peer[8] = {4, 5, -1, -1, 0, 1, -1, -1};
    for (int r = 0; r < 8; r++) {
        struct pt2pt_ctx c = roles(r, 8, 2);
        assert_int_equal(c.peer, expected_peer[r]);
        assert_int_equal(c.initiator, r < 2);
        assert_int_equal(c.sends_data, expected_peer[r] >= 0);
    }
}

static void test_one_way_roles(void **state)
{
    (void)state;
    struct pt2pt_ctx sender = roles(0, 4, 1), receiver = roles(2, 4, 1), idle = roles(1, 4, 1);
    pt2pt_one_way_setup(&sender);
    pt2pt_one_way_setup(&receiver);
    pt2pt_one_way_setup(&idle);
    assert_true(sender.sends_data && !sender.receives_data);
    assert_true(!receiver.sends_data && receiver.receives_data);
    assert_true(!idle.sends_data && !idle.receives_data);
}

static void test_aggregate_counts_every_pair(void **state)
{
    (void)state;
    /* 6 pairs (a fan of 2 ranks per node into 4 nodes) x window 64 of 1000
     * bytes in 1 ms: 384000 bytes per ms = 384 MB/s, 384000 messages/s. */
    struct pt2pt_ctx c = {0};
    c.npairs = 6;
    c.window = 64;
    c.size = 1000;
    double out[2];
    pt2pt_aggregate_values(&c, 1e-3, out);
    assert_double_equal(out[0], 384.0, 1e-9);
    assert_double_equal(out[1], 384000.0, 1e-6);
}

static void test_counts_of_minus_t(void **state)
{
    (void)state;
    size_t send = 7, recv = 7;
    char err[200];
    /* RECV alone keeps the default of the sending side. */
    assert_int_equal(pt2pt_parse_counts("5", "processes", 1, 127, 0, &send, &recv, err,
                                        sizeof err), 0);
    assert_int_equal(send, 0);
    assert_int_equal(recv, 5);
    assert_int_equal(pt2pt_parse_counts("3:4", "threads", 1, 128, 1, &send, &recv, err,
                                        sizeof err), 0);
    assert_int_equal(send, 3);
    assert_int_equal(recv, 4);
    /* Out of range, malformed: refused, the counts untouched. */
    const char *bad[] = {"0", "128", "0:2", "2:", ":2", "a:2", "2:b", "-1", "1:2:3", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        assert_int_equal(pt2pt_parse_counts(bad[i], "processes", 1, 127, 0, &send, &recv, err,
                                            sizeof err), -1);
        assert_true(err[0] != '\0');
        assert_int_equal(send, 3);
        assert_int_equal(recv, 4);
    }
    assert_int_equal(pt2pt_parse_counts("128:128", "threads", 1, 128, 1, &send, &recv, err,
                                        sizeof err), 0);
    assert_int_equal(send, 128);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_latency_is_half_the_round_trip),
        cmocka_unit_test(test_bandwidth_counts_decimal_megabytes),
        cmocka_unit_test(test_message_rate),
        cmocka_unit_test(test_pairs_are_block_placed),
        cmocka_unit_test(test_fewer_pairs_leave_ranks_idle),
        cmocka_unit_test(test_one_way_roles),
        cmocka_unit_test(test_aggregate_counts_every_pair),
        cmocka_unit_test(test_counts_of_minus_t),
    };
    return cmocka_run_group_tests_name("osu_p2p_arith", tests, NULL, NULL);
}
