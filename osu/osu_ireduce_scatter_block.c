/* osu_ireduce_scatter_block: MPI_Ireduce_scatter_block latency and how much of it computation can
 * hide; sum of a vector of size bytes over all ranks, each rank receiving an equal block of
 * size / ranks (rounded down, as OMB). */
#include "coll.h"

static void start(struct coll_ctx *c, MPI_Request *req)
{
    MPI_CHECK(MPI_Ireduce_scatter_block(c->sendbuf, c->recvbuf, c->counts[0],
                                        c->elem, MPI_SUM, c->comm, req));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Non-blocking Reduce_scatter_block Latency Test",
        .description = "MPI_Ireduce_scatter_block: sum of a vector of size bytes over all ranks, "
                       "each rank receiving an equal block of size / ranks (rounded down); "
                       "overlap with computation",
        .send = COLL_ONE,
        .recv = COLL_ONE,
        .reduction = true,
        .prepare = coll_prepare_reduce_scatter_block,
        .expect = coll_expect_reduce_scatter,
        .start = start,
    };
    coll_main(&bench, argc, argv);
}
