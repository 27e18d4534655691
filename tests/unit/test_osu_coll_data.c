/* Unit tests of the collective driver's pure logic: exact-sum value limits,
 * typed loads and stores, the reduce_scatter split, buffer extents, the
 * overlap formula, and the expected receive values of each collective
 * against a data movement simulated here by the collective's definition. */
#include "unit.h"

#include <string.h>

#include "../../osu/coll.h"
#include "../../osu/coll_data.h"

static void test_value_max_keeps_sums_exact(void **state)
{
    (void)state;
    assert_int_equal(coll_value_max(COLL_BYTE, false, 1000), 250);
    assert_int_equal(coll_value_max(COLL_FLOAT, true, 3), 250);
    assert_int_equal(coll_value_max(COLL_CHAR, true, 8), 15);  /* 8 * 15 = 120 <= 127 */
    assert_int_equal(coll_value_max(COLL_CHAR, true, 1), 127);
    assert_int_equal(coll_value_max(COLL_CHAR, true, 200), 0);
    assert_int_equal(coll_value_max(COLL_FLOAT, true, 100000), 167); /* 2^24 / 1e5 */
    assert_int_equal(coll_value_max(COLL_DOUBLE, true, 1 << 20), 250);
    const enum coll_type types[] = {COLL_CHAR, COLL_INT, COLL_FLOAT, COLL_DOUBLE};
    const int ranks[] = {1, 2, 3, 8, 127, 128, 4096, 70000};
    for (size_t t = 0; t < 4; t++)
        for (size_t r = 0; r < sizeof ranks / sizeof ranks[0]; r++) {
            /* the largest possible sum survives a store and a load */
            double sum = (double)coll_value_max(types[t], true, ranks[r]) * ranks[r];
            unsigned char cell[sizeof(double)];
            coll_store(types[t], cell, 0, sum);
            assert_true(coll_load(types[t], cell, 0) == sum);
        }
}

static void test_types(void **state)
{
    (void)state;
    assert_int_equal(coll_type_size(COLL_CHAR), 1);
    assert_int_equal(coll_type_size(COLL_INT), sizeof(int));
    assert_int_equal(coll_type_size(COLL_FLOAT), 4);
    assert_int_equal(coll_type_size(COLL_DOUBLE), 8);
    assert_int_equal(coll_type_size(COLL_BYTE), 1);
    assert_string_equal(coll_type_names[COLL_FLOAT], "float");
    float f[3] = {0};
    coll_store(COLL_FLOAT, f, 2, 276.0);
    assert_true(f[2] == 276.0f && coll_load(COLL_FLOAT, f, 2) == 276.0);
    unsigned char b[2] = {0};
    coll_store(COLL_BYTE, b, 1, 250.0);
    assert_int_equal(b[1], 250);
}

static void test_split(void **state)
{
    (void)state;
    int counts[4], displs[4];
    coll_split(10, 3, counts, displs);
    assert_int_equal(counts[0], 4);
    assert_int_equal(counts[1], 3);
    assert_int_equal(counts[2], 3);
    assert_int_equal(displs[1], 4);
    assert_int_equal(displs[2], 7);
    coll_split(2, 4, counts, displs); /* fewer elements than ranks: one each, then none */
    const int want[] = {1, 1, 0, 0}, wantd[] = {0, 1, 2, 2};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(counts[i], want[i]);
        assert_int_equal(displs[i], wantd[i]);
    }
    coll_split(0, 3, counts, displs);
    assert_int_equal(counts[0] + counts[1] + counts[2], 0);
}

static void test_blocks(void **state)
{
    (void)state;
    assert_int_equal(coll_blocks(COLL_NONE, 8), 0);
    assert_int_equal(coll_blocks(COLL_ONE, 8), 1);
    assert_int_equal(coll_blocks(COLL_PER_RANK, 8), 8);
}

static void test_overlap(void **state)
{
    (void)state;
    assert_true(coll_overlap(10.0, 8.0, 4.0) == 50.0);  /* half the comm. hidden */
    assert_true(coll_overlap(8.0, 4.0, 4.0) == 0.0);    /* nothing hidden */
    assert_true(coll_overlap(12.0, 4.0, 4.0) == 0.0);   /* worse than serial: 0, not -100 */
    assert_true(coll_overlap(4.0, 4.0, 4.0) == 100.0);  /* all hidden */
    assert_true(coll_overlap(3.9, 4.0, 4.0) == 100.0);  /* clock noise stays at 100 */
    assert_true(coll_overlap(5.0, 4.0, 0.0) == 0.0);    /* no communication time */
}

/* A context for nranks ranks of count bytes each, at rank, root 0. */
static struct coll_ctx context(int nranks, int rank, size_t count, enum coll_type type,
                               bool reduction)
{
    struct coll_ctx c;
    memset(&c, 0, sizeof c);
    c.nranks = nranks;
    c.rank = rank;
    c.count = count;
    c.type = type;
    c.value_max = coll_value_max(type, reduction, nranks);
    c.summed = reduction;
    return c;
}

/* MPI_Alltoall by its definition: block j of rank i's send goes to block i
 * of rank j's receive. */
