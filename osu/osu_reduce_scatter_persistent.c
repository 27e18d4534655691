/* osu_reduce_scatter_persistent: MPI_Reduce_scatter_init latency (the request made once per size,
 * outside the timing; MPI_Start and MPI_Wait per call); sum of a vector of size bytes over all
 * ranks, each rank receiving its part (size / ranks, the first size % ranks elements one more). */
#include "coll.h"
#include "pcoll.h"

static void init(struct coll_ctx *c, MPI_Request *req)
{
    MPI_CHECK(PCOLL_INIT(Reduce_scatter)(c->sendbuf, c->recvbuf, c->counts, c->elem,
                                         MPI_SUM, c->comm, MPI_INFO_NULL, req));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Reduce_scatter Persistent Latency Test",
        .description = "MPI_Reduce_scatter_init once per size, MPI_Start and MPI_Wait per call: "
                       "sum of a vector of size bytes over all ranks, each rank receiving its part "
                       "(size / ranks, the first size % ranks elements one more)",
        .send = COLL_ONE,
        .recv = COLL_ONE,
        .reduction = true,
        .prepare = coll_prepare_reduce_scatter,
        .expect = coll_expect_reduce_scatter,
        .init = init,
    };
    coll_main(&bench, argc, argv);
}
