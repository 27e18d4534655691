/* osu_reduce_persistent: MPI_Reduce_init latency (the request made once per size, outside the
 * timing; MPI_Start and MPI_Wait per call); sum of size bytes of elements (-T) over all ranks,
 * result at the root. */
#include "coll.h"
#include "pcoll.h"

static void init(struct coll_ctx *c, MPI_Request *req)
{
    MPI_CHECK(PCOLL_INIT(Reduce)(c->sendbuf, c->recvbuf, c->icount, c->elem, MPI_SUM,
                                 c->root, c->comm, MPI_INFO_NULL, req));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Reduce Persistent Latency Test",
        .description = "MPI_Reduce_init once per size, MPI_Start and MPI_Wait per call: sum of "
                       "size bytes of elements (-T) over all ranks, result at the root",
        .send = COLL_ONE,
        .recv = COLL_ONE,
        .reduction = true,
        .rooted = true,
        .expect = coll_expect_reduce,
        .init = init,
    };
    coll_main(&bench, argc, argv);
}