static void test_expect_alltoall_and_allgather(void **state)
{
    (void)state;
    const int n = 3;
    const size_t count = 5, iter = 7;
    for (int me = 0; me < n; me++) {
        struct coll_ctx c = context(n, me, count, COLL_BYTE, false);
        for (int from = 0; from < n; from++)
            for (size_t j = 0; j < count; j++) {
                double want, sent = coll_value(&c, from, iter, (size_t)me * count + j);
                assert_true(coll_expect_alltoall(&c, iter, (size_t)from * count + j, &want));
                assert_true(want == sent);
                /* allgather: rank from's whole send buffer lands in block from */
                assert_true(coll_expect_allgather(&c, iter, (size_t)from * count + j, &want));
                assert_true(want == coll_value(&c, from, iter, j));
                /* gather: only at the root */
                assert_true(coll_expect_gather(&c, iter, j, &want) == (me == 0));
            }
    }
}

static void test_expect_scatter_and_bcast(void **state)
{
    (void)state;
    struct coll_ctx c = context(4, 2, 3, COLL_BYTE, false);
    c.root = 1;
    double want;
    for (size_t j = 0; j < 3; j++) {
        assert_true(coll_expect_scatter(&c, 0, j, &want));
        assert_true(want == coll_value(&c, 1, 0, 2 * 3 + j)); /* block 2 of the root */
        assert_true(coll_expect_bcast(&c, 0, j, &want));
        assert_true(want == coll_value(&c, 1, 0, j));
    }
}

static void test_expect_reductions(void **state)
{
    (void)state;
    int counts[3], displs[3];
    struct coll_ctx c = context(3, 2, 10, COLL_FLOAT, true);
    c.counts = counts;
    c.displs = displs;
    coll_prepare_reduce_scatter(&c); /* 4 3 3: rank 2 holds elements 7..9 */
    for (size_t i = 0; i < 10; i++) {
        double sum = 0, want;
        for (int r = 0; r < 3; r++)
            sum += coll_value(&c, r, 1, i);
        assert_true(coll_expect_allreduce(&c, 1, i, &want) && want == sum);
        assert_false(coll_expect_reduce(&c, 1, i, &want)); /* rank 2 is not the root */
        if (i >= 7) {
            assert_true(coll_expect_reduce_scatter(&c, 1, i - 7, &want));
            assert_true(want == sum);
        }
    }
    double beyond;
    assert_false(coll_expect_reduce_scatter(&c, 1, 3, &beyond)); /* past rank 2's part */
}

/* The closed form of a reduction's sum against the sum of every rank's
 * value, where the ranks wrap around the values (n > value_max + 1) or not,
 * and a reduction's values differ from rank to rank. */
static void test_reduction_sum_closed_form(void **state)
{
    (void)state;
    for (unsigned vmax = 0; vmax < 6; vmax++)
        for (int n = 1; n < 30; n++) {
            struct coll_ctx c = context(n, 0, 16, COLL_INT, true);
            c.value_max = vmax;
            for (size_t i = 0; i < 16; i++) {
                double sum = 0, want;
                for (int r = 0; r < n; r++)
                    sum += coll_value(&c, r, 3, i);
                assert_true(coll_expect_allreduce(&c, 3, i, &want));
                assert_true(want == sum);
            }
        }
    struct coll_ctx c = context(4, 0, 1, COLL_FLOAT, true);
    assert_true(coll_value(&c, 1, 0, 0) != coll_value(&c, 2, 0, 0));
}

/* MPI_Alltoallw places blocks in bytes whatever the type: with -D a block is
 * one type of size bytes, so element displacements would be 0, 1, 2. A
 * block is the size's whole elements: 6 bytes of 4-byte ints are one int,
 * so the blocks lie 4 bytes apart (OMB 7.4's count, size / 4). */
static void test_prepare_alltoallw(void **state)
{
    (void)state;
    int counts[3] = {1, 1, 1}, displs[3] = {0, 1, 2};
    MPI_Datatype types[3] = {MPI_DATATYPE_NULL, MPI_DATATYPE_NULL, MPI_DATATYPE_NULL};
    struct coll_ctx c = context(3, 1, 5, COLL_BYTE, false);
    c.size = 5;
    c.elem_size = 1;
    c.msg = (struct msg_type){MPI_INT, 1, 0};
    c.counts = counts;
    c.displs = displs;
    c.types = types;
    coll_prepare_alltoallw(&c);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(counts[i], 1);
        assert_int_equal(displs[i], 5 * i);
        assert_true(types[i] == MPI_INT);
    }
    c = context(3, 1, 1, COLL_INT, false);
    c.size = 6;
    c.elem_size = 4;
    c.msg = (struct msg_type){MPI_INT, 1, 0};
    c.counts = counts;
    c.displs = displs;
    c.types = types;
    coll_prepare_alltoallw(&c);
    for (int i = 0; i < 3; i++)
        assert_int_equal(displs[i], 4 * i);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_value_max_keeps_sums_exact),
        cmocka_unit_test(test_types),
        cmocka_unit_test(test_split),
        cmocka_unit_test(test_blocks),
        cmocka_unit_test(test_overlap),
        cmocka_unit_test(test_expect_alltoall_and_allgather),
        cmocka_unit_test(test_expect_scatter_and_bcast),
        cmocka_unit_test(test_reduction_sum_closed_form),
        cmocka_unit_test(test_expect_reductions),
        cmocka_unit_test(test_prepare_alltoallw),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
