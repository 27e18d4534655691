/* caf_pattern: pattern arithmetic and sweeps; see caf_pattern.h. */
#include "caf_pattern.h"

size_t caf_shape_ndata(const struct caf_shape *s) { return s->count * s->blksize; }

size_t caf_shape_nextent(const struct caf_shape *s)
{
    return s->count ? s->blksize + (s->count - 1) * s->stride : 0;
}

bool caf_shape_selects(const struct caf_shape *s, size_t index)
{
    if (index >= caf_shape_nextent(s))
        return false;
    return index % s->stride < s->blksize;
}

bool caf_is_power_of_two(size_t v) { return v && !(v & (v - 1)); }

size_t caf_effective_maxstride(size_t maxndata, size_t maxstride)
{
    return maxstride < maxndata ? maxstride : maxndata;
}

static size_t emit(struct caf_shape *out, size_t n, size_t cap, size_t count, size_t blksize,
                   size_t stride)
{
    if (n < cap)
        out[n] = (struct caf_shape){count, blksize, stride};
    return n + 1;
}

size_t caf_shape_sweep(enum caf_family family, size_t maxndata, size_t maxstride,
                       struct caf_shape *out, size_t cap)
{
    size_t n = 0;
    if (!caf_is_power_of_two(maxndata) || maxstride == 0)
        return 0;
    switch (family) {
    case CAF_CONTIGUOUS:
        for (size_t b = 1; b <= maxndata; b *= 2)
            n = emit(out, n, cap, 1, b, b);
        break;
    case CAF_MANY:
        for (size_t c = 1; c <= maxndata; c *= 2)
            n = emit(out, n, cap, c, maxndata / c, maxndata / c);
        break;
    case CAF_STRIDED: {
        size_t top = caf_effective_maxstride(maxndata, maxstride);
        for (size_t s = top; s >= 1; s /= 2)
            n = emit(out, n, cap, maxndata / top, 1, s);
        break;
    }
    case CAF_STRIDED_MANY:
        for (size_t c = 1; maxndata / c >= 2; c *= 2)
            n = emit(out, n, cap, c, maxndata / (2 * c), maxndata / c);
        break;
    }
    return n < cap ? n : cap;
}
