/* osu_allreduce_persistent: MPI_Allreduce_init latency (the request made once per size, outside the
 * timing; MPI_Start and MPI_Wait per call); sum of size bytes of elements (-T) over all ranks,
 * result on every rank. */
#include "coll.h"
#include "pcoll.h"

static void init(struct coll_ctx *c, MPI_Request *req)
{
    MPI_CHECK(PCOLL_INIT(Allreduce)(c->sendbuf, c->recvbuf, c->icount, c->elem,
                                    MPI_SUM, c->comm, MPI_INFO_NULL, req));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Allreduce Persistent Latency Test",
        .description = "MPI_Allreduce_init once per size, MPI_Start and MPI_Wait per call: sum of "
                       "size bytes of elements (-T) over all ranks, result on every rank",
        .send = COLL_ONE,
        .recv = COLL_ONE,
        .reduction = true,
        .expect = coll_expect_allreduce,
        .init = init,
    };
    coll_main(&bench, argc, argv);
}
