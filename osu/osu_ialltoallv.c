/* osu_ialltoallv: MPI_Ialltoallv latency and how much of it computation can hide;
 * every rank sends size bytes to every rank, with count and displacement arrays. */
#include "coll.h"

static void start(struct coll_ctx *c, MPI_Request *req)
{
    MPI_CHECK(MPI_Ialltoallv(c->sendbuf, c->counts, c->displs, c->msg.type, c->recvbuf,
                             c->counts, c->displs, c->msg.type, c->comm, req));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Non-blocking All-to-Allv Personalized Exchange Latency Test",
        .description = "MPI_Ialltoallv: every rank sends size bytes to every rank, with count and "
                       "displacement arrays; overlap with computation",
        .send = COLL_PER_RANK,
        .recv = COLL_PER_RANK,
        .vector = true,
        .expect = coll_expect_alltoall,
        .start = start,
    };
    coll_main(&bench, argc, argv);
}
