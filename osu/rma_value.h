/*
 * rma_value: the values a validated one-sided run moves and what the target
 * must hold afterwards. An element is an integer of 1, 2, 4 or 8 bytes or a
 * float of 4 or 8 bytes; a value travels here as the element's bits in a
 * uint64_t (its bytes read as an unsigned integer of the element's size).
 * Integer sums are computed modulo 2^(8 * size) on the bits, which is the
 * true sum for the values used here, none of which overflows; floating sums
 * are done with the same single (or double) precision addition the target
 * does; so every expected result is exact and compared bit for bit. Pure
 * logic.
 */
#ifndef COMMSWEEP_OSU_RMA_VALUE_H
#define COMMSWEEP_OSU_RMA_VALUE_H

#include <stddef.h>
#include <stdint.h>

enum rma_kind { RMA_INTEGER, RMA_FLOATING };

/* What the arithmetic needs to know of an element type. */
struct rma_elem {
    size_t size; /* bytes: 1, 2, 4, 8 (floating: 4 or 8) */
    enum rma_kind kind;
};

/* How an operation combines its data with the target's. */
enum rma_combine {
    RMA_REPLACE, /* put, compare-and-swap (when the comparison matches) */
    RMA_SUM,     /* accumulate, get-accumulate, fetch-and-op with MPI_SUM */
};

/* The bits of the value an origin rank contributes at (iteration, element
 * index). */
typedef uint64_t (*rma_value_fn)(struct rma_elem e, int rank, size_t iteration, size_t index);

/* Put and get: buf_pattern (their bytes come from buf.h itself). */
uint64_t rma_value_pattern(struct rma_elem e, int rank, size_t iteration, size_t index);
/* Addends of the summing operations (accumulate, get-accumulate,
 * fetch-and-op), never zero. Integers: steps between levels within +-63 of
 * alternating sign, so no running sum ever leaves +-63 and no signed type
 * overflows (undefined in C, and Open MPI 4.1's AVX reductions saturate
 * 8-bit sums instead of wrapping). Floats: a tenth of buf_pattern + 1, not
 * a binary fraction, so the sums round as real ones do. */
uint64_t rma_value_addend(struct rma_elem e, int rank, size_t iteration, size_t index);
/* Compare-and-swap: never 0 (the window's initial value), never the value
 * of the rank's previous iteration and never the other rank's value of the
 * same iteration, whatever the element size, so every swap is visible. */
uint64_t rma_value_swap(struct rma_elem e, int rank, size_t iteration, size_t index);

/* A wrong value for the COMMSWEEP_CORRUPT hook that -c must catch whatever
 * the target already holds: integers with the lowest bit flipped (visible
 * modulo 2^bits), floats with the sign flipped (a change of twice the value,
 * not lost in the rounding of a running sum). */
uint64_t rma_value_damage(struct rma_elem e, uint64_t bits);

/* All ones in the element's size. */
uint64_t rma_elem_mask(size_t size);
/* The target element after one operation. */
uint64_t rma_combine_value(enum rma_combine c, struct rma_elem e, uint64_t before,
                           uint64_t operand);

/* Element idx of an array of size-byte elements, as bits. */
uint64_t rma_elem_load(const void *base, size_t idx, size_t size);
void rma_elem_store(void *base, size_t idx, size_t size, uint64_t bits);

/* The bits of a float or double and back (size 4 or 8). */
uint64_t rma_float_bits(size_t size, double v);
double rma_float_value(size_t size, uint64_t bits);

#endif
