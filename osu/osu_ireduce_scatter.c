/* osu_ireduce_scatter: MPI_Ireduce_scatter latency and how much of it computation can hide;
 * sum of a vector of size bytes over all ranks, each rank receiving its part (size / ranks, the
 * first size % ranks elements one more). */
#include "coll.h"

static void start(struct coll_ctx *c, MPI_Request *req)
{
    MPI_CHECK(MPI_Ireduce_scatter(c->sendbuf, c->recvbuf, c->counts, c->elem, MPI_SUM,
                                  c->comm, req));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Non-blocking Reduce_scatter Latency Test",
        .description = "MPI_Ireduce_scatter: sum of a vector of size bytes over all ranks, each "
                       "rank receiving its part (size / ranks, the first size % ranks elements one "
                       "more); overlap with computation",
        .send = COLL_ONE,
        .recv = COLL_ONE,
        .reduction = true,
        .prepare = coll_prepare_reduce_scatter,
        .expect = coll_expect_reduce_scatter,
        .start = start,
    };
    coll_main(&bench, argc, argv);
}
