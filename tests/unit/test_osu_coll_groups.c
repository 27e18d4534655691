/* Unit tests of the collectives' concurrent groups and ladder
 * (osu/coll_groups): reading SPEC, the group of each rank by every rule,
 * nodes from their lowest ranks, the ladder's rank counts and the rank
 * ranges of the '#' lines. */
#include "unit.h"

#include <string.h>

#include "../../osu/coll_groups.h"

static void test_parse(void **state)
{
    (void)state;
    struct coll_groups_spec s;
    char err[256] = "";
    assert_int_equal(coll_groups_parse("node", &s, err, sizeof err), 0);
    assert_int_equal(s.kind, COLL_GROUPS_NODE);
    assert_int_equal(coll_groups_parse("cross", &s, err, sizeof err), 0);
    assert_int_equal(s.kind, COLL_GROUPS_CROSS);
    assert_int_equal(coll_groups_parse("4", &s, err, sizeof err), 0);
    assert_int_equal(s.kind, COLL_GROUPS_BLOCK);
    assert_int_equal(s.n, 4);
    assert_int_equal(coll_groups_parse("stride:3", &s, err, sizeof err), 0);
    assert_int_equal(s.kind, COLL_GROUPS_STRIDE);
    assert_int_equal(s.n, 3);
    char name[32];
    coll_groups_name(&s, name, sizeof name);
    assert_string_equal(name, "stride:3");
    const char *bad[] = {"", "0", "-1", "2x", "stride:", "stride:0", "stride:x", "nodes", "Node"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        assert_int_equal(coll_groups_parse(bad[i], &s, err, sizeof err), -1);
        assert_true(err[0] != '\0');
    }
    assert_non_null(strstr((coll_groups_parse("foo", &s, err, sizeof err), err), "node, cross"));
}

static void test_keys(void **state)
{
    (void)state;
    /* 8 ranks on 4 nodes of 2 (blocks): node = r / 2, local = r % 2. */
    struct coll_groups_spec node = {COLL_GROUPS_NODE, 0}, cross = {COLL_GROUPS_CROSS, 0},
                            block = {COLL_GROUPS_BLOCK, 3}, stride = {COLL_GROUPS_STRIDE, 4};
    int want_block[8] = {0, 0, 0, 1, 1, 1, 2, 2}, want_stride[8] = {0, 1, 2, 3, 0, 1, 2, 3};
    for (int r = 0; r < 8; r++) {
        assert_int_equal(coll_groups_key(&node, r, r / 2, r % 2), r / 2);
        assert_int_equal(coll_groups_key(&cross, r, r / 2, r % 2), r % 2);
        assert_int_equal(coll_groups_key(&block, r, r / 2, r % 2), want_block[r]);
        assert_int_equal(coll_groups_key(&stride, r, r / 2, r % 2), want_stride[r]);
    }
}

static void test_nodes(void **state)
{
    (void)state;
    /* Round-robin placement over 3 hosts, unevenly: leaders 0, 1, 2. */
    int leader[7] = {0, 1, 2, 0, 1, 2, 0}, node_of[7], local_of[7];
    coll_groups_nodes(leader, 7, node_of, local_of);
    int want_node[7] = {0, 1, 2, 0, 1, 2, 0}, want_local[7] = {0, 0, 0, 1, 1, 1, 2};
    for (int r = 0; r < 7; r++) {
        assert_int_equal(node_of[r], want_node[r]);
        assert_int_equal(local_of[r], want_local[r]);
    }
}

static void test_ladder_and_ranges(void **state)
{
    (void)state;
    int counts[8];
    assert_int_equal(coll_groups_ladder(8, counts, 8), 3);
    assert_int_equal(counts[0], 2);
    assert_int_equal(counts[2], 8);
    assert_int_equal(coll_groups_ladder(6, counts, 8), 3);
    assert_int_equal(counts[2], 6);
    assert_int_equal(coll_groups_ladder(1, counts, 8), 1);
    assert_int_equal(counts[0], 1);
    assert_int_equal(coll_groups_ladder(2, counts, 8), 1);
    assert_int_equal(counts[0], 2);
    char text[64];
    int run[4] = {0, 1, 2, 3}, spread[4] = {0, 2, 4, 6}, mixed[5] = {0, 1, 4, 5, 7};
    coll_groups_ranks_text(run, 4, text, sizeof text);
    assert_string_equal(text, "0-3");
    coll_groups_ranks_text(spread, 4, text, sizeof text);
    assert_string_equal(text, "0,2,4,6");
    coll_groups_ranks_text(mixed, 5, text, sizeof text);
    assert_string_equal(text, "0-1,4-5,7");
    coll_groups_ranks_text(spread, 1, text, sizeof text);
    assert_string_equal(text, "0");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_keys),
        cmocka_unit_test(test_nodes),
        cmocka_unit_test(test_ladder_and_ranges),
    };
    return cmocka_run_group_tests_name("osu_coll_groups", tests, NULL, NULL);
}
