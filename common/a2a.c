/* a2a: fill and check all-to-all data; see a2a.h. */
#include "a2a.h"

#include <stdlib.h>
#include <string.h>

#include "err.h"

/* Device buffers are filled and checked through host pieces of this many elements. */
#define A2A_STAGE ((size_t)1 << 20)

size_t a2a_elem_size(enum a2a_type t) { return t == A2A_LONG ? sizeof(long) : sizeof(double); }

static void put_value(void *base, enum a2a_type t, size_t i, long v)
{
    if (t == A2A_LONG)
        ((long *)base)[i] = v;
    else
        ((double *)base)[i] = (double)v;
}

static double get_value(const void *base, enum a2a_type t, size_t i)
{
    return t == A2A_LONG ? (double)((const long *)base)[i] : ((const double *)base)[i];
}

void a2a_fill(struct buf *send, size_t n, enum a2a_type t, int world_rank)
{
    size_t es = a2a_elem_size(t);
    if (send->where == BUF_HOST) {
        for (size_t i = 0; i < n; i++)
            put_value(send->ptr, t, i, a2a_value(world_rank, i));
        return;
    }
    void *stage = malloc(A2A_STAGE * es);
    if (!stage)
        err_fatal("cannot allocate host staging memory");
    for (size_t off = 0; off < n; off += A2A_STAGE) {
        size_t len = n - off < A2A_STAGE ? n - off : A2A_STAGE;
        for (size_t i = 0; i < len; i++)
            put_value(stage, t, i, a2a_value(world_rank, off + i));
        buf_copy_in(send, off * es, stage, len * es);
    }
    free(stage);
}

/* Checks len received elements of call k, held at host (the buffer itself
 * or a staged copy), that start at element `from` of the call's pieces. */
static int check_piece(const void *host, enum a2a_type t, const struct a2a_layout *l, size_t k,
                       size_t from, size_t len, struct a2a_failure *f)
{
    for (size_t i = 0; i < len; i++) {
        size_t e = from + i; /* element index in call k's pieces */
        size_t q = e / l->count, j = e % l->count;
        size_t sender_index = k * l->stride + (size_t)l->comm_rank * l->count + j;
        double want = (double)a2a_value(l->world_of[q], sender_index);
        double got = get_value(host, t, i);
        if (got != want) {
            *f = (struct a2a_failure){k, q, j, got, want};
            return -1;
        }
    }
    return 0;
}

/* A device buffer is checked through host copies of up to A2A_STAGE
 * elements: of whole calls where they fit (many small calls come over in
 * one copy, not one copy each), else of pieces of one call. */
int a2a_check(const struct buf *recv, enum a2a_type t, const struct a2a_layout *l,
              struct a2a_failure *f)
{
    size_t es = a2a_elem_size(t);
    size_t per_call = (size_t)l->comm_size * l->count;
    if (recv->where == BUF_HOST) {
        for (size_t k = 0; k < l->calls; k++)
            if (check_piece((const char *)recv->ptr + k * l->stride * es, t, l, k, 0, per_call, f))
                return -1;
        return 0;
    }
    void *stage = malloc(A2A_STAGE * es);
    if (!stage)
        err_fatal("cannot allocate host staging memory");
    int rc = 0;
    /* Calls per copy: as many whole calls as the stage holds, at least one. */
    size_t group = per_call <= A2A_STAGE && l->stride <= A2A_STAGE
                       ? 1 + (A2A_STAGE - per_call) / (l->stride ? l->stride : 1)
                       : 1;
    for (size_t k = 0; k < l->calls && rc == 0; k += group) {
        size_t n = l->calls - k < group ? l->calls - k : group;
        if (per_call <= A2A_STAGE) {
            size_t span = (n - 1) * l->stride + per_call;
            buf_copy_out(stage, recv, k * l->stride * es, span * es);
            for (size_t c = 0; c < n && rc == 0; c++)
                rc = check_piece((const char *)stage + c * l->stride * es, t, l, k + c, 0,
                                 per_call, f);
            continue;
        }
        for (size_t off = 0; off < per_call && rc == 0; off += A2A_STAGE) {
            size_t len = per_call - off < A2A_STAGE ? per_call - off : A2A_STAGE;
            buf_copy_out(stage, recv, (k * l->stride + off) * es, len * es);
            rc = check_piece(stage, t, l, k, off, len, f);
        }
    }
    free(stage);
    return rc;
}

int *a2a_world_ranks(MPI_Comm comm)
{
    int size;
    MPI_Group world, group;
    MPI_Comm_size(comm, &size);
    int *mine = malloc((size_t)size * sizeof *mine);
    int *theirs = malloc((size_t)size * sizeof *theirs);
    if (!mine || !theirs)
        err_fatal("cannot allocate %d ranks", size);
    for (int q = 0; q < size; q++)
        mine[q] = q;
    MPI_CHECK(MPI_Comm_group(MPI_COMM_WORLD, &world));
    MPI_CHECK(MPI_Comm_group(comm, &group));
    MPI_CHECK(MPI_Group_translate_ranks(group, size, mine, world, theirs));
    MPI_Group_free(&world);
    MPI_Group_free(&group);
    free(mine);
    return theirs;
}

void a2a_corrupt_if_asked(struct buf *recv, enum a2a_type t, int world_rank)
{
    if (!buf_corrupt_requested(world_rank) || recv->bytes < a2a_elem_size(t))
        return;
    unsigned char bad[sizeof(double)];
    memset(bad, 0x5A, sizeof bad);
    buf_copy_in(recv, 0, bad, a2a_elem_size(t));
}
