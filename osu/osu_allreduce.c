/* osu_allreduce: MPI_Allreduce latency; sum of size bytes of elements (-T) over all ranks, result
 * on every rank. */
#include "coll.h"

static void call(struct coll_ctx *c)
{
    MPI_CHECK(
        MPI_Allreduce(c->sendbuf, c->recvbuf, c->icount, c->elem, MPI_SUM, c->comm));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Allreduce Latency Test",
        .description = "MPI_Allreduce: sum of size bytes of elements (-T) over all ranks, result "
                       "on every rank",
        .send = COLL_ONE,
        .recv = COLL_ONE,
        .reduction = true,
        .expect = coll_expect_allreduce,
        .call = call,
    };
    coll_main(&bench, argc, argv);
}
