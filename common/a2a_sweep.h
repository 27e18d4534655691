/*
 * a2a_sweep: the triply nested loop of alltoall/all and alltoall/aller.
 *   outer:  concurrent subcommunicators of targetSize = world .. 1 ranks (halving)
 *   middle: count = countAll / targetSize .. 1 longs per peer (halving)
 *   inner:  a warm-up call, then iters timed calls, each (the warm-up too)
 *           between a world barrier and the reduction of its time to rank 0,
 *           which prints its '###' line as it ends: an iteration lasts as long
 *           as its slowest rank (the seed's timing, call by call)
 * and, after the timed calls of every count, the element-by-element check of
 * what was received (a2a_check); with --stats, each rank's own times of the
 * count's calls name the slowest world rank (straggler.h). What one call does is a method (struct
 * a2a_method): MPI_Alltoall for `all`, one algorithm each for `aller`. The
 * loop, the timing, the check and the output are the same for all of them.
 */
#ifndef COMMSWEEP_A2A_SWEEP_H
#define COMMSWEEP_A2A_SWEEP_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "devmem.h"
#include "msg.h"
#include "opt.h"
#include "stats.h"
#include "subcomm.h"

/* What a method sees while it runs in one communicator. */
struct a2a_ctx {
    const struct subcomm *sub;
    struct buf *send, *recv;
    struct buf *scratch;    /* as large as recv; NULL unless the method asks */
    size_t count_max;       /* longs per peer the buffers hold in this communicator */
    const struct msg_type *mt; /* count longs per peer, set for each count */
    void *state;            /* the method's own, from open */
    bool fell_back;         /* open chose MPI_Alltoall instead of the method */
    /* Set by open where the method is known to hang in some libraries: the
     * limit of each count when --timeout is not given, and what the line of
     * a stuck rank adds (watchdog.h). */
    double hang_timeout;
    const char *hang_hint;
};

/* One way of exchanging count longs with every rank of a communicator.
 * Send block q (count longs at q * count) goes to communicator rank q, and the
 * block from rank q lands at q * count of recv. exchange is the timed call;
 * the others run outside the timing and may be NULL. Every callback is
 * collective over ctx->sub->comm. */
struct a2a_method {
    const char *name;
    const char *describe; /* one line for --help and the README */
    const char *unavailable; /* why this build cannot run it; NULL when it can */
    bool needs_scratch;
    /* Sets ctx->state. When the method cannot run as described in this
     * communicator (a prime size for a grid, no node structure), it writes
     * what it does instead into note, which is printed as a '#' line, and
     * sets ctx->fell_back when that is MPI_Alltoall. */
    void (*open)(struct a2a_ctx *ctx, char *note, size_t notelen);
    void (*begin_count)(struct a2a_ctx *ctx, size_t count);
    void (*exchange)(struct a2a_ctx *ctx, size_t count);
    void (*end_count)(struct a2a_ctx *ctx);
    void (*close)(struct a2a_ctx *ctx);
};

/* MPI_Alltoall itself. */
extern const struct a2a_method a2a_method_alltoall;

struct a2a_sweep_config {
    bool strided;
    size_t iters;
    size_t count_hi;     /* longs per rank per peer at full world size */
    enum buf_where where;
    bool name_blocks;    /* a '# algorithm: NAME' line opens each method's block */
    double timeout;      /* --timeout: seconds a count may take (0: no limit) */
};

/* The command line of all and aller: [options] [PARTITION [ITERS [COUNTHI]]]
 * with --memory, --staging and --topology, plus the program's own options
 * (extra). what is the first line of --help. Bad input ends the program
 * with status 2. */
struct a2a_sweep_args {
    struct a2a_sweep_config sweep;
    bool topology;
};
void a2a_sweep_parse(int argc, char **argv, const char *what, const struct opt_spec *extra,
                     size_t nextra, struct a2a_sweep_args *a);

/* The header: title, the configuration and timing '#' lines, and the
 * topology and device lines. */
void a2a_sweep_header(const char *title, int argc, char **argv, const struct a2a_sweep_args *a);

/* Called on world rank 0 after each count: t indexes the target sizes
 * (world, world/2, ...), target_size is that size, m the methods, k the
 * counts of that target; fell_back says the method ran as MPI_Alltoall in
 * rank 0's communicator. */
typedef void (*a2a_sweep_record_fn)(void *arg, size_t t, size_t m, size_t k, int target_size,
                                    size_t count, bool fell_back,
                                    const struct stats_summary *s);

/* Runs the sweep for each of the n methods in turn inside every
 * communicator; buffers hold count_hi * world longs and are allocated here. */
void a2a_sweep_run(const struct a2a_sweep_config *c, const struct a2a_method *const *methods,
                   size_t n, a2a_sweep_record_fn record, void *record_arg);

/* Copies the n pieces (bytes from src + from to dst + to) between two
 * places of buffers like b (host, managed, device or the host copy of a
 * staged device buffer): what a method's local rearrangements use. Device
 * copies have landed when it returns (one synchronisation after the last
 * piece), so MPI may read dst at once; the caller times it with the
 * exchange. */
void a2a_local_copy(const struct buf *like, void *dst, const void *src,
                    const struct devmem_piece *pieces, size_t n);

#endif
