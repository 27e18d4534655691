/* Unit tests of osu/rma_mode and osu/rma_value: which window/synchronization
 * combinations a one-sided program accepts, and the values a validated run
 * expects (accumulate sums, compare-and-swap operands). */
#include "unit.h"
#include <string.h>

#include "../../osu/rma_mode.h"
#include "../../osu/rma_op.h"
#include "../../osu/rma_value.h"

static const struct rma_rules active = {RMA_SYNCS_ACTIVE, true};
static const struct rma_rules passive = {RMA_SYNCS_PASSIVE, true};
static const struct rma_rules atomics = {RMA_SYNCS_ALL, false};

static int check(const struct rma_rules *r, enum rma_sync s, enum rma_win_kind w, bool dev,
                 char *err)
{
    return rma_mode_check(r, s, w, dev, err, 256);
}

static void test_names_match_enums(void **state)
{
    (void)state;
    assert_string_equal(rma_sync_names[RMA_SYNC_PSCW], "pscw");
    assert_string_equal(rma_sync_names[RMA_SYNC_FLUSH_LOCAL], "flush_local");
    assert_null(rma_sync_names[RMA_SYNC_COUNT]);
    assert_string_equal(rma_win_names[RMA_WIN_DYNAMIC], "dynamic");
    assert_null(rma_win_names[RMA_WIN_COUNT]);
    assert_true(rma_sync_is_active(RMA_SYNC_FENCE));
    assert_false(rma_sync_is_active(RMA_SYNC_LOCK_ALL));
}

static void test_active_programs_refuse_passive_modes(void **state)
{
    (void)state;
    char err[256];
    for (int w = 0; w < RMA_WIN_COUNT; w++) {
        assert_int_equal(check(&active, RMA_SYNC_PSCW, w, false, err), 0);
        assert_int_equal(check(&active, RMA_SYNC_FENCE, w, false, err), 0);
    }
    for (int s = RMA_SYNC_LOCK; s < RMA_SYNC_COUNT; s++) {
        assert_int_equal(check(&active, s, RMA_WIN_CREATE, false, err), -1);
        assert_non_null(strstr(err, rma_sync_names[s]));
        assert_non_null(strstr(err, "pscw, fence"));
    }
}

static void test_passive_programs_refuse_active_modes(void **state)
{
    (void)state;
    char err[256];
    assert_int_equal(check(&passive, RMA_SYNC_PSCW, RMA_WIN_CREATE, false, err), -1);
    assert_non_null(strstr(err, "lock, lock_all, flush, flush_local"));
    assert_int_equal(check(&passive, RMA_SYNC_FENCE, RMA_WIN_DYNAMIC, false, err), -1);
    for (int s = RMA_SYNC_LOCK; s < RMA_SYNC_COUNT; s++)
        assert_int_equal(check(&passive, s, RMA_WIN_ALLOCATE, false, err), 0);
}

static void test_device_rules(void **state)
{
    (void)state;
    char err[256];
    assert_int_equal(check(&active, RMA_SYNC_PSCW, RMA_WIN_CREATE, true, err), 0);
    assert_int_equal(check(&active, RMA_SYNC_PSCW, RMA_WIN_DYNAMIC, true, err), 0);
    assert_int_equal(check(&active, RMA_SYNC_PSCW, RMA_WIN_ALLOCATE, true, err), -1);
    assert_non_null(strstr(err, "allocate"));
    assert_int_equal(check(&atomics, RMA_SYNC_FLUSH, RMA_WIN_CREATE, true, err), -1);
    assert_int_equal(check(&atomics, RMA_SYNC_FLUSH, RMA_WIN_CREATE, false, err), 0);
}

static void test_sync_help_names_default(void **state)
{
    (void)state;
    char text[160];
    rma_mode_sync_help(&passive, RMA_SYNC_LOCK, text, sizeof text);
    assert_non_null(strstr(text, "lock, lock_all, flush, flush_local"));
    assert_non_null(strstr(text, "default lock"));
}

/* Running sums of one element over several epochs, wrapping as uint32. */
static void test_accumulate_sums(void **state)
{
    (void)state;
    uint64_t window = 0, manual = 0;
    for (size_t it = 0; it < 1000; it++) {
        uint64_t add = rma_op_acc.value(1, it, 7);
        assert_true(add < 251);
        window = rma_combine_value(RMA_SUM, window, add, 4);
        manual += add;
    }
    assert_int_equal(window, manual); /* far from wrapping: exact */
    assert_int_equal(rma_combine_value(RMA_SUM, 0xffffffffu, 2, 4), 1);
    assert_int_equal(rma_combine_value(RMA_SUM, UINT64_MAX, 1, 8), 0);
    assert_int_equal(rma_combine_value(RMA_REPLACE, 55, 9, 1), 9);
    assert_int_equal(rma_combine_value(RMA_REPLACE, 0, 0x1ff, 1), 0xff);
}

static void test_fetch_and_op_addend_nonzero(void **state)
{
    (void)state;
    for (size_t it = 0; it < 500; it++)
        assert_true(rma_op_fop.value(0, it, 0) >= 1);
}

/* Every swap must change the window: distinct per (rank, iteration), never 0. */
static void test_swap_values_distinct(void **state)
{
    (void)state;
    for (size_t it = 0; it < 100; it++) {
        uint64_t a = rma_op_cas.value(0, it, 0), b = rma_op_cas.value(1, it, 0);
        assert_true(a != 0 && b != 0 && a != b);
        assert_true(a != rma_op_cas.value(0, it + 1, 0));
    }
}

static void test_element_load_store(void **state)
{
    (void)state;
    unsigned char mem[32];
    memset(mem, 0, sizeof mem);
    rma_elem_store(mem, 1, 4, 0x12345678u);
    assert_int_equal(rma_elem_load(mem, 1, 4), 0x12345678u);
    assert_int_equal(rma_elem_load(mem, 0, 4), 0);
    rma_elem_store(mem, 2, 8, 0x0102030405060708ull);
    assert_int_equal(rma_elem_load(mem, 2, 8), 0x0102030405060708ull);
    rma_elem_store(mem, 3, 1, 0x1ab);
    assert_int_equal(rma_elem_load(mem, 3, 1), 0xab);
}

static void test_operation_table(void **state)
{
    (void)state;
    assert_int_equal(rma_op_put.elem, 1);
    assert_true(rma_op_get.reads_target);
    assert_int_equal(rma_op_acc.combine, RMA_SUM);
    assert_true(rma_op_get_acc.fetches);
    assert_true(rma_op_fop.one_element && rma_op_cas.one_element);
    assert_true(rma_op_cas.compares && !rma_op_fop.compares);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_match_enums),
        cmocka_unit_test(test_active_programs_refuse_passive_modes),
        cmocka_unit_test(test_passive_programs_refuse_active_modes),
        cmocka_unit_test(test_device_rules),
        cmocka_unit_test(test_sync_help_names_default),
        cmocka_unit_test(test_accumulate_sums),
        cmocka_unit_test(test_fetch_and_op_addend_nonzero),
        cmocka_unit_test(test_swap_values_distinct),
        cmocka_unit_test(test_element_load_store),
        cmocka_unit_test(test_operation_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
