/* osu_reduce: MPI_Reduce latency; sum of size bytes of elements (-T) over all ranks, result at the
 * root. */
#include "coll.h"

static void call(struct coll_ctx *c)
{
    MPI_CHECK(MPI_Reduce(c->sendbuf, c->recvbuf, c->icount, c->elem, MPI_SUM, c->root,
                         c->comm));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Reduce Latency Test",
        .description =
            "MPI_Reduce: sum of size bytes of elements (-T) over all ranks, result at the root",
        .send = COLL_ONE,
        .recv = COLL_ONE,
        .reduction = true,
        .rooted = true,
        .expect = coll_expect_reduce,
        .call = call,
    };
    coll_main(&bench, argc, argv);
}
