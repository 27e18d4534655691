/* Unit tests of the fan tests' nodes and partners (osu/fan_nodes): grouping
 * by host name in rank order, blocks, the refusals, and who sends to whom. */
#include "unit.h"

#include <string.h>

#include "../../osu/fan_nodes.h"

#define NAME_LEN 8

/* names[r] of n ranks into the gathered layout fan_nodes_by_name reads. */
static void gather(char *out, const char *const *names, size_t n)
{
    memset(out, 0, n * NAME_LEN);
    for (size_t r = 0; r < n; r++)
        strncpy(out + r * NAME_LEN, names[r], NAME_LEN - 1);
}

static void test_nodes_by_name_in_rank_order(void **state)
{
    (void)state;
    /* Round-robin placement over hosts whose names sort against rank order:
     * node 0 is rank 0's ("zeta"), node 1 rank 1's ("alpha"). */
    const char *names[] = {"zeta", "alpha", "mu", "zeta", "alpha", "mu"};
    char all[6 * NAME_LEN];
    gather(all, names, 6);
    struct fan_nodes f;
    char why[256] = "";
    assert_int_equal(fan_nodes_by_name(&f, all, NAME_LEN, 6, why, sizeof why), 0);
    assert_int_equal(f.nodes, 3);
    assert_int_equal(f.per_node, 2);
    int expected_at[6] = {0, 3, 1, 4, 2, 5};
    for (size_t i = 0; i < 6; i++)
        assert_int_equal(f.rank_at[i], expected_at[i]);
    assert_int_equal(f.node_of[4], 1);
    assert_int_equal(f.local_of[4], 1);
    assert_int_equal(f.local_of[3], 1);

    /* Node 0's local rank 1 (rank 3) pairs with local rank 1 of nodes 1, 2. */
    int peers[2];
    assert_int_equal(fan_nodes_peers(&f, 3, peers), 2);
    assert_int_equal(peers[0], 4);
    assert_int_equal(peers[1], 5);
    assert_int_equal(fan_nodes_peers(&f, 2, peers), 1);
    assert_int_equal(peers[0], 0);
    assert_int_equal(fan_nodes_peers(&f, 5, peers), 1);
    assert_int_equal(peers[0], 3);
    fan_nodes_free(&f);
}

static void test_nodes_refused(void **state)
{
    (void)state;
    struct fan_nodes f;
    char why[256] = "", all[4 * NAME_LEN];
    const char *one[] = {"a", "a", "a", "a"};
    gather(all, one, 4);
    assert_int_equal(fan_nodes_by_name(&f, all, NAME_LEN, 4, why, sizeof why), -1);
    assert_non_null(strstr(why, "one node (host a)"));
    const char *uneven[] = {"a", "a", "b", "a"};
    gather(all, uneven, 4);
    assert_int_equal(fan_nodes_by_name(&f, all, NAME_LEN, 4, why, sizeof why), -1);
    assert_non_null(strstr(why, "host a has 3 ranks, host b 1"));
    assert_int_equal(fan_nodes_by_name(&f, all, NAME_LEN, 1, why, sizeof why), -1);
    assert_non_null(strstr(why, "the only rank"));
    /* Blocks: a count that does not split, one block, none. */
    assert_int_equal(fan_nodes_by_block(&f, 3, 2, why, sizeof why), -1);
    assert_non_null(strstr(why, "3 ranks do not split into nodes of 2"));
    assert_int_equal(fan_nodes_by_block(&f, 4, 4, why, sizeof why), -1);
    assert_non_null(strstr(why, "make one node"));
    assert_int_equal(fan_nodes_by_block(&f, 1, 1, why, sizeof why), -1);
    assert_int_equal(fan_nodes_by_block(&f, 4, 0, why, sizeof why), -1);
}

static void test_nodes_by_block(void **state)
{
    (void)state;
    struct fan_nodes f;
    char why[256];
    /* 8 ranks in nodes of 2: node n holds ranks 2n, 2n + 1. */
    assert_int_equal(fan_nodes_by_block(&f, 8, 2, why, sizeof why), 0);
    assert_int_equal(f.nodes, 4);
    assert_int_equal(f.per_node, 2);
    int peers[3];
    assert_int_equal(fan_nodes_peers(&f, 1, peers), 3);
    assert_int_equal(peers[0], 3);
    assert_int_equal(peers[1], 5);
    assert_int_equal(peers[2], 7);
    assert_int_equal(fan_nodes_peers(&f, 6, peers), 1);
    assert_int_equal(peers[0], 0);
    fan_nodes_free(&f);
    /* Two ranks, one each: the smallest fan. */
    assert_int_equal(fan_nodes_by_block(&f, 2, 1, why, sizeof why), 0);
    assert_int_equal(fan_nodes_peers(&f, 0, peers), 1);
    assert_int_equal(peers[0], 1);
    fan_nodes_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nodes_by_name_in_rank_order),
        cmocka_unit_test(test_nodes_refused),
        cmocka_unit_test(test_nodes_by_block),
    };
    return cmocka_run_group_tests_name("osu_fan_nodes", tests, NULL, NULL);
}
