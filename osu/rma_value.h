/*
 * rma_value: the values a validated one-sided run moves and what the target
 * must hold afterwards. Elements are unsigned integers of 1, 4 or 8 bytes;
 * sums wrap modulo 2^(8 * element size) exactly as MPI_SUM does on unsigned
 * types, so every expected accumulate result is exact. Pure logic.
 */
#ifndef COMMSWEEP_OSU_RMA_VALUE_H
#define COMMSWEEP_OSU_RMA_VALUE_H

#include <stddef.h>
#include <stdint.h>

/* How an operation combines its data with the target's. */
enum rma_combine {
    RMA_REPLACE, /* put, compare-and-swap (when the comparison matches) */
    RMA_SUM,     /* accumulate, get-accumulate, fetch-and-op with MPI_SUM */
};

/* The value an origin rank contributes at (iteration, element index). */
typedef uint64_t (*rma_value_fn)(int rank, size_t iteration, size_t index);

/* buf_pattern: bytes of put/get, addends of accumulate (small, so sums stay
 * far from wrapping in any realistic run). */
uint64_t rma_value_pattern(int rank, size_t iteration, size_t index);
/* buf_pattern + 1: a fetch-and-op addend that is never zero. */
uint64_t rma_value_addend(int rank, size_t iteration, size_t index);
/* Compare-and-swap: distinct for every (rank, iteration) and never 0, the
 * window's initial value, so every swap is visible. */
uint64_t rma_value_swap(int rank, size_t iteration, size_t index);

uint64_t rma_elem_mask(size_t elem);
/* The target element after one operation. */
uint64_t rma_combine_value(enum rma_combine c, uint64_t before, uint64_t operand, size_t elem);

/* Element idx of an array of elem-byte unsigned integers. */
uint64_t rma_elem_load(const void *base, size_t idx, size_t elem);
void rma_elem_store(void *base, size_t idx, size_t elem, uint64_t v);

#endif
