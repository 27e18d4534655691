/* osu_iallgather: MPI_Iallgather latency and how much of it computation can hide;
 * every rank gathers size bytes from every rank. */
#include "coll.h"

static void start(struct coll_ctx *c, MPI_Request *req)
{
    MPI_CHECK(MPI_Iallgather(c->sendbuf, c->msg.count, c->msg.type, c->recvbuf,
                             c->msg.count, c->msg.type, c->comm, req));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Non-blocking Allgather Latency Test",
        .description = "MPI_Iallgather: every rank gathers size bytes from every rank; overlap "
                       "with computation",
        .send = COLL_ONE,
        .recv = COLL_PER_RANK,
        .expect = coll_expect_allgather,
        .start = start,
    };
    coll_main(&bench, argc, argv);
}
