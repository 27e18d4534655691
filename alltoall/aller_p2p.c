/* aller isend and rsend: the all-to-all as point-to-point messages, one to
 * and from every peer, posted in rotated order. */
#include "aller.h"

#include <stdlib.h>

#include "err.h"

#define ALLER_P2P_TAG 4242

/* 2 x size requests: receives first, then sends. */
static void p2p_open(struct a2a_ctx *ctx, char *note, size_t notelen)
{
    (void)note;
    (void)notelen;
    MPI_Request *reqs = malloc(2 * (size_t)ctx->sub->size * sizeof *reqs);
    err_any(MPI_COMM_WORLD, !reqs, ERR_STATUS_USAGE, "cannot allocate %d requests",
            2 * ctx->sub->size);
    ctx->state = reqs;
}

static void p2p_close(struct a2a_ctx *ctx) { free(ctx->state); }

static void post_receives(struct a2a_ctx *ctx, size_t count, MPI_Request *reqs)
{
    const struct subcomm *s = ctx->sub;
    char *recv = buf_mpi(ctx->recv);
    for (int k = 0; k < s->size; k++) {
        int from = aller_recv_peer(s->rank, s->size, k);
        MPI_CHECK(MPI_Irecv(recv + aller_block(from, count), ctx->mt->count, ctx->mt->type,
                            from, ALLER_P2P_TAG, s->comm, &reqs[k]));
    }
}

/* ready: MPI_Irsend instead of MPI_Isend. */
static void post_sends(struct a2a_ctx *ctx, size_t count, MPI_Request *reqs, int ready)
{
    const struct subcomm *s = ctx->sub;
    char *send = buf_mpi(ctx->send);
    for (int k = 0; k < s->size; k++) {
        int to = aller_send_peer(s->rank, s->size, k);
        void *from = send + aller_block(to, count);
        if (ready)
            MPI_CHECK(MPI_Irsend(from, ctx->mt->count, ctx->mt->type, to, ALLER_P2P_TAG,
                                 s->comm, &reqs[k]));
        else
            MPI_CHECK(MPI_Isend(from, ctx->mt->count, ctx->mt->type, to, ALLER_P2P_TAG,
                                s->comm, &reqs[k]));
    }
}

static void isend_exchange(struct a2a_ctx *ctx, size_t count)
{
    MPI_Request *reqs = ctx->state;
    post_receives(ctx, count, reqs);
    post_sends(ctx, count, reqs + ctx->sub->size, 0);
    MPI_CHECK(MPI_Waitall(2 * ctx->sub->size, reqs, MPI_STATUSES_IGNORE));
}

/* A ready send is correct only when its receive is already posted: the
 * barrier after posting them tells every rank that all of them are. */
static void rsend_exchange(struct a2a_ctx *ctx, size_t count)
{
    MPI_Request *reqs = ctx->state;
    post_receives(ctx, count, reqs);
    MPI_CHECK(MPI_Barrier(ctx->sub->comm));
    post_sends(ctx, count, reqs + ctx->sub->size, 1);
    MPI_CHECK(MPI_Waitall(2 * ctx->sub->size, reqs, MPI_STATUSES_IGNORE));
}

const struct a2a_method aller_isend = {
    .name = "isend",
    .describe = "MPI_Irecv from and MPI_Isend to every peer in rotated order, MPI_Waitall",
    .open = p2p_open,
    .exchange = isend_exchange,
    .close = p2p_close,
};

const struct a2a_method aller_rsend = {
    .name = "rsend",
    .describe = "MPI_Irecv from every peer, MPI_Barrier, MPI_Irsend in rotated order, "
                "MPI_Waitall",
    .open = p2p_open,
    .exchange = rsend_exchange,
    .close = p2p_close,
};
