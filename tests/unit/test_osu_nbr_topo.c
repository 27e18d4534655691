/* Unit tests of the neighbourhoods of -N: the option text, the Cartesian
 * neighbour lists against worked examples and the radius rule, the edge
 * file parser, and the tracing of every received block to the rank and the
 * send block it came from (written out by its definition). */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../osu/nbr_topo.h"

static void test_spec(void **state)
{
    (void)state;
    struct nbr_spec s;
    char err[512];
    assert_int_equal(nbr_spec_parse("cart:1:1", &s, err, sizeof err), 0);
    assert_int_equal(s.kind, NBR_CART);
    assert_int_equal(s.ndims, 1);
    assert_int_equal(s.radius, 1);
    assert_int_equal(nbr_spec_parse("CART:3:2", &s, err, sizeof err), 0);
    assert_int_equal(s.ndims, 3);
    assert_int_equal(s.radius, 2);
    assert_int_equal(nbr_spec_parse("graph:/x:y.txt", &s, err, sizeof err), 0);
    assert_int_equal(s.kind, NBR_GRAPH);
    assert_string_equal(s.path, "/x:y.txt");
    assert_int_equal(nbr_spec_parse("Graph:g", &s, err, sizeof err), 0);
    assert_string_equal(s.path, "g");
    const char *bad[] = {"",         "cart",       "cart:1",     "cart:1:",    "cart::1",
                         "cart:0:1", "cart:1:0",   "cart:-1:1",  "cart:33:1",  "cart:1:1:1",
                         "cart:x:1", "cart:1:1e2", "cartx:1:1",  "graph",      "graph:",
                         "torus:1:1", "cart:1:2147483647"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        if (nbr_spec_parse(bad[i], &s, err, sizeof err) != -1)
            fail_msg("'%s' accepted", bad[i]);
        assert_true(err[0] != '\0');
        assert_null(strchr(err, '\n'));
    }
}

static void test_cart_rule(void **state)
{
    (void)state;
    char err[512];
    struct nbr_spec one = {NBR_CART, 1, 1, NULL}, two = {NBR_CART, 2, 1, NULL};
    struct nbr_spec wide = {NBR_CART, 2, 2, NULL};
    int d2[] = {2}, d3[] = {3}, d42[] = {4, 2}, d33[] = {3, 3}, d55[] = {5, 5}, d54[] = {5, 4};
    assert_int_equal(nbr_cart_check(&one, d2, err, sizeof err), -1);
    assert_non_null(strstr(err, "at 2 ranks"));
    assert_non_null(strstr(err, "at least 3"));
    assert_int_equal(nbr_cart_check(&one, d3, err, sizeof err), 0);
    assert_int_equal(nbr_cart_check(&two, d42, err, sizeof err), -1);
    assert_non_null(strstr(err, "4 x 2"));
    assert_int_equal(nbr_cart_check(&two, d33, err, sizeof err), 0);
    assert_int_equal(nbr_cart_check(&wide, d55, err, sizeof err), 0);
    assert_int_equal(nbr_cart_check(&wide, d54, err, sizeof err), -1);
    assert_int_equal(nbr_cart_degree(&one), 2);
    assert_int_equal(nbr_cart_degree(&two), 8);
    assert_int_equal(nbr_cart_degree(&wide), 24);
    struct nbr_spec three = {NBR_CART, 3, 1, NULL}, far = {NBR_CART, 1, 3, NULL};
    assert_int_equal(nbr_cart_degree(&three), 26);
    assert_int_equal(nbr_cart_degree(&far), 6);
}

static void expect_list(const struct nbr_spec *s, const int *dims, int rank, const int *want,
                        size_t n)
{
    assert_int_equal(nbr_cart_degree(s), n);
    for (size_t j = 0; j < n; j++)
        if (nbr_cart_neighbor(s, dims, rank, j) != want[j])
            fail_msg("rank %d neighbour %zu is %d, want %d", rank, j,
                     nbr_cart_neighbor(s, dims, rank, j), want[j]);
}

/* Worked examples: offsets in lexicographic order (the last dimension
 * fastest), the zero offset left out, periodic, ranks row-major. */
