/*
 * coll: the shared driver of the OSU-style collective benchmarks: blocking,
 * non-blocking and persistent. A program file describes one collective in a
 * struct coll_bench (buffer extents; the call, its non-blocking start or the
 * making of its persistent request; what each receive element must hold)
 * and hands it to coll_main, which owns options, the size sweep, memory
 * capping, warm-up, timing, statistics, validation, the compute/overlap
 * measurement of non-blocking calls, the life of persistent requests and
 * printing.
 *
 * Sizes are bytes per rank per peer as OSU defines them for each collective:
 * the block one rank sends to (or receives from) one other rank (for the
 * neighborhood collectives, one neighbour); for reductions, the vector each
 * rank contributes.
 */
#ifndef COMMSWEEP_COLL_H
#define COMMSWEEP_COLL_H

#include <stdbool.h>
#include <stddef.h>

#include "harness.h"
#include "msg.h"
#include "osu.h"

/* Element types (-T); data movement moves bytes without -T, and for its
 * char (MPI_CHAR in OMB 7.4's "# Datatype:" line either way). */
enum coll_type { COLL_CHAR, COLL_INT, COLL_FLOAT, COLL_DOUBLE, COLL_BYTE };

/* How much a buffer holds, in blocks of one size: nothing, one block, or one
 * block per rank. Every rank allocates the same, so rotating roots fit. The
 * neighborhood collectives hold one block per source or per destination of
 * the rank (each rank allocates the most any rank needs). */
enum coll_extent { COLL_NONE, COLL_ONE, COLL_PER_RANK, COLL_PER_SOURCE, COLL_PER_DEST };

struct coll_nbr; /* the neighborhood collectives' topology, coll_neighbor.h */

/* What a callback sees for the size being measured. */
struct coll_ctx {
    MPI_Comm comm;
    int rank, nranks;
    int root;               /* root of the current call */
    size_t size;            /* bytes per rank per peer */
    size_t count;           /* elements per rank per peer (size / elem_size) */
    enum coll_type type;
    MPI_Datatype elem;      /* MPI type of one element */
    size_t elem_size;
    struct msg_type msg;    /* count elements as (type, n): any size, no reductions */
    int icount;             /* count as an int (reductions and v-variants only) */
    int *counts, *displs;   /* v-variants, reduce_scatter: per rank, in elements
                             * (alltoallw: displacements in bytes) */
    MPI_Datatype *types;    /* alltoallw: per rank, the type of its block */
    unsigned value_max;     /* send values lie in [0, value_max] */
    /* Reductions: a rank's values are (h + rank) mod (value_max + 1), h
     * rank 0's, so their sum over the ranks has a closed form (a sum over
     * the ranks per element would make -c O(N) per element at N ranks). */
    bool summed;
    struct buf send, recv;
    /* What the call passes as its buffers: buf_mpi of send and of recv, or
     * MPI_IN_PLACE where -l puts it (every rank's send buffer; the root's
     * send buffer of a gather or reduce, its receive buffer of a scatter).
     * The driver sets them before each call and each persistent request. */
    void *sendbuf, *recvbuf;
    const struct coll_nbr *nbr; /* neighborhood collectives: the topology; else NULL */
};

struct coll_bench {
    const char *title;        /* "OSU MPI Allgather Latency Test" */
    const char *description;  /* one line for --help */
    enum coll_extent send, recv;
    bool reduction;           /* MPI_SUM over -T elements, int counts */
    bool rooted;              /* has a root: -k fixed|rotate */
    bool vector;              /* int counts and displacements of count each */
    bool no_data;             /* barrier: no sizes, no buffers */
    bool neighbor;            /* a neighborhood collective on -N's topology */
    /* The call is this library's on device buffers (the xccl programs,
     * osu/xccl.h), not MPI's: no -l, -D or --groups (the library knows
     * neither MPI_IN_PLACE, derived types nor MPI's groups), and the
     * reductions sum floats unless -T says otherwise, as OMB 7.4's xccl
     * programs do; NULL: MPI's. */
    const struct osu_offload *offload;
    /* Exactly one of these: the blocking call, the non-blocking start, or
     * the making of a persistent request (for the current size and root;
     * the driver makes it outside the timing, then each call is MPI_Start
     * and MPI_Wait, and frees it after the size). */
    void (*call)(struct coll_ctx *c);
    void (*start)(struct coll_ctx *c, MPI_Request *req);
    void (*init)(struct coll_ctx *c, MPI_Request *req);
    /* Optional: per-size set-up after the driver's (counts of reduce_scatter). */
    void (*prepare)(struct coll_ctx *c);
    /* Optional: fill buffers before a call; default fills send, zeroes recv. */
    void (*fill)(struct coll_ctx *c, size_t iter);
    /* Value receive element i must hold after call iter; false when this
     * rank's element i is not written by the call. */
    bool (*expect)(const struct coll_ctx *c, size_t iter, size_t i, double *want);
};

/* Runs the program; never returns. */
_Noreturn void coll_main(const struct coll_bench *b, int argc, char **argv);

/* The value rank sends at element index of its send buffer in iteration iter. */
double coll_value(const struct coll_ctx *c, int rank, size_t iter, size_t index);

/* Fill a buffer with rank's values for iter / with zeroes (host or device). */
void coll_fill_values(const struct coll_ctx *c, struct buf *b, int rank, size_t iter);
void coll_fill_zero(struct buf *b);

/* Expectations shared by the blocking and non-blocking forms (coll_expect.c). */
bool coll_expect_allgather(const struct coll_ctx *c, size_t iter, size_t i, double *want);
bool coll_expect_gather(const struct coll_ctx *c, size_t iter, size_t i, double *want);
bool coll_expect_alltoall(const struct coll_ctx *c, size_t iter, size_t i, double *want);
bool coll_expect_scatter(const struct coll_ctx *c, size_t iter, size_t i, double *want);
bool coll_expect_bcast(const struct coll_ctx *c, size_t iter, size_t i, double *want);
bool coll_expect_allreduce(const struct coll_ctx *c, size_t iter, size_t i, double *want);
bool coll_expect_reduce(const struct coll_ctx *c, size_t iter, size_t i, double *want);
bool coll_expect_reduce_scatter(const struct coll_ctx *c, size_t iter, size_t i, double *want);
/* Broadcast fill: the root's data lives in recv (one buffer per rank). */
void coll_fill_bcast(struct coll_ctx *c, size_t iter);
/* reduce_scatter counts: count elements split as evenly as possible. */
void coll_prepare_reduce_scatter(struct coll_ctx *c);
/* alltoallw (after the driver's vector counts): displacements in bytes,
 * every block of the message's type. */
void coll_prepare_alltoallw(struct coll_ctx *c);
/* reduce_scatter_block counts: count / ranks elements each (OMB's portion;
 * the count % ranks elements at the end are not reduced). */
void coll_prepare_reduce_scatter_block(struct coll_ctx *c);

#endif
