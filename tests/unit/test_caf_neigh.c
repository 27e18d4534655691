/* Unit tests of the ping-pong pairings and neighbour lists (caf_neigh). */
#include "unit.h"

#include "../../caf/caf_neigh.h"

/* Whether b lists a exactly as often as a lists b, for every pair. */
static void assert_symmetric(int size, size_t (*list)(int, int, int, uint64_t, int *), int nneigh,
                             uint64_t seed)
{
    int lists[16][16];
    size_t n[16];
    for (int r = 0; r < size; r++)
        n[r] = list(r, size, nneigh, seed, lists[r]);
    for (int a = 0; a < size; a++) {
        assert_int_equal(n[a], (size_t)nneigh);
        for (int b = 0; b < size; b++) {
            int ab = 0, ba = 0;
            for (size_t k = 0; k < n[a]; k++)
                ab += lists[a][k] == b;
            for (size_t k = 0; k < n[b]; k++)
                ba += lists[b][k] == a;
            assert_int_equal(ab, ba);
            if (a == b)
                assert_int_equal(ab, 0);
            else
                assert_true(ab <= 1); /* distinct neighbours below the cap */
        }
    }
}

static size_t ring_list(int rank, int size, int nneigh, uint64_t seed, int *out)
{
    (void)seed;
    return caf_neigh_ring(rank, size, nneigh, out);
}

static void test_pairings(void **state)
{
    (void)state;
    struct caf_pairing p;
    assert_non_null(caf_pairing_for(CAF_SINGLE, 0, 1, &p));
    assert_null(caf_pairing_for(CAF_SINGLE, 0, 5, &p));
    assert_int_equal(p.role, CAF_FIRST);
    assert_int_equal(p.partner, 4);
    assert_null(caf_pairing_for(CAF_SINGLE, 4, 5, &p));
    assert_int_equal(p.role, CAF_SECOND);
    assert_null(caf_pairing_for(CAF_SINGLE, 2, 5, &p));
    assert_int_equal(p.role, CAF_IDLE);
    assert_non_null(caf_pairing_for(CAF_MULTIPLE, 0, 2, &p));
    assert_non_null(caf_pairing_for(CAF_MULTIPLE, 0, 5, &p));
    assert_non_null(caf_pairing_for(CAF_CROSSING, 0, 3, &p));
    /* multiple at 8: i with i + 4, lower ranks move first */
    for (int r = 0; r < 8; r++) {
        assert_null(caf_pairing_for(CAF_MULTIPLE, r, 8, &p));
        assert_int_equal(p.partner, (r + 4) % 8);
        assert_int_equal(p.role, r < 4 ? CAF_FIRST : CAF_SECOND);
    }
    /* crossing at 8: pairs 1 and 3 start from the upper rank */
    const enum caf_role crossing[8] = {CAF_FIRST, CAF_SECOND, CAF_FIRST, CAF_SECOND,
                                       CAF_SECOND, CAF_FIRST, CAF_SECOND, CAF_FIRST};
    for (int r = 0; r < 8; r++) {
        assert_null(caf_pairing_for(CAF_CROSSING, r, 8, &p));
        assert_int_equal(p.partner, (r + 4) % 8);
        assert_int_equal(p.role, crossing[r]);
    }
}

static void test_pairwise(void **state)
{
    (void)state;
    assert_int_equal(caf_neigh_pairwise(0, 1), -1);
    assert_int_equal(caf_neigh_pairwise(0, 3), -1);
    assert_int_equal(caf_neigh_pairwise(0, 2), 1);
    assert_int_equal(caf_neigh_pairwise(1, 2), 0);
    for (int r = 0; r < 6; r++)
        assert_int_equal(caf_neigh_pairwise(caf_neigh_pairwise(r, 6), 6), r);
    assert_int_equal(caf_neigh_pairwise(2, 6), 5);
}

static void test_cap(void **state)
{
    (void)state;
    assert_int_equal(caf_neigh_cap(12, 1), 0);
    assert_int_equal(caf_neigh_cap(12, 2), 0);
    assert_int_equal(caf_neigh_cap(12, 3), 0); /* min(maxneigh, n - 2), as the original */
    assert_int_equal(caf_neigh_cap(12, 4), 2);
    assert_int_equal(caf_neigh_cap(12, 5), 2);
    assert_int_equal(caf_neigh_cap(12, 6), 4);
    assert_int_equal(caf_neigh_cap(12, 7), 4);
    assert_int_equal(caf_neigh_cap(12, 8), 6);
    assert_int_equal(caf_neigh_cap(12, 100), 12);
    assert_int_equal(caf_neigh_cap(5, 100), 4);
}

