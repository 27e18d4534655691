/*
 * buf: communication buffers on the host (page aligned) or on the GPU, and
 * the data pattern used to validate them. A pattern value is keyed by the
 * sending rank, the iteration and the element index, is a small non-negative
 * integer (exact in char/int/float/double, and sums of a few thousand stay
 * exact in float), so receivers can recompute what they must have got.
 * Device buffers are filled and checked through host staging.
 */
#ifndef COMMSWEEP_BUF_H
#define COMMSWEEP_BUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

enum buf_where { BUF_HOST = 0, BUF_DEVICE = 1 };

struct buf {
    void *ptr;
    size_t bytes;
    enum buf_where where;
};

/* Names for options: "host", "cuda"; NULL-terminated, index = enum value. */
extern const char *const buf_where_names[];

/* Exits with status 2 and one line when where == BUF_DEVICE cannot be served
 * (build without CUDA, no GPU visible). Call on every rank. */
void buf_require(enum buf_where where);

/* Allocates bytes (rounded up to a page on the host). On failure returns -1
 * and leaves a message naming the size in err (errlen bytes). */
int buf_alloc(struct buf *b, size_t bytes, enum buf_where where, char *err, size_t errlen);
/* Collective over comm: allocate, and if any rank failed, exit with status 2
 * and a message naming the size. */
void buf_alloc_all(struct buf *b, size_t bytes, enum buf_where where, MPI_Comm comm);
void buf_free(struct buf *b);

/* Pattern value for (rank, iter, index): in [0, BUF_PATTERN_RANGE). */
#define BUF_PATTERN_RANGE 251u
static inline unsigned buf_pattern(int rank, size_t iter, size_t index)
{
    uint64_t h = (uint64_t)index * 2654435761u + (uint64_t)rank * 40503u + (uint64_t)iter * 97u;
    return (unsigned)((h ^ (h >> 17)) % BUF_PATTERN_RANGE);
}

/* Fill bytes [0, b->bytes) with the pattern as bytes / write zeroes. */
int buf_fill_bytes(struct buf *b, int rank, size_t iter);
void buf_zero(struct buf *b);
/* Every byte set to value (0xFF makes integers -1 and doubles NaN: a poison
 * no pattern produces). */
void buf_set_bytes(struct buf *b, int value);
/* Index of the first byte that differs from the pattern, or SIZE_MAX. Checks
 * [offset, offset + len) against pattern indices [0, len). */
size_t buf_check_bytes(const struct buf *b, size_t offset, size_t len, int rank, size_t iter);

/* Copies between a buffer (host or device) and host memory. */
void buf_copy_out(void *host_dst, const struct buf *b, size_t offset, size_t len);
void buf_copy_in(struct buf *b, size_t offset, const void *host_src, size_t len);

/* Flips the lowest bit of the byte at offset (host or device). A pattern
 * byte (below 251) stays below 251, and always changes. */
void buf_flip_byte(struct buf *b, size_t offset);

/* Test hook that proves a data check can fail: COMMSWEEP_CORRUPT=1 in the
 * environment asks one rank to damage data on purpose, the rank named by
 * COMMSWEEP_CORRUPT_RANK (a number; when it is unset or not a number,
 * rank 0). What is damaged is the program's to say. buf_corrupt_rank gives
 * that rank, or -1 when the hook is off; buf_corrupt_requested(rank) is
 * true when rank is the one. */
int buf_corrupt_rank(void);
bool buf_corrupt_requested(int rank);

#endif
