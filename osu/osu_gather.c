/* osu_gather: MPI_Gather latency; the root gathers size bytes from every rank. */
#include "coll.h"

static void call(struct coll_ctx *c)
{
    MPI_CHECK(MPI_Gather(c->sendbuf, c->msg.count, c->msg.type, c->recvbuf,
                         c->msg.count, c->msg.type, c->root, c->comm));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Gather Latency Test",
        .description = "MPI_Gather: the root gathers size bytes from every rank",
        .send = COLL_ONE,
        .recv = COLL_PER_RANK,
        .rooted = true,
        .expect = coll_expect_gather,
        .call = call,
    };
    coll_main(&bench, argc, argv);
}
