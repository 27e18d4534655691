/* Unit tests of osu/rma_value: the values a validated one-sided run moves and
 * the target contents it expects, for integer elements of every size (sums
 * on the bits modulo 2^bits, none overflowing) and for floats (the same
 * additions in the same order). */
#include "unit.h"
#include <string.h>

#include "../../osu/rma_value.h"

static const struct rma_elem int1 = {1, RMA_INTEGER}, int4 = {4, RMA_INTEGER},
                             int8 = {8, RMA_INTEGER}, flt = {4, RMA_FLOATING},
                             dbl = {8, RMA_FLOATING};

static float as_float(uint64_t bits)
{
    return (float)rma_float_value(4, bits);
}

static void test_integer_wrap(void **state)
{
    (void)state;
    assert_int_equal(rma_combine_value(RMA_SUM, int4, 0xffffffffu, 2), 1);
    assert_int_equal(rma_combine_value(RMA_SUM, int1, 0xff, 2), 1);
    assert_int_equal(rma_combine_value(RMA_SUM, int8, UINT64_MAX, 1), 0);
    assert_int_equal(rma_combine_value(RMA_REPLACE, int1, 55, 9), 9);
    assert_int_equal(rma_combine_value(RMA_REPLACE, int1, 0, 0x1ff), 0xff);
    assert_int_equal(rma_elem_mask(1), 0xff);
    assert_int_equal(rma_elem_mask(2), 0xffff);
    assert_int_equal(rma_elem_mask(8), UINT64_MAX);
}

/* The two's complement value of size-byte bits (small magnitudes only). */
static int64_t as_signed(uint64_t bits, size_t size)
{
    uint64_t sign = (uint64_t)1 << (8 * size - 1);
    return bits & sign ? -(int64_t)((~bits & rma_elem_mask(size)) + 1) : (int64_t)bits;
}

/* Integer running sums never overflow, whatever the element size: every
 * addend is a nonzero step of at most 126, every sum stays within +-63, so a
 * target that saturates (Open MPI 4.1's AVX 8-bit sums) or wraps agrees with
 * the expected bits. */
static void test_integer_running_sums(void **state)
{
    (void)state;
    const struct rma_elem ints[] = {int1, {2, RMA_INTEGER}, int4, int8};
    for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++) {
        struct rma_elem e = ints[k];
        uint64_t window = 0;
        int64_t exact = 0;
        int saturating = 0; /* a signed char target that saturates */
        for (size_t it = 0; it < 3000; it++) {
            uint64_t add = rma_value_addend(e, 1, it, 7);
            int64_t step = as_signed(add, e.size);
            assert_true(step != 0 && step >= -126 && step <= 126);
            window = rma_combine_value(RMA_SUM, e, window, add);
            exact += step;
            assert_true(exact >= -63 && exact <= 63);
            assert_int_equal(window, (uint64_t)exact & rma_elem_mask(e.size));
            saturating += (int)step;
            saturating = saturating > 127 ? 127 : saturating < -128 ? -128 : saturating;
            assert_int_equal(saturating, exact);
        }
    }
}

/* Float sums: the expected window is the same single-precision additions in
 * the order the accumulates arrive, so it equals a float accumulator bit for
 * bit, while the exact (double) sum differs: the rounding is real. */
static void test_float_running_sums(void **state)
{
    (void)state;
    uint64_t window = 0;
    float acc = 0.0f;
    double exact = 0.0;
    for (size_t it = 0; it < 2000; it++) {
        uint64_t add = rma_value_addend(flt, 0, it, 3);
        float v = as_float(add);
        assert_true(v > 0.0f && v < 25.2f);
        window = rma_combine_value(RMA_SUM, flt, window, add);
        acc += v;
        exact += (double)v;
    }
    float got = as_float(window);
    assert_memory_equal(&got, &acc, sizeof acc);
    assert_true((double)got != exact);
    assert_true(window <= UINT32_MAX);
    /* Doubles likewise. */
    uint64_t wd = 0;
    double accd = 0.0;
    for (size_t it = 0; it < 100; it++) {
        uint64_t add = rma_value_addend(dbl, 1, it, 0);
        wd = rma_combine_value(RMA_SUM, dbl, wd, add);
        accd += rma_float_value(8, add);
    }
    assert_true(rma_float_value(8, wd) == accd);
}

