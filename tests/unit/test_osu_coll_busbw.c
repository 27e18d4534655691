/* Unit tests of the bus bandwidth (osu/coll_busbw): every collective's
 * factor and bytes worked out by hand at 2, 3, 4 and 8 ranks, and the
 * programs' names mapped to their collective. */
#include "unit.h"

#include "../../osu/coll_busbw.h"

/* 1 MB moved in 1 ms is 1000 MB/s of algorithm bandwidth per byte of S/size. */
static void check(enum busbw_kind k, int n, double bytes_per_size, double factor)
{
    double alg, bus;
    assert_true(busbw_of(k, 1000000, n, 1e-3, &alg, &bus));
    assert_double_equal(alg, 1000.0 * bytes_per_size, 1e-9);
    assert_double_equal(bus, 1000.0 * bytes_per_size * factor, 1e-9);
    assert_double_equal(busbw_factor(k, n), factor, 1e-12);
}

static void test_by_hand(void **state)
{
    (void)state;
    /* allreduce: S = size, 2(n-1)/n: 1, 4/3, 3/2, 7/4 */
    check(BUSBW_ALLREDUCE, 2, 1, 1.0);
    check(BUSBW_ALLREDUCE, 3, 1, 4.0 / 3);
    check(BUSBW_ALLREDUCE, 4, 1, 1.5);
    check(BUSBW_ALLREDUCE, 8, 1, 1.75);
    /* allgather: S = n size, (n-1)/n: 2 x 1/2, 3 x 2/3, 4 x 3/4, 8 x 7/8 */
    check(BUSBW_ALLGATHER, 2, 2, 0.5);
    check(BUSBW_ALLGATHER, 3, 3, 2.0 / 3);
    check(BUSBW_ALLGATHER, 4, 4, 0.75);
    check(BUSBW_ALLGATHER, 8, 8, 0.875);
    /* alltoall: as allgather */
    check(BUSBW_ALLTOALL, 2, 2, 0.5);
    check(BUSBW_ALLTOALL, 3, 3, 2.0 / 3);
    check(BUSBW_ALLTOALL, 4, 4, 0.75);
    check(BUSBW_ALLTOALL, 8, 8, 0.875);
    /* reduce-scatter: S = size, (n-1)/n */
    check(BUSBW_REDUCE_SCATTER, 2, 1, 0.5);
    check(BUSBW_REDUCE_SCATTER, 3, 1, 2.0 / 3);
    check(BUSBW_REDUCE_SCATTER, 4, 1, 0.75);
    check(BUSBW_REDUCE_SCATTER, 8, 1, 0.875);
    /* bcast and reduce: S = size, 1 */
    for (int n = 2; n <= 8; n *= 2) {
        check(BUSBW_BCAST, n, 1, 1.0);
        check(BUSBW_REDUCE, n, 1, 1.0);
    }
    check(BUSBW_BCAST, 3, 1, 1.0);
    check(BUSBW_REDUCE, 3, 1, 1.0);
    /* 8 ranks, allreduce of 4 MiB in 2 ms: 2097.152 MB/s, bus 3670.016. */
    double alg, bus;
    assert_true(busbw_of(BUSBW_ALLREDUCE, 4194304, 8, 2e-3, &alg, &bus));
    assert_double_equal(alg, 2097.152, 1e-9);
    assert_double_equal(bus, 3670.016, 1e-9);
}

static void test_undefined(void **state)
{
    (void)state;
    double alg = -1, bus = -1;
    assert_false(busbw_of(BUSBW_NONE, 1000, 4, 1e-3, &alg, &bus));
    assert_false(busbw_of(BUSBW_ALLREDUCE, 1000, 4, 0, &alg, &bus));
    assert_double_equal(alg, -1, 0);
    assert_double_equal(busbw_factor(BUSBW_NONE, 4), 0, 0);
}

static void test_names(void **state)
{
    (void)state;
    assert_int_equal(busbw_kind_of("osu_allreduce"), BUSBW_ALLREDUCE);
    assert_int_equal(busbw_kind_of("osu_iallreduce"), BUSBW_ALLREDUCE);
    assert_int_equal(busbw_kind_of("osu_allreduce_persistent"), BUSBW_ALLREDUCE);
    assert_int_equal(busbw_kind_of("osu_allgatherv"), BUSBW_ALLGATHER);
    assert_int_equal(busbw_kind_of("osu_iallgather"), BUSBW_ALLGATHER);
    assert_int_equal(busbw_kind_of("osu_reduce_scatter"), BUSBW_REDUCE_SCATTER);
    assert_int_equal(busbw_kind_of("osu_ireduce_scatter_block"), BUSBW_REDUCE_SCATTER);
    assert_int_equal(busbw_kind_of("osu_alltoallw_persistent"), BUSBW_ALLTOALL);
    assert_int_equal(busbw_kind_of("osu_ialltoallv"), BUSBW_ALLTOALL);
    assert_int_equal(busbw_kind_of("osu_bcast"), BUSBW_BCAST);
    assert_int_equal(busbw_kind_of("osu_ireduce"), BUSBW_REDUCE);
    assert_int_equal(busbw_kind_of("osu_reduce_persistent"), BUSBW_REDUCE);
    /* The NCCL/RCCL programs, as their MPI counterparts. */
    assert_int_equal(busbw_kind_of("osu_xccl_allreduce"), BUSBW_ALLREDUCE);
    assert_int_equal(busbw_kind_of("osu_xccl_alltoall"), BUSBW_ALLTOALL);
    assert_int_equal(busbw_kind_of("osu_xccl_reduce_scatter"), BUSBW_REDUCE_SCATTER);
    assert_int_equal(busbw_kind_of("osu_xccl_bcast"), BUSBW_BCAST);
    assert_int_equal(busbw_kind_of("osu_xccl_latency"), BUSBW_NONE);
    assert_int_equal(busbw_kind_of("osu_xccl_"), BUSBW_NONE);
    assert_int_equal(busbw_kind_of("osu_barrier"), BUSBW_NONE);
    assert_int_equal(busbw_kind_of("osu_gather"), BUSBW_NONE);
    assert_int_equal(busbw_kind_of("osu_iscatterv"), BUSBW_NONE);
    assert_int_equal(busbw_kind_of("osu_neighbor_allgather"), BUSBW_NONE);
    assert_int_equal(busbw_kind_of("osu_latency"), BUSBW_NONE);
    assert_int_equal(busbw_kind_of("allreduce"), BUSBW_NONE);
    assert_int_equal(busbw_kind_of("osu_"), BUSBW_NONE);
    assert_int_equal(busbw_kind_of("osu__persistent"), BUSBW_NONE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_by_hand),
        cmocka_unit_test(test_undefined),
        cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests_name("osu_coll_busbw", tests, NULL, NULL);
}
