/* osu_iscatter: MPI_Iscatter latency and how much of it computation can hide;
 * the root sends a different block of size bytes to every rank. */
#include "coll.h"

static void start(struct coll_ctx *c, MPI_Request *req)
{
    MPI_CHECK(MPI_Iscatter(c->sendbuf, c->msg.count, c->msg.type, c->recvbuf,
                           c->msg.count, c->msg.type, c->root, c->comm, req));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Non-blocking Scatter Latency Test",
        .description = "MPI_Iscatter: the root sends a different block of size bytes to every "
                       "rank; overlap with computation",
        .send = COLL_PER_RANK,
        .recv = COLL_ONE,
        .rooted = true,
        .expect = coll_expect_scatter,
        .start = start,
    };
    coll_main(&bench, argc, argv);
}
