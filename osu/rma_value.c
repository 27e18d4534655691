/* rma_value: values and expected results of validated runs; see rma_value.h. */
#include "rma_value.h"

#include <string.h>

#include "buf.h"

uint64_t rma_float_bits(size_t size, double v)
{
    if (size == 4) {
        float f = (float)v;
        uint32_t bits;
        memcpy(&bits, &f, sizeof bits);
        return bits;
    }
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    return bits;
}

double rma_float_value(size_t size, uint64_t bits)
{
    if (size == 4) {
        uint32_t low = (uint32_t)bits;
        float f;
        memcpy(&f, &low, sizeof f);
        return f;
    }
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* A tenth of n in the element's precision: each product rounded once, the
 * same way on every rank, since it is computed here and nowhere else. */
static uint64_t float_tenth(struct rma_elem e, uint64_t n)
{
    if (e.size == 4)
        return rma_float_bits(4, (float)n * 0.1f);
    return rma_float_bits(8, (double)n * 0.1);
}

uint64_t rma_value_pattern(struct rma_elem e, int rank, size_t iteration, size_t index)
{
    return buf_pattern(rank, iteration, index) & rma_elem_mask(e.size);
}

/* The level an integer running sum reaches after iteration it: within
 * +-63 and of alternating sign, so consecutive levels always differ. */
static int64_t sum_level(int rank, size_t iteration, size_t index)
{
    int64_t magnitude = 1 + (int64_t)(buf_pattern(rank, iteration, index) % 63);
    return iteration % 2 ? magnitude : -magnitude;
}

uint64_t rma_value_addend(struct rma_elem e, int rank, size_t iteration, size_t index)
{
    if (e.kind == RMA_FLOATING)
        return float_tenth(e, (uint64_t)buf_pattern(rank, iteration, index) + 1);
    int64_t before = iteration ? sum_level(rank, iteration - 1, index) : 0;
    int64_t step = sum_level(rank, iteration, index) - before;
    /* Two's complement bits of the step, in the element's size. */
    return (uint64_t)step & rma_elem_mask(e.size);
}

/* The largest integer a swap value may take: what the element holds, for
 * floats what its significand holds exactly. */
static uint64_t swap_limit(struct rma_elem e)
{
    if (e.kind == RMA_FLOATING)
        return e.size == 4 ? ((uint64_t)1 << 24) - 1 : ((uint64_t)1 << 53) - 1;
    return rma_elem_mask(e.size);
}

uint64_t rma_value_swap(struct rma_elem e, int rank, size_t iteration, size_t index)
{
    (void)index;
    /* 1 .. limit, counting up with the iteration; the ranks start half the
     * range apart, so with limit odd they never meet. */
    uint64_t limit = swap_limit(e);
    uint64_t offset = (uint64_t)rank * (limit / 2 + 1);
    uint64_t n = 1 + ((uint64_t)iteration % limit + offset % limit) % limit;
    return e.kind == RMA_FLOATING ? rma_float_bits(e.size, (double)n) : n;
}

uint64_t rma_value_damage(struct rma_elem e, uint64_t bits)
{
    if (e.kind == RMA_FLOATING)
        return bits ^ ((uint64_t)1 << (8 * e.size - 1));
    return bits ^ 1;
}

uint64_t rma_elem_mask(size_t size)
{
    return size >= 8 ? UINT64_MAX : (((uint64_t)1 << (8 * size)) - 1);
}

/* One addition in the element's precision; the assignment rounds to float
 * even where the compiler evaluates float sums wider (C11 5.2.4.2.2). */
static uint64_t float_sum(size_t size, uint64_t a, uint64_t b)
{
    if (size == 4) {
        float s = (float)rma_float_value(4, a) + (float)rma_float_value(4, b);
        return rma_float_bits(4, s);
    }
    double s = rma_float_value(8, a) + rma_float_value(8, b);
    return rma_float_bits(8, s);
}

uint64_t rma_combine_value(enum rma_combine c, struct rma_elem e, uint64_t before,
                           uint64_t operand)
{
    if (c == RMA_REPLACE)
        return operand & rma_elem_mask(e.size);
    if (e.kind == RMA_FLOATING)
        return float_sum(e.size, before, operand);
    return (before + operand) & rma_elem_mask(e.size);
}

uint64_t rma_elem_load(const void *base, size_t idx, size_t size)
{
    const unsigned char *p = (const unsigned char *)base + idx * size;
    switch (size) {
    case 1:
        return *p;
    case 2: {
        uint16_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    case 4: {
        uint32_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    default: {
        uint64_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    }
}

void rma_elem_store(void *base, size_t idx, size_t size, uint64_t bits)
{
    unsigned char *p = (unsigned char *)base + idx * size;
    switch (size) {
    case 1:
        *p = (unsigned char)bits;
        break;
    case 2: {
        uint16_t w = (uint16_t)bits;
        memcpy(p, &w, sizeof w);
        break;
    }
    case 4: {
        uint32_t w = (uint32_t)bits;
        memcpy(p, &w, sizeof w);
        break;
    }
    default:
        memcpy(p, &bits, sizeof bits);
        break;
    }
}
