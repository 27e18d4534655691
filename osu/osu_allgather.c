/* osu_allgather: MPI_Allgather latency; every rank gathers size bytes from every rank. */
#include "coll.h"

static void call(struct coll_ctx *c)
{
    MPI_CHECK(MPI_Allgather(c->sendbuf, c->msg.count, c->msg.type, c->recvbuf,
                            c->msg.count, c->msg.type, c->comm));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Allgather Latency Test",
        .description = "MPI_Allgather: every rank gathers size bytes from every rank",
        .send = COLL_ONE,
        .recv = COLL_PER_RANK,
        .expect = coll_expect_allgather,
        .call = call,
    };
    coll_main(&bench, argc, argv);
}
