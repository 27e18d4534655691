/* Unit tests of common/a2a: the all-to-all data check finds what it must. */
#include "unit.h"
#include <stdlib.h>

#include "a2a.h"

/* Simulates `calls` all-to-alls among comm_size ranks (world ranks world_of),
 * call k on the pieces at k * stride, and returns what communicator rank
 * `me` receives. */
static void receive_as(struct buf *recv, enum a2a_type t, size_t calls, size_t stride,
                       size_t count, int comm_size, int me, const int *world_of)
{
    for (size_t k = 0; k < calls; k++)
        for (int q = 0; q < comm_size; q++)
            for (size_t j = 0; j < count; j++) {
                long v = a2a_value(world_of[q], k * stride + (size_t)me * count + j);
                size_t at = k * stride + (size_t)q * count + j;
                if (t == A2A_LONG)
                    ((long *)recv->ptr)[at] = v;
                else
                    ((double *)recv->ptr)[at] = (double)v;
            }
}

static void damage(struct buf *recv, enum a2a_type t, size_t at)
{
    if (t == A2A_LONG)
        ((long *)recv->ptr)[at] += 1;
    else
        ((double *)recv->ptr)[at] += 1;
}

static void test_check_accepts_correct_and_finds_wrong(void **state)
{
    (void)state;
    const int world_of[] = {1, 5, 3};
    for (int t = 0; t < 2; t++) {
        struct buf recv = {malloc(4 * 3 * 5 * sizeof(double)), 4 * 3 * 5 * sizeof(double),
                           BUF_HOST, NULL};
        struct a2a_failure f;
        struct a2a_layout l = {4, 15, 5, 3, 2, world_of};
        receive_as(&recv, (enum a2a_type)t, 4, 15, 5, 3, 2, world_of);
        assert_int_equal(a2a_check(&recv, (enum a2a_type)t, &l, &f), 0);
        /* the wrong receiver rank sees other values */
        struct a2a_layout other = l;
        other.comm_rank = 1;
        assert_int_equal(a2a_check(&recv, (enum a2a_type)t, &other, &f), -1);
        /* one damaged element in call 2, from peer 1, element 3 */
        damage(&recv, (enum a2a_type)t, 2 * 15 + 1 * 5 + 3);
        receive_as(&recv, (enum a2a_type)t, 2, 15, 5, 3, 2, world_of); /* calls 0, 1 intact */
        assert_int_equal(a2a_check(&recv, (enum a2a_type)t, &l, &f), -1);
        assert_int_equal(f.call, 2);
        assert_int_equal(f.peer, 1);
        assert_int_equal(f.element, 3);
        assert_double_equal(f.got, f.want + 1, 0);
        free(recv.ptr);
    }
}

/* Calls spaced wider than one communicator's pieces (always/all in a
 * communicator smaller than its target size): the gaps are not checked,
 * the pieces are, at the sender's matching offsets. */
static void test_check_with_gaps_between_calls(void **state)
{
    (void)state;
    const int world_of[] = {6, 7};
    enum { CALLS = 3, STRIDE = 4 * 2, COUNT = 2, SIZE = 2 }; /* target 4, comm of 2 */
    for (int t = 0; t < 2; t++) {
        struct buf recv = {calloc(CALLS * STRIDE, sizeof(double)), CALLS * STRIDE * sizeof(double),
                           BUF_HOST, NULL};
        struct a2a_failure f;
        struct a2a_layout l = {CALLS, STRIDE, COUNT, SIZE, 1, world_of};
        for (size_t i = 0; i < CALLS * STRIDE; i++)
            damage(&recv, (enum a2a_type)t, i); /* every gap holds a wrong value */
        receive_as(&recv, (enum a2a_type)t, CALLS, STRIDE, COUNT, SIZE, 1, world_of);
        assert_int_equal(a2a_check(&recv, (enum a2a_type)t, &l, &f), 0);
        /* packed as if the calls followed each other: the later calls are wrong */
        struct a2a_layout packed = l;
        packed.stride = SIZE * COUNT;
        assert_int_equal(a2a_check(&recv, (enum a2a_type)t, &packed, &f), -1);
        damage(&recv, (enum a2a_type)t, 2 * STRIDE + 1 * COUNT + 1);
        assert_int_equal(a2a_check(&recv, (enum a2a_type)t, &l, &f), -1);
        assert_int_equal(f.call, 2);
        assert_int_equal(f.peer, 1);
        assert_int_equal(f.element, 1);
        free(recv.ptr);
    }
}

static void test_values_distinct_and_exact(void **state)
{
    (void)state;
    assert_true(a2a_value(0, 0) != a2a_value(1, 0));
    assert_true(a2a_value(0, 0) != a2a_value(0, 1));
    for (int s = 0; s < 100; s++) {
        long v = a2a_value(s, (size_t)1 << 40);
        assert_true(v >= 0 && v < 2147483647L);
        assert_true((long)(double)v == v);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_accepts_correct_and_finds_wrong),
        cmocka_unit_test(test_check_with_gaps_between_calls),
        cmocka_unit_test(test_values_distinct_and_exact),
    };
    return cmocka_run_group_tests_name("a2a", tests, NULL, NULL);
}
