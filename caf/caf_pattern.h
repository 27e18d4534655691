/*
 * caf_pattern: the data patterns of the point-to-point benchmarks as plain
 * arithmetic (no MPI). A pattern is `count` blocks of `blksize` elements
 * whose starts are `stride` elements apart, beginning at element 0; ndata is
 * what is moved, nextent the distance from the first to the last element
 * moved plus one. Each family sweeps its shapes the way the seed does:
 *   contiguous     count 1, blksize = stride = 1, 2, 4, ... maxndata
 *   many           count = 1, 2, ... maxndata, blksize = stride = maxndata/count
 *   strided        blksize 1, stride = maxstride, maxstride/2, ... 1 (integer
 *                  halving), count = maxndata/maxstride (maxstride capped at
 *                  maxndata)
 *   strided many   blocks with gaps of their own size: count = 1, 2, ...,
 *                  blksize = maxndata/(2 count), stride = 2 blksize, until
 *                  stride would drop below 2
 * maxndata must be a power of two (>= 2) so every division is exact.
 */
#ifndef COMMSWEEP_CAF_PATTERN_H
#define COMMSWEEP_CAF_PATTERN_H

#include <stdbool.h>
#include <stddef.h>

enum caf_family { CAF_CONTIGUOUS, CAF_MANY, CAF_STRIDED, CAF_STRIDED_MANY };

struct caf_shape {
    size_t count, blksize, stride;
};

size_t caf_shape_ndata(const struct caf_shape *s);
size_t caf_shape_nextent(const struct caf_shape *s);
/* Whether element index is one of those moved. */
bool caf_shape_selects(const struct caf_shape *s, size_t index);

/* The family's shapes in sweep order; returns how many (at most cap). */
size_t caf_shape_sweep(enum caf_family family, size_t maxndata, size_t maxstride,
                       struct caf_shape *out, size_t cap);

/* The stride the strided sweep starts from: min(maxstride, maxndata). */
size_t caf_effective_maxstride(size_t maxndata, size_t maxstride);

bool caf_is_power_of_two(size_t v);

#endif
