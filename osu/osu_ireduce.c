/* osu_ireduce: MPI_Ireduce latency and how much of it computation can hide;
 * sum of size bytes of elements (-T) over all ranks, result at the root. */
#include "coll.h"

static void start(struct coll_ctx *c, MPI_Request *req)
{
    MPI_CHECK(MPI_Ireduce(c->sendbuf, c->recvbuf, c->icount, c->elem, MPI_SUM,
                          c->root, c->comm, req));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Non-blocking Reduce Latency Test",
        .description = "MPI_Ireduce: sum of size bytes of elements (-T) over all ranks, result at "
                       "the root; overlap with computation",
        .send = COLL_ONE,
        .recv = COLL_ONE,
        .reduction = true,
        .rooted = true,
        .expect = coll_expect_reduce,
        .start = start,
    };
    coll_main(&bench, argc, argv);
}
