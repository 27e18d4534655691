/* aller persistent: MPI_Alltoall_init once per count, then start and wait
 * per call, under the name common/pcoll.h finds in the library. */
#include "aller.h"

#include "err.h"
#include "pcoll.h"

#if PCOLL_AVAILABLE
/* The request of the current count: a rank is in one communicator at a time. */
static MPI_Request persistent_request = MPI_REQUEST_NULL;

static void persistent_begin(struct a2a_ctx *ctx, size_t count)
{
    (void)count;
    const struct msg_type *mt = ctx->mt;
    MPI_CHECK(PCOLL_INIT(Alltoall)(buf_mpi(ctx->send), mt->count, mt->type, buf_mpi(ctx->recv),
                                   mt->count, mt->type, ctx->sub->comm, MPI_INFO_NULL,
                                   &persistent_request));
}

static void persistent_exchange(struct a2a_ctx *ctx, size_t count)
{
    (void)ctx;
    (void)count;
    MPI_CHECK(MPI_Start(&persistent_request));
    MPI_CHECK(MPI_Wait(&persistent_request, MPI_STATUS_IGNORE));
}

static void persistent_end(struct a2a_ctx *ctx)
{
    (void)ctx;
    MPI_CHECK(MPI_Request_free(&persistent_request));
}

const struct a2a_method aller_persistent = {
    .name = "persistent",
    .describe = "MPI_Alltoall_init once per count, MPI_Start and MPI_Wait per call",
    .begin_count = persistent_begin,
    .exchange = persistent_exchange,
    .end_count = persistent_end,
};
#else
const struct a2a_method aller_persistent = {
    .name = "persistent",
    .describe = "MPI_Alltoall_init once per count, MPI_Start and MPI_Wait per call",
    .unavailable = "this MPI library has neither MPI_Alltoall_init (MPI 4) nor "
                   "Open MPI's MPIX_Alltoall_init",
};
#endif
