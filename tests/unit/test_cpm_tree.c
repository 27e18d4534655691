/* Unit tests of the trees of the model-based collectives on hand-made
 * models: 5 processes where the link 0-3 is ten times slower and the other
 * links get slower with the destination's rank (1 + 0.1 j); the DFS, BFS
 * and UCS binomial trees with min and max, the sorted flat orders and the
 * predictions are the ones worked out by hand; Traff's merges on hand-made
 * counts with a model where time is bytes. */
#include "unit.h"

#include <stdlib.h>
#include <string.h>

#include "cpm_coll.h"
#include "cpm_tree.h"

static double slow_link(const struct cpm_predictor *self, int i, int j, size_t m)
{
    (void)self;
    double c = (i == 0 && j == 3) || (i == 3 && j == 0) ? 10.0 : 1.0 + 0.1 * j;
    return c * (1.0 + (double)m);
}
static const struct cpm_predictor slow = {.p2p = slow_link, .n = 5};

static double bytes_link(const struct cpm_predictor *self, int i, int j, size_t m)
{
    (void)self;
    (void)i;
    (void)j;
    return (double)m;
}
static const struct cpm_predictor by_bytes = {.p2p = bytes_link, .n = 5};

static void expect_tree(const struct cpm_tree *t, const int *order, const int *size)
{
    assert_int_equal(t->n, 5);
    for (int k = 0; k < 5; k++) {
        assert_int_equal(t->order[k], order[k]);
        assert_int_equal(t->size[k], size[k]);
    }
}

static const int binomial5[5] = {5, 1, 2, 1, 1};

static void binomial(enum cpm_tree_dir dir, enum cpm_tree_search s, enum cpm_next_node nn,
                     int root, const int *order)
{
    struct cpm_tree t;
    assert_int_equal(cpm_tree_binomial(&slow, 5, root, dir, s, nn, 0, NULL, &t), MPI_SUCCESS);
    expect_tree(&t, order, binomial5);
    cpm_tree_free(&t);
}

/* DFS fills positions 1, 2, 3 (child of 2), 4; BFS 4, 2, 1, 3; the preorder
 * lists position 4, then 2 with 3, then 1 (largest subtree first). */
static void test_dfs(void **state)
{
    (void)state;
    binomial(CPM_TREE_DOWN, CPM_TREE_DFS, CPM_NEXT_MIN, 0, (int[]){0, 4, 2, 3, 1});
    binomial(CPM_TREE_DOWN, CPM_TREE_DFS, CPM_NEXT_MAX, 0, (int[]){0, 1, 4, 2, 3});
}

static void test_bfs(void **state)
{
    (void)state;
    binomial(CPM_TREE_DOWN, CPM_TREE_BFS, CPM_NEXT_MIN, 0, (int[]){0, 1, 2, 3, 4});
    /* max: 4 <- 3 (10), 2 <- 4 (1.4), 1 <- 2 (1.2), 3 <- from 4: 1 (1.1) */
    binomial(CPM_TREE_DOWN, CPM_TREE_BFS, CPM_NEXT_MAX, 0, (int[]){0, 3, 4, 1, 2});
}

/* UCS min: position 4 <- 1 (arrives 1.1), 2 <- 2 (2.3), then positions 1
 * and 3 both start at 2.3: 1 first (lower), gets 4, and 3 gets 3 from 2. */
static void test_ucs(void **state)
{
    (void)state;
    binomial(CPM_TREE_DOWN, CPM_TREE_UCS, CPM_NEXT_MIN, 0, (int[]){0, 1, 2, 3, 4});
    /* max: position 4 <- 3 (10), 2 <- 4 (starts 10, 11.4), 1 <- 2 (11.4),
     * 3 (child of 4's process) <- 1. */
    binomial(CPM_TREE_DOWN, CPM_TREE_UCS, CPM_NEXT_MAX, 0, (int[]){0, 3, 4, 1, 2});
}

/* Up (Reduce/Gather): children are received smallest subtree first. */
static void test_up_and_root(void **state)
{
    (void)state;
    binomial(CPM_TREE_UP, CPM_TREE_DFS, CPM_NEXT_MIN, 0, (int[]){0, 1, 2, 3, 4});
    /* Root 3: every link from 3 costs 1 + 0.1 j except to 0 (10). DFS min
     * fills positions 1 <- 1, 2 <- 2, 3 (from 2) <- 0 (1.0), 4 <- 4. */
    binomial(CPM_TREE_DOWN, CPM_TREE_DFS, CPM_NEXT_MIN, 3, (int[]){3, 4, 2, 0, 1});
}

