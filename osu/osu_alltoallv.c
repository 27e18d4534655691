/* osu_alltoallv: MPI_Alltoallv latency; every rank sends size bytes to every rank, with count and
 * displacement arrays. */
#include "coll.h"

static void call(struct coll_ctx *c)
{
    MPI_CHECK(MPI_Alltoallv(c->sendbuf, c->counts, c->displs, c->msg.type, c->recvbuf,
                            c->counts, c->displs, c->msg.type, c->comm));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI All-to-Allv Personalized Exchange Latency Test",
        .description = "MPI_Alltoallv: every rank sends size bytes to every rank, with count and "
                       "displacement arrays",
        .send = COLL_PER_RANK,
        .recv = COLL_PER_RANK,
        .vector = true,
        .expect = coll_expect_alltoall,
        .call = call,
    };
    coll_main(&bench, argc, argv);
}
