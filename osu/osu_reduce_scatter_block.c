/* osu_reduce_scatter_block: MPI_Reduce_scatter_block latency; sum of a vector of size bytes over
 * all ranks, each rank receiving an equal block of size / ranks (rounded down, as OMB). */
#include "coll.h"

static void call(struct coll_ctx *c)
{
    MPI_CHECK(MPI_Reduce_scatter_block(c->sendbuf, c->recvbuf, c->counts[0], c->elem,
                                       MPI_SUM, c->comm));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Reduce_scatter_block Latency Test",
        .description = "MPI_Reduce_scatter_block: sum of a vector of size bytes over all ranks, "
                       "each rank receiving an equal block of size / ranks (rounded down)",
        .send = COLL_ONE,
        .recv = COLL_ONE,
        .reduction = true,
        .prepare = coll_prepare_reduce_scatter_block,
        .expect = coll_expect_reduce_scatter,
        .call = call,
    };
    coll_main(&bench, argc, argv);
}
