/* osu_alltoall: MPI_Alltoall latency; every rank sends size bytes to every rank. */
#include "coll.h"

static void call(struct coll_ctx *c)
{
    MPI_CHECK(MPI_Alltoall(c->sendbuf, c->msg.count, c->msg.type, c->recvbuf,
                           c->msg.count, c->msg.type, c->comm));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI All-to-All Personalized Exchange Latency Test",
        .description = "MPI_Alltoall: every rank sends size bytes to every rank",
        .send = COLL_PER_RANK,
        .recv = COLL_PER_RANK,
        .expect = coll_expect_alltoall,
        .call = call,
    };
    coll_main(&bench, argc, argv);
}
