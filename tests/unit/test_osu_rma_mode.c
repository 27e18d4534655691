/* Unit tests of osu/rma_mode and osu/rma_op: which window/synchronization
 * combinations a one-sided program accepts, and which element types each
 * operation takes (the arithmetic of -c is in test_osu_rma_value.c). */
#include "unit.h"
#include <string.h>

#include "../../osu/rma_mode.h"
#include "../../osu/rma_op.h"

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
    rma_mode_sync_help(&passive, RMA_SYNC_LOCK, -1, text, sizeof text);
    assert_non_null(strstr(text, "lock, lock_all, flush, flush_local"));
    assert_non_null(strstr(text, "default lock)"));
    rma_mode_sync_help(&passive, RMA_SYNC_LOCK, RMA_SYNC_FLUSH, text, sizeof text);
    assert_non_null(strstr(text, "default flush; the seed's lock)"));
    rma_mode_sync_help(&passive, RMA_SYNC_LOCK, RMA_SYNC_LOCK, text, sizeof text);
    assert_non_null(strstr(text, "default lock)"));
}

static void test_operation_table(void **state)
{
    (void)state;
    assert_int_equal(rma_op_put.type, RMA_TYPE_BYTE);
    assert_int_equal(rma_type_elem(rma_op_put.type).size, 1);
    assert_int_equal(rma_op_acc.type, RMA_TYPE_UINT32); /* the seed's passive accumulate */
    assert_true(rma_op_get.reads_target);
    assert_int_equal(rma_op_acc.combine, RMA_SUM);
    assert_true(rma_op_get_acc.fetches);
    assert_true(rma_op_fop.one_element && rma_op_cas.one_element);
    assert_true(rma_op_cas.compares && !rma_op_fop.compares);
}

/* OMB 7.4's -T names in its "all" order; MPI_Compare_and_swap takes no
 * floating-point type, the summing operations take all three. */
static void test_element_types(void **state)
{
    (void)state;
    assert_string_equal(rma_type_choices[RMA_TYPE_CHAR], "mpi_char");
    assert_string_equal(rma_type_choices[RMA_TYPE_INT], "mpi_int");
    assert_string_equal(rma_type_choices[RMA_TYPE_FLOAT], "mpi_float");
    assert_string_equal(rma_type_choices[RMA_OMB_TYPES], "all");
    assert_null(rma_type_choices[RMA_OMB_TYPES + 1]);
    assert_string_equal(rma_type_name(RMA_TYPE_CHAR), "MPI_CHAR");
    assert_string_equal(rma_type_name(RMA_TYPE_INT), "MPI_INT");
    assert_string_equal(rma_type_name(RMA_TYPE_FLOAT), "MPI_FLOAT");
    assert_string_equal(rma_type_name(RMA_TYPE_BYTE), "MPI_CHAR");
    assert_string_equal(rma_type_name(RMA_TYPE_UINT32), "MPI_UINT32_T");
    assert_int_equal(rma_type_elem(RMA_TYPE_CHAR).size, 1);
    assert_int_equal(rma_type_elem(RMA_TYPE_INT).size, sizeof(int));
    assert_int_equal(rma_type_elem(RMA_TYPE_FLOAT).size, 4);
    assert_int_equal(rma_type_elem(RMA_TYPE_FLOAT).kind, RMA_FLOATING);
    assert_int_equal(rma_type_elem(RMA_TYPE_INT).kind, RMA_INTEGER);
    for (int t = 0; t < RMA_OMB_TYPES; t++) {
        assert_true(rma_op_takes(&rma_op_acc, t));
        assert_true(rma_op_takes(&rma_op_get_acc, t));
        assert_true(rma_op_takes(&rma_op_fop, t));
    }
    assert_true(rma_op_takes(&rma_op_cas, RMA_TYPE_CHAR));
    assert_true(rma_op_takes(&rma_op_cas, RMA_TYPE_INT));
    assert_false(rma_op_takes(&rma_op_cas, RMA_TYPE_FLOAT));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_match_enums),
        cmocka_unit_test(test_active_programs_refuse_passive_modes),
        cmocka_unit_test(test_passive_programs_refuse_active_modes),
        cmocka_unit_test(test_device_rules),
        cmocka_unit_test(test_sync_help_names_default),
        cmocka_unit_test(test_operation_table),
        cmocka_unit_test(test_element_types),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
