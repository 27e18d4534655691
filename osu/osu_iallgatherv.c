/* osu_iallgatherv: MPI_Iallgatherv latency and how much of it computation can hide;
 * every rank gathers size bytes from every rank, with count and displacement arrays. */
#include "coll.h"

static void start(struct coll_ctx *c, MPI_Request *req)
{
    MPI_CHECK(MPI_Iallgatherv(c->sendbuf, c->msg.count, c->msg.type, c->recvbuf, c->counts,
                              c->displs, c->msg.type, c->comm, req));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Non-blocking Allgatherv Latency Test",
        .description = "MPI_Iallgatherv: every rank gathers size bytes from every rank, with count "
                       "and displacement arrays; overlap with computation",
        .send = COLL_ONE,
        .recv = COLL_PER_RANK,
        .vector = true,
        .expect = coll_expect_allgather,
        .start = start,
    };
    coll_main(&bench, argc, argv);
}