static void test_predict(void **state)
{
    (void)state;
    struct cpm_tree t;
    assert_int_equal(cpm_tree_binomial(&slow, 5, 0, CPM_TREE_DOWN, CPM_TREE_DFS, CPM_NEXT_MIN, 0,
                                       NULL, &t),
                     MPI_SUCCESS);
    /* 0 sends to 4 (1.4), 2 (2.6), 1 (3.7); 2 sends to 3 at 2.6 + 1.3. */
    assert_double_equal(cpm_tree_predict(&t, &slow, CPM_TREE_DOWN, 0), 3.9, 1e-12);
    cpm_tree_free(&t);
    struct cpm_coll_alg alg = {CPM_ALG_BINOMIAL, CPM_TREE_DFS, CPM_NEXT_MIN, CPM_SORT_ASC};
    assert_double_equal(cpm_coll_predict(&slow, &alg, CPM_OP_BCAST, 5, 0, 0, NULL), 3.9, 1e-12);
    /* Scatter of 1 byte per process on the same shape: edges carry the
     * subtree's bytes: 4 at 1.4*2, 2 at 2.8 + 1.2*3 = 6.4, 1 at 8.6; 3
     * from 2 at 6.4 + 1.3*2 = 9, the last. */
    assert_double_equal(cpm_coll_predict(&slow, &alg, CPM_OP_SCATTER, 5, 0, 1, NULL), 9.0,
                        1e-12);
    /* One process: nothing to do. */
    assert_int_equal(cpm_tree_binomial(&slow, 1, 0, CPM_TREE_DOWN, CPM_TREE_UCS, CPM_NEXT_MIN, 0,
                                       NULL, &t),
                     MPI_SUCCESS);
    assert_int_equal(t.n, 1);
    assert_double_equal(cpm_tree_predict(&t, &slow, CPM_TREE_DOWN, 0), 0.0, 0.0);
    cpm_tree_free(&t);
    assert_int_equal(cpm_tree_binomial(&slow, 6, 0, CPM_TREE_DOWN, CPM_TREE_UCS, CPM_NEXT_MIN, 0,
                                       NULL, &t),
                     MPI_ERR_ARG);
}

static void test_sorted_flat(void **state)
{
    (void)state;
    static const int ones[5] = {5, 1, 1, 1, 1};
    struct cpm_tree t;
    assert_int_equal(cpm_tree_sorted_flat(&slow, 5, 0, CPM_TREE_DOWN, CPM_SORT_ASC, 8, NULL, &t),
                     MPI_SUCCESS);
    expect_tree(&t, (int[]){0, 1, 2, 4, 3}, ones);
    cpm_tree_free(&t);
    assert_int_equal(cpm_tree_sorted_flat(&slow, 5, 0, CPM_TREE_DOWN, CPM_SORT_DESC, 8, NULL, &t),
                     MPI_SUCCESS);
    expect_tree(&t, (int[]){0, 3, 4, 2, 1}, ones);
    /* Serial sends: 10 + 1.4 + 1.2 + 1.1 times 9 bytes + 1. */
    assert_double_equal(cpm_tree_predict(&t, &slow, CPM_TREE_DOWN, 8), 13.7 * 9, 1e-9);
    cpm_tree_free(&t);
}

/* Counts by rank 1, 5, 2, 2, 9, root 1: relative order 1 2 3 4 0. Round 1:
 * 1 keeps 2 (the root's tree), 3-4: 4 keeps (moving 2 bytes beats 9), 0
 * waits; round 2: 1 keeps 4; round 3: 1 keeps 0. */
static void test_traff(void **state)
{
    (void)state;
    static const size_t counts[5] = {1, 5, 2, 2, 9};
    struct cpm_tree t;
    assert_int_equal(cpm_tree_traff(&by_bytes, 5, 1, CPM_TREE_UP, 0, counts, &t), MPI_SUCCESS);
    expect_tree(&t, (int[]){1, 2, 4, 3, 0}, binomial5);
    /* 4 has 3's 2 bytes at 2; 1 gets 2 (2), 4's 11 (13), 0's 1 (14). */
    assert_double_equal(cpm_tree_predict(&t, &by_bytes, CPM_TREE_UP, 0), 14.0, 1e-12);
    for (int k = 0; k < 5; k++)
        assert_int_equal(t.bytes[k], counts[t.order[k]]);
    cpm_tree_free(&t);
    /* Scatter sends the last merged first. */
    assert_int_equal(cpm_tree_traff(&by_bytes, 5, 1, CPM_TREE_DOWN, 0, counts, &t), MPI_SUCCESS);
    expect_tree(&t, (int[]){1, 0, 4, 3, 2}, (int[]){5, 1, 2, 1, 1});
    cpm_tree_free(&t);
}

/* A tree travels as preorder arrays; the copy is the same tree. */
static void test_from_and_dot(void **state)
{
    (void)state;
    struct cpm_tree t;
    size_t bytes[3] = {1, 2, 3};
    assert_int_equal(cpm_tree_from(3, (int[]){2, 0, 1}, (int[]){3, 2, 1}, bytes, &t),
                     MPI_SUCCESS);
    assert_int_equal(cpm_tree_find(&t, 1), 2);
    assert_int_equal(cpm_tree_edge_bytes(&t, 1, 0), 5);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cpm_tree_dot(f, &t, NULL, CPM_TREE_DOWN, 0, "t");
    fclose(f);
    assert_non_null(strstr(text, "\"2\" -> \"0\" [label=\"1: 5 B\"]"));
    assert_non_null(strstr(text, "\"0\" -> \"1\" [label=\"1: 3 B\"]"));
    free(text);
    cpm_tree_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dfs),         cmocka_unit_test(test_bfs),
        cmocka_unit_test(test_ucs),         cmocka_unit_test(test_up_and_root),
        cmocka_unit_test(test_predict),     cmocka_unit_test(test_sorted_flat),
        cmocka_unit_test(test_traff),       cmocka_unit_test(test_from_and_dot),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
