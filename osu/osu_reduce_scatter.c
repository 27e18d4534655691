/* osu_reduce_scatter: MPI_Reduce_scatter latency; sum of a vector of size bytes over all ranks,
 * each rank receiving its part (size / ranks, the first size % ranks elements one more). */
#include "coll.h"

static void call(struct coll_ctx *c)
{
    MPI_CHECK(MPI_Reduce_scatter(c->sendbuf, c->recvbuf, c->counts, c->elem, MPI_SUM,
                                 c->comm));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Reduce_scatter Latency Test",
        .description =
            "MPI_Reduce_scatter: sum of a vector of size bytes over all ranks, each rank receiving "
            "its part (size / ranks, the first size % ranks elements one more)",
        .send = COLL_ONE,
        .recv = COLL_ONE,
        .reduction = true,
        .prepare = coll_prepare_reduce_scatter,
        .expect = coll_expect_reduce_scatter,
        .call = call,
    };
    coll_main(&bench, argc, argv);
}