static void test_cart_examples(void **state)
{
    (void)state;
    struct nbr_spec ring = {NBR_CART, 1, 1, NULL}, ring2 = {NBR_CART, 1, 2, NULL};
    struct nbr_spec grid = {NBR_CART, 2, 1, NULL};
    int d4[] = {4}, d5[] = {5}, d33[] = {3, 3};
    expect_list(&ring, d4, 0, (const int[]){3, 1}, 2);
    expect_list(&ring, d4, 3, (const int[]){2, 0}, 2);
    expect_list(&ring2, d5, 1, (const int[]){4, 0, 2, 3}, 4);
    /* rank 4 is (1,1), rank 0 is (0,0) of a 3 x 3 torus */
    expect_list(&grid, d33, 4, (const int[]){0, 1, 2, 3, 5, 6, 7, 8}, 8);
    expect_list(&grid, d33, 0, (const int[]){8, 6, 7, 2, 1, 5, 3, 4}, 8);
    /* 3 x 4: rank 5 is (1,1); rank 11 is (2,3) */
    struct nbr_spec g34 = {NBR_CART, 2, 1, NULL};
    int d34[] = {3, 4};
    expect_list(&g34, d34, 5, (const int[]){0, 1, 2, 4, 6, 8, 9, 10}, 8);
    expect_list(&g34, d34, 11, (const int[]){6, 7, 4, 10, 8, 2, 3, 0}, 8);
}

/* By definition: receive block k of rank comes from sources[k], which
 * sends it as its block from_block[k], so that block's destination must be
 * rank; and among the edges from one source the receive order must be the
 * send order (MPI matches them in the order they are posted). The first
 * problem, or NULL. */
static const char *trace_problem(const struct nbr_lists *all, int nranks)
{
    static char why[160];
    for (int r = 0; r < nranks; r++) {
        const struct nbr_lists *l = &all[r];
        for (size_t k = 0; k < l->indegree; k++) {
            int s = l->sources[k], b = l->from_block[k];
            if (s < 0 || s >= nranks || b < 0 || (size_t)b >= all[s].outdegree) {
                snprintf(why, sizeof why, "rank %d block %zu: no such source %d block %d", r,
                         k, s, b);
                return why;
            }
            if (all[s].destinations[b] != r) {
                snprintf(why, sizeof why, "rank %d block %zu: rank %d's block %d goes to %d", r,
                         k, s, b, all[s].destinations[b]);
                return why;
            }
            for (size_t k2 = 0; k2 < k; k2++)
                if (l->sources[k2] == s && l->from_block[k2] >= b) {
                    snprintf(why, sizeof why, "rank %d: blocks %zu and %zu from %d out of order",
                             r, k2, k, s);
                    return why;
                }
        }
    }
    return NULL;
}

static void check_trace(const struct nbr_lists *all, int nranks)
{
    const char *why = trace_problem(all, nranks);
    if (why)
        fail_msg("%s", why);
}

