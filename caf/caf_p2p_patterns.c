/* caf_p2p_patterns: the seed's point-to-point patterns; see caf_p2p_patterns.h. */
#include "caf_p2p_patterns.h"

#define CAF_SUBROUTINE __attribute__((noinline))

/* target(disp:disp+count-1)[image] = source(disp:disp+count-1), or the get. */
CAF_SUBROUTINE static void sub_section(enum caf_dir dir, struct caf_coarray *target,
                                       double *source, size_t disp, size_t count, int image)
{
    caf_transfer_contig(dir, target, image, disp, source + disp, count);
}

/* target(:)[image] = source(:) with both of n elements. */
CAF_SUBROUTINE static void sub_whole(enum caf_dir dir, struct caf_coarray *target,
                                     double *source, size_t n, int image)
{
    caf_transfer_contig(dir, target, image, 0, source, n);
}

/* do i = 1, count: target(block i)[image] = source(block i), blocks stride
 * apart; each statement is complete before the next, as in Fortran. Inlined
 * where a program writes the loop itself. */
static inline __attribute__((always_inline)) void
block_statements(enum caf_dir dir, struct caf_coarray *target, double *source, size_t disp,
                 size_t count, size_t blksize, size_t stride, int image)
{
    for (size_t i = 0; i < count; i++)
        caf_transfer_contig(dir, target, image, disp + i * stride, source + disp + i * stride,
                            blksize);
}

/* The loop of block statements inside a routine. */
CAF_SUBROUTINE static void sub_many(enum caf_dir dir, struct caf_coarray *target,
                                    double *source, size_t disp, size_t count, size_t blksize,
                                    int image)
{
    block_statements(dir, target, source, disp, count, blksize, blksize, image);
}

/* target(istart:istop:stride)[image] = source(istart:istop:stride) */
CAF_SUBROUTINE static void sub_strided(enum caf_dir dir, struct caf_coarray *target,
                                       double *source, size_t istart, size_t istop,
                                       size_t stride, int image)
{
    size_t count = (istop - istart) / stride + 1;
    caf_transfer_strided(dir, target, image, istart, source + istart, count, 1, stride);
}

static void inline_contig(enum caf_dir dir, struct caf_coarray *x, int p,
                          const struct caf_shape *s)
{
    caf_transfer_contig(dir, x, p, 0, x->base, caf_shape_ndata(s));
}

static void via_sub_section(enum caf_dir dir, struct caf_coarray *x, int p,
                            const struct caf_shape *s)
{
    sub_section(dir, x, x->base, 0, caf_shape_ndata(s), p);
}

static void via_sub_whole(enum caf_dir dir, struct caf_coarray *x, int p,
                          const struct caf_shape *s)
{
    sub_whole(dir, x, x->base, caf_shape_ndata(s), p);
}

static void whole_array(enum caf_dir dir, struct caf_coarray *x, int p,
                        const struct caf_shape *s)
{
    (void)s;
    caf_transfer_contig(dir, x, p, 0, x->base, x->len);
}

/* The loop written in the program, blocks at their shape's stride: many
 * (stride = blksize) and strided many. */
static void inline_blocks(enum caf_dir dir, struct caf_coarray *x, int p,
                          const struct caf_shape *s)
{
    block_statements(dir, x, x->base, 0, s->count, s->blksize, s->stride, p);
}

static void via_sub_many(enum caf_dir dir, struct caf_coarray *x, int p,
                         const struct caf_shape *s)
{
    sub_many(dir, x, x->base, 0, s->count, s->blksize, p);
}

static void many_sub_section(enum caf_dir dir, struct caf_coarray *x, int p,
                             const struct caf_shape *s)
{
    for (size_t i = 0; i < s->count; i++)
        sub_section(dir, x, x->base, i * s->blksize, s->blksize, p);
}

static void inline_strided(enum caf_dir dir, struct caf_coarray *x, int p,
                           const struct caf_shape *s)
{
    caf_transfer_strided(dir, x, p, 0, x->base, s->count, s->blksize, s->stride);
}

static void via_sub_strided(enum caf_dir dir, struct caf_coarray *x, int p,
                            const struct caf_shape *s)
{
    sub_strided(dir, x, x->base, 0, caf_shape_nextent(s) - 1, s->stride, p);
}

/* Where two patterns end in the same MPI calls, the description says so:
 * in Fortran they differ only in how the statement is written (a routine
 * call, an array descriptor), and so do they here. */
const struct caf_p2p_pattern caf_p2p_patterns[] = {
    {"%s", "contiguous %s, one section statement x(1:ndata)[p]: MPI_Put/Get + "
     "MPI_Win_flush_local", CAF_CONTIGUOUS, false, inline_contig},
    {"sub%s", "contiguous %s through a routine with displacement and count (same MPI calls "
     "as the plain pattern; only the routine call differs)", CAF_CONTIGUOUS, false,
     via_sub_section},
    {"simple_sub%s", "contiguous %s through a routine taking whole arrays of n (same MPI "
     "calls as the plain pattern; only the routine call differs)", CAF_CONTIGUOUS, false,
     via_sub_whole},
    {"all_%s", "whole-array %s of a coarray of exactly ndata elements (same MPI calls as the "
     "plain pattern, on a window of ndata)", CAF_CONTIGUOUS, true, whole_array},
    {"many_%s", "loop of count block statements (%s), each completed: count x (MPI_Put/Get + "
     "MPI_Win_flush_local)", CAF_MANY, false, inline_blocks},
    {"sub_many%s", "the block loop inside one routine (%s; same MPI calls as many, one "
     "routine call)", CAF_MANY, false, via_sub_many},
    {"many_sub%s", "count calls of the displacement-and-count routine (%s; same MPI calls as "
     "many, a routine call per block)", CAF_MANY, false, many_sub_section},
    {"strided_%s", "strided %s, one section statement x(1:nextent:stride)[p]: one vector "
     "datatype", CAF_STRIDED, false, inline_strided},
    {"strided_sub%s", "strided %s through a routine with start, stop and stride (same MPI "
     "calls as strided; only the routine call differs)", CAF_STRIDED, false, via_sub_strided},
    {"strided_many_%s", "loop of block statements with gaps of their size (%s), each "
     "completed", CAF_STRIDED_MANY, false, inline_blocks},
};

const size_t caf_p2p_npatterns = sizeof caf_p2p_patterns / sizeof caf_p2p_patterns[0];