static void test_ring(void **state)
{
    (void)state;
    int out[8];
    assert_int_equal(caf_neigh_ring(0, 8, 4, out), 4);
    assert_int_equal(out[0], 7);
    assert_int_equal(out[1], 1);
    assert_int_equal(out[2], 6);
    assert_int_equal(out[3], 2);
    assert_symmetric(8, ring_list, 6, 0);
    assert_symmetric(3, ring_list, 2, 0);
}

static void test_random(void **state)
{
    (void)state;
    int perm[16], seen[16] = {0};
    caf_neigh_permutation(16, 42, perm);
    for (int i = 0; i < 16; i++)
        seen[perm[i]]++;
    for (int i = 0; i < 16; i++)
        assert_int_equal(seen[i], 1);
    int again[16];
    caf_neigh_permutation(16, 42, again);
    assert_memory_equal(perm, again, sizeof perm);
    for (int nn = 2; nn <= 12; nn += 2)
        assert_symmetric(16, caf_neigh_random, nn, 1234 + (uint64_t)nn);
    assert_symmetric(5, caf_neigh_random, 4, 7);
    /* a permutation other than the identity does change the lists */
    int differs = 0, a[2], b[2];
    for (int r = 0; r < 16; r++) {
        caf_neigh_random(r, 16, 2, 42, a);
        caf_neigh_ring(r, 16, 2, b);
        differs += a[0] != b[0] || a[1] != b[1];
    }
    assert_true(differs > 0);
}

static void test_grid(void **state)
{
    (void)state;
    const int dims[3] = {2, 3, 4};
    int c[3], out[6];
    for (int r = 0; r < 24; r++) {
        caf_grid_coords(r, dims, c);
        assert_int_equal(caf_grid_rank(c, dims), r);
    }
    /* rank 0 = (0,0,0): lower/upper along each axis, periodic, last axis fastest */
    caf_neigh_grid(0, dims, out);
    assert_int_equal(out[0], 12); /* (1,0,0) both ways along a dimension of 2 */
    assert_int_equal(out[1], 12);
    assert_int_equal(out[2], 8);  /* (0,2,0) */
    assert_int_equal(out[3], 4);  /* (0,1,0) */
    assert_int_equal(out[4], 3);  /* (0,0,3) */
    assert_int_equal(out[5], 1);  /* (0,0,1) */
    /* upper of lower is oneself, on every axis */
    for (int r = 0; r < 24; r++) {
        caf_neigh_grid(r, dims, out);
        for (int d = 0; d < 3; d++) {
            int back[6];
            caf_neigh_grid(out[2 * d], dims, back);
            assert_int_equal(back[2 * d + 1], r);
        }
    }
    /* 2x2x2: lower and upper are the same image, 3 distinct partners */
    const int cube[3] = {2, 2, 2};
    caf_neigh_grid(0, cube, out);
    assert_int_equal(caf_neigh_distinct(0, out, 6), 3);
    caf_neigh_grid(0, dims, out);
    assert_int_equal(caf_neigh_distinct(0, out, 6), 5);
    assert_int_equal(out[0], 12); /* the repeated 12 kept once, the rest in order */
    assert_int_equal(out[1], 8);
    assert_int_equal(out[4], 1);
    const int one[3] = {1, 1, 1};
    caf_neigh_grid(0, one, out);
    assert_int_equal(caf_neigh_distinct(0, out, 6), 0);
    for (int k = 0; k < 6; k++)
        assert_int_equal(out[k], 0);
}

/* Array axis x (fastest) goes with the fastest-varying grid dimension. */
static void test_halo_axes(void **state)
{
    (void)state;
    int out[6];
    const int two[3] = {2, 1, 1}; /* MPI_Dims_create(2, 3) */
    caf_neigh_halo(0, two, out);
    const int want_two[6] = {0, 0, 0, 0, 1, 1}; /* only the z faces go to the other rank */
    for (int k = 0; k < 6; k++)
        assert_int_equal(out[k], want_two[k]);
    const int eight[3] = {4, 2, 1}; /* rank = 2 c0 + c1 */
    caf_neigh_halo(3, eight, out); /* (1,1,0) */
    const int want_eight[6] = {3, 3, 2, 2, 1, 5}; /* x: self, y: (1,0,0), z: (0,1,0) (2,1,0) */
    for (int k = 0; k < 6; k++)
        assert_int_equal(out[k], want_eight[k]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pairings), cmocka_unit_test(test_pairwise),
        cmocka_unit_test(test_cap),      cmocka_unit_test(test_ring),
        cmocka_unit_test(test_random),   cmocka_unit_test(test_grid),
        cmocka_unit_test(test_halo_axes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
