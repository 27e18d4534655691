/* osu_iscatterv: MPI_Iscatterv latency and how much of it computation can hide;
 * the root sends a different block of size bytes to every rank, with count and displacement arrays.
 */
#include "coll.h"

static void start(struct coll_ctx *c, MPI_Request *req)
{
    MPI_CHECK(MPI_Iscatterv(c->sendbuf, c->counts, c->displs, c->msg.type, c->recvbuf,
                            c->msg.count, c->msg.type, c->root, c->comm, req));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Non-blocking Scatterv Latency Test",
        .description = "MPI_Iscatterv: the root sends a different block of size bytes to every "
                       "rank, with count and displacement arrays; overlap with computation",
        .send = COLL_PER_RANK,
        .recv = COLL_ONE,
        .rooted = true,
        .vector = true,
        .expect = coll_expect_scatter,
        .start = start,
    };
    coll_main(&bench, argc, argv);
}
