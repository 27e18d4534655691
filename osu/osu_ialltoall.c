/* osu_ialltoall: MPI_Ialltoall latency and how much of it computation can hide;
 * every rank sends size bytes to every rank. */
#include "coll.h"

static void start(struct coll_ctx *c, MPI_Request *req)
{
    MPI_CHECK(MPI_Ialltoall(c->sendbuf, c->msg.count, c->msg.type, c->recvbuf,
                            c->msg.count, c->msg.type, c->comm, req));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Non-blocking All-to-All Latency Test",
        .description =
            "MPI_Ialltoall: every rank sends size bytes to every rank; overlap with computation",
        .send = COLL_PER_RANK,
        .recv = COLL_PER_RANK,
        .expect = coll_expect_alltoall,
        .start = start,
    };
    coll_main(&bench, argc, argv);
}
