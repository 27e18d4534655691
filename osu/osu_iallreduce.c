/* osu_iallreduce: MPI_Iallreduce latency and how much of it computation can hide;
 * sum of size bytes of elements (-T) over all ranks, result on every rank. */
#include "coll.h"

static void start(struct coll_ctx *c, MPI_Request *req)
{
    MPI_CHECK(MPI_Iallreduce(c->sendbuf, c->recvbuf, c->icount, c->elem, MPI_SUM,
                             c->comm, req));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Non-blocking Allreduce Latency Test",
        .description = "MPI_Iallreduce: sum of size bytes of elements (-T) over all ranks, result "
                       "on every rank; overlap with computation",
        .send = COLL_ONE,
        .recv = COLL_ONE,
        .reduction = true,
        .expect = coll_expect_allreduce,
        .start = start,
    };
    coll_main(&bench, argc, argv);
}