static void test_float_bits_round_trip(void **state)
{
    (void)state;
    assert_int_equal(rma_float_bits(4, 1.0), 0x3f800000u);
    assert_int_equal(rma_float_bits(4, -2.0), 0xc0000000u);
    assert_int_equal(rma_float_bits(8, 1.0), 0x3ff0000000000000ull);
    assert_true(rma_float_value(4, 0x3f800000u) == 1.0);
    assert_true(rma_float_value(8, rma_float_bits(8, 0.1)) == 0.1);
    assert_int_equal(rma_float_bits(4, 0.0), 0);
}

static void test_addends_never_zero(void **state)
{
    (void)state;
    for (size_t it = 0; it < 600; it++) {
        assert_true(rma_value_addend(int1, 0, it, 0) >= 1);
        assert_true(rma_value_addend(int1, 0, it, 0) <= 0xff);
        assert_true(rma_value_addend(int8, 1, it, 0) >= 1);
        assert_true(rma_value_pattern(int1, 0, it, 0) < 251);
        assert_true(as_float(rma_value_addend(flt, 0, it, 0)) > 0.0f);
    }
}

/* Every swap must change the window, whatever the element size: never 0
 * (the initial window), never the rank's previous value, never the other
 * rank's value of the same iteration; 600 iterations wrap a 1-byte range. */
static void test_swap_values_distinct(void **state)
{
    (void)state;
    const struct rma_elem sizes[] = {int1, {2, RMA_INTEGER}, int4, int8, flt};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        struct rma_elem e = sizes[k];
        for (size_t it = 0; it < 600; it++) {
            uint64_t a = rma_value_swap(e, 0, it, 0), b = rma_value_swap(e, 1, it, 0);
            assert_true(a != 0 && b != 0 && a != b);
            assert_true(a == (a & rma_elem_mask(e.size)));
            assert_true(a != rma_value_swap(e, 0, it + 1, 0));
            assert_true(b != rma_value_swap(e, 1, it + 1, 0));
        }
    }
}

/* A damaged operand always changes the target: integers modulo 2^bits,
 * floats even on a running sum much larger than the operand. */
static void test_damage_is_visible(void **state)
{
    (void)state;
    const struct rma_elem ints[] = {int1, int4, int8};
    for (size_t k = 0; k < 3; k++) {
        struct rma_elem e = ints[k];
        for (uint64_t v = 0; v < 300; v++) {
            uint64_t good = rma_combine_value(RMA_SUM, e, 12345, v & rma_elem_mask(e.size));
            uint64_t bad = rma_combine_value(
                RMA_SUM, e, 12345, rma_value_damage(e, v & rma_elem_mask(e.size)));
            assert_true(good != bad);
        }
    }
    uint64_t big = rma_float_bits(4, 2500.0);
    for (size_t it = 0; it < 300; it++) {
        uint64_t v = rma_value_addend(flt, 0, it, 0);
        uint64_t good = rma_combine_value(RMA_SUM, flt, big, v);
        uint64_t bad = rma_combine_value(RMA_SUM, flt, big, rma_value_damage(flt, v));
        assert_true(good != bad);
        assert_true(as_float(rma_value_damage(flt, v)) == -as_float(v));
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
    rma_elem_store(mem, 5, 2, 0x1beef);
    assert_int_equal(rma_elem_load(mem, 5, 2), 0xbeef);
    /* A float stored as bits reads back as the same float. */
    float f = 0.3f;
    rma_elem_store(mem, 0, 4, rma_float_bits(4, f));
    float back;
    memcpy(&back, mem, sizeof back);
    assert_memory_equal(&back, &f, sizeof f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_integer_wrap),
        cmocka_unit_test(test_integer_running_sums),
        cmocka_unit_test(test_float_running_sums),
        cmocka_unit_test(test_float_bits_round_trip),
        cmocka_unit_test(test_addends_never_zero),
        cmocka_unit_test(test_swap_values_distinct),
        cmocka_unit_test(test_damage_is_visible),
        cmocka_unit_test(test_element_load_store),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