static void test_cart_trace(void **state)
{
    (void)state;
    struct {
        struct nbr_spec s;
        int dims[3];
    } cases[] = {
        {{NBR_CART, 1, 1, NULL}, {3}},       {{NBR_CART, 1, 3, NULL}, {8}},
        {{NBR_CART, 2, 1, NULL}, {4, 3}},    {{NBR_CART, 2, 2, NULL}, {5, 6}},
        {{NBR_CART, 3, 1, NULL}, {3, 4, 3}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int n = 1;
        for (size_t i = 0; i < cases[c].s.ndims; i++)
            n *= cases[c].dims[i];
        struct nbr_lists *all = calloc((size_t)n, sizeof *all);
        assert_non_null(all);
        for (int r = 0; r < n; r++) {
            assert_int_equal(nbr_cart_lists(&cases[c].s, cases[c].dims, r, &all[r]), 0);
            assert_int_equal(all[r].indegree, nbr_cart_degree(&cases[c].s));
            assert_memory_equal(all[r].sources, all[r].destinations,
                                all[r].indegree * sizeof(int));
            for (size_t k = 0; k < all[r].indegree; k++)
                for (size_t k2 = 0; k2 < k; k2++)
                    assert_int_not_equal(all[r].sources[k], all[r].sources[k2]);
        }
        check_trace(all, n);
        for (int r = 0; r < n; r++)
            nbr_lists_free(&all[r]);
        free(all);
    }
}

static void test_graph_parse(void **state)
{
    (void)state;
    struct nbr_graph g;
    char err[512];
    const char *text = "# a comment\n0, 1\n\n 1 ,2\r\n2,2\n  # indented comment\n2,0";
    assert_int_equal(nbr_graph_parse(text, strlen(text), "g.txt", 3, &g, err, sizeof err), 0);
    assert_int_equal(g.nedges, 4);
    assert_memory_equal(g.from, ((const int[]){0, 1, 2, 2}), 4 * sizeof(int));
    assert_memory_equal(g.to, ((const int[]){1, 2, 2, 0}), 4 * sizeof(int));
    nbr_graph_free(&g);
    struct {
        const char *text, *why;
    } bad[] = {
        {"", "no"},          {"# only\n", "no"},     {"0 1\n", "line 1"},
        {"0,\n", "line 1"},  {"0,1\na,b\n", "line 2"}, {"-1,0\n", "line 1"},
        {"0,1,2\n", "line 1"}, {"0,1\n1,3\n", "line 2: rank 3"}, {"3,0\n", "rank 3"},
        {"0,99999999999\n", "line 1"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        if (nbr_graph_parse(bad[i].text, strlen(bad[i].text), "g.txt", 3, &g, err,
                            sizeof err) != -1)
            fail_msg("'%s' accepted", bad[i].text);
        if (!strstr(err, bad[i].why))
            fail_msg("'%s': message '%s' lacks '%s'", bad[i].text, err, bad[i].why);
        assert_null(g.from);
    }
    const char nul[] = "0,1\n1,0\0junk\n";
    assert_int_equal(nbr_graph_parse(nul, sizeof nul - 1, "g.txt", 3, &g, err, sizeof err), -1);
    assert_non_null(strstr(err, "NUL"));
}

/* A multigraph with self-loops: repeated edges are separate neighbours,
 * matched in file order. */
static void test_graph_lists(void **state)
{
    (void)state;
    struct nbr_graph g;
    char err[512];
    const char *text = "0,1\n1,0\n0,1\n1,1\n1,0\n0,0\n";
    assert_int_equal(nbr_graph_parse(text, strlen(text), "g.txt", 3, &g, err, sizeof err), 0);
    struct nbr_lists all[3];
    for (int r = 0; r < 3; r++)
        assert_int_equal(nbr_graph_lists(&g, 3, r, &all[r]), 0);
    assert_int_equal(all[0].outdegree, 3);
    assert_memory_equal(all[0].destinations, ((const int[]){1, 1, 0}), 3 * sizeof(int));
    assert_int_equal(all[0].indegree, 3);
    assert_memory_equal(all[0].sources, ((const int[]){1, 1, 0}), 3 * sizeof(int));
    assert_memory_equal(all[0].from_block, ((const int[]){0, 2, 2}), 3 * sizeof(int));
    assert_memory_equal(all[1].destinations, ((const int[]){0, 1, 0}), 3 * sizeof(int));
    assert_memory_equal(all[1].sources, ((const int[]){0, 0, 1}), 3 * sizeof(int));
    assert_memory_equal(all[1].from_block, ((const int[]){0, 1, 1}), 3 * sizeof(int));
    /* rank 2 takes part in no edge */
    assert_int_equal(all[2].indegree, 0);
    assert_int_equal(all[2].outdegree, 0);
    check_trace(all, 3);
    struct nbr_degrees d;
    assert_int_equal(nbr_graph_degrees(&g, 3, &d), 0);
    assert_int_equal(d.min_in, 0);
    assert_int_equal(d.max_in, 3);
    assert_int_equal(d.min_out, 0);
    assert_int_equal(d.max_out, 3);
    for (int r = 0; r < 3; r++)
        nbr_lists_free(&all[r]);
    nbr_graph_free(&g);
}

/* A wrong trace is caught: the check above can fail. */
static void test_trace_check_fails(void **state)
{
    (void)state;
    struct nbr_spec s = {NBR_CART, 1, 2, NULL};
    int dims[] = {5};
    struct nbr_lists all[5];
    for (int r = 0; r < 5; r++)
        assert_int_equal(nbr_cart_lists(&s, dims, r, &all[r]), 0);
    assert_null(trace_problem(all, 5));
    int swap = all[2].from_block[1];
    all[2].from_block[1] = all[2].from_block[0];
    assert_non_null(trace_problem(all, 5));
    all[2].from_block[1] = swap;
    all[2].sources[3] = all[2].sources[2];
    assert_non_null(trace_problem(all, 5));
    for (int r = 0; r < 5; r++)
        nbr_lists_free(&all[r]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec),        cmocka_unit_test(test_cart_rule),
        cmocka_unit_test(test_cart_examples), cmocka_unit_test(test_cart_trace),
        cmocka_unit_test(test_graph_parse), cmocka_unit_test(test_graph_lists),
        cmocka_unit_test(test_trace_check_fails),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
