/* aller put and get: the all-to-all as one-sided communication in a window
 * created once per communicator. put writes each block into the receive
 * buffer of its destination between two fences; get reads each block from
 * the send buffer of its source under a passive lock_all epoch that lasts as
 * long as the communicator, completed by a flush. */
#include "aller.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"

struct rma_state {
    MPI_Win win;
    bool fallback; /* the library gave no window: MPI_Alltoall */
};

/* Open MPI 4's osc/rdma, its choice for a window whose ranks share a node
 * where UCX does not take it, reads a peer's memory through vader's
 * single-copy mechanism (CMA); on some systems such a read fails ("Read
 * -1, expected N, errno = 14") and is retried for ever. osc/pt2pt makes no
 * such read. The launcher's --mca settings reach the ranks as OMPI_MCA_*
 * variables: a user who chose the components is not second-guessed. */
#define RMA_HANG_SECONDS 600.0
#define RMA_HANG_HINT "Open MPI 4's osc/rdma can hang reading a peer on the same node: " \
                      "run with --mca osc pt2pt"

static bool osc_rdma_may_hang(MPI_Comm comm)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int len = 0;
    MPI_Get_library_version(version, &len);
    const char *osc = getenv("OMPI_MCA_osc");
    const char *copy = getenv("OMPI_MCA_btl_vader_single_copy_mechanism");
    bool may = strstr(version, "Open MPI v4.") && !(osc && (osc[0] == '^' || !strstr(osc, "rdma")))
               && !(copy && strcmp(copy, "none") == 0);
    /* Only where two ranks of the window share a node. */
    MPI_Comm node;
    int shared = 1, any = 0;
    MPI_CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    MPI_CHECK(MPI_Comm_size(node, &shared));
    MPI_CHECK(MPI_Comm_free(&node));
    int mine = may && shared > 1;
    MPI_CHECK(MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, comm));
    return any != 0;
}

/* A window over the whole of b, in units of longs. Open MPI 4.1 refuses
 * MPI_Win_create on a communicator of one rank (no one-sided component
 * takes it); where the library gives no window, the method says so and
 * uses MPI_Alltoall, so the sweep goes on. */
static struct rma_state *rma_open(struct a2a_ctx *ctx, struct buf *b, char *note,
                                  size_t notelen)
{
    struct rma_state *st = calloc(1, sizeof *st);
    err_any(MPI_COMM_WORLD, !st, ERR_STATUS_USAGE, "cannot allocate the window state");
    ctx->state = st;
    MPI_Aint bytes = (MPI_Aint)(ctx->count_max * (size_t)ctx->sub->size * sizeof(long));
    int rc = MPI_Win_create(buf_mpi(b), bytes, (int)sizeof(long), MPI_INFO_NULL,
                            ctx->sub->comm, &st->win);
    int failed = rc != MPI_SUCCESS, any = 0;
    MPI_CHECK(MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, ctx->sub->comm));
    if (!any) {
        if (osc_rdma_may_hang(ctx->sub->comm)) {
            ctx->hang_timeout = RMA_HANG_SECONDS;
            ctx->hang_hint = RMA_HANG_HINT;
            snprintf(note, notelen, "Open MPI 4 with ranks sharing a node: osc/rdma, where it "
                     "is chosen, can hang; a count over %.0f s ends the run naming the ranks "
                     "(--timeout sets it; --mca osc pt2pt avoids osc/rdma)", RMA_HANG_SECONDS);
        }
        return st;
    }
    if (!failed)
        MPI_CHECK(MPI_Win_free(&st->win));
    char why[MPI_MAX_ERROR_STRING] = "on another rank";
    int len = 0;
    if (failed)
        MPI_Error_string(rc, why, &len);
    snprintf(note, notelen, "MPI_Win_create failed (%s) in a communicator of %d rank%s: "
             "MPI_Alltoall instead", why, ctx->sub->size, ctx->sub->size == 1 ? "" : "s");
    st->fallback = ctx->fell_back = true;
    return NULL;
}

static void put_open(struct a2a_ctx *ctx, char *note, size_t notelen)
{
    rma_open(ctx, ctx->recv, note, notelen);
}

/* Lock_all once: the epoch covers every call in this communicator. */
static void get_open(struct a2a_ctx *ctx, char *note, size_t notelen)
{
    struct rma_state *st = rma_open(ctx, ctx->send, note, notelen);
    if (st)
        MPI_CHECK(MPI_Win_lock_all(MPI_MODE_NOCHECK, st->win));
}

static void rma_free(struct a2a_ctx *ctx)
{
    struct rma_state *st = ctx->state;
    if (!st->fallback)
        MPI_CHECK(MPI_Win_free(&st->win));
    free(st);
}

static void get_close(struct a2a_ctx *ctx)
{
    struct rma_state *st = ctx->state;
    if (!st->fallback)
        MPI_CHECK(MPI_Win_unlock_all(st->win));
    rma_free(ctx);
}

/* My block goes to displacement rank * count of each target's window. */
static void put_exchange(struct a2a_ctx *ctx, size_t count)
{
    const struct subcomm *s = ctx->sub;
    struct rma_state *st = ctx->state;
    char *send = buf_mpi(ctx->send);
    MPI_Aint at = (MPI_Aint)((size_t)s->rank * count);
    if (st->fallback) {
        a2a_method_alltoall.exchange(ctx, count);
        return;
    }
    MPI_CHECK(MPI_Win_fence(0, st->win));
    for (int k = 0; k < s->size; k++) {
        int to = aller_send_peer(s->rank, s->size, k);
        MPI_CHECK(MPI_Put(send + aller_block(to, count), ctx->mt->count, ctx->mt->type, to, at,
                          ctx->mt->count, ctx->mt->type, st->win));
    }
    MPI_CHECK(MPI_Win_fence(0, st->win));
}

/* The barrier says every source's data is ready to be read (in an
 * application it would have just written it); a rank may change its send
 * buffer again only after the next call's barrier. */
static void get_exchange(struct a2a_ctx *ctx, size_t count)
{
    const struct subcomm *s = ctx->sub;
    struct rma_state *st = ctx->state;
    char *recv = buf_mpi(ctx->recv);
    MPI_Aint at = (MPI_Aint)((size_t)s->rank * count);
    if (st->fallback) {
        a2a_method_alltoall.exchange(ctx, count);
        return;
    }
    MPI_CHECK(MPI_Barrier(s->comm));
    for (int k = 0; k < s->size; k++) {
        int from = aller_recv_peer(s->rank, s->size, k);
        MPI_CHECK(MPI_Get(recv + aller_block(from, count), ctx->mt->count, ctx->mt->type, from,
                          at, ctx->mt->count, ctx->mt->type, st->win));
    }
    MPI_CHECK(MPI_Win_flush_all(st->win));
}

const struct a2a_method aller_put = {
    .name = "put",
    .describe = "MPI_Put into every peer's receive buffer between two MPI_Win_fence",
    .open = put_open,
    .exchange = put_exchange,
    .close = rma_free,
};

const struct a2a_method aller_get = {
    .name = "get",
    .describe = "MPI_Barrier, MPI_Get from every peer's send buffer, MPI_Win_flush_all "
                "(one lock_all epoch per communicator)",
    .open = get_open,
    .exchange = get_exchange,
    .close = get_close,
};
