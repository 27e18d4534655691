/* osu_ialltoallw: MPI_Ialltoallw latency and how much of it computation can hide; every rank
 * sends size bytes to every rank, with count, byte displacement and datatype arrays. */
#include "coll.h"

static void start(struct coll_ctx *c, MPI_Request *req)
{
    MPI_CHECK(MPI_Ialltoallw(c->sendbuf, c->counts, c->displs, c->types, c->recvbuf,
                             c->counts, c->displs, c->types, c->comm, req));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Non-blocking All-to-Allw Personalized Exchange Latency Test",
        .description = "MPI_Ialltoallw: every rank sends size bytes to every rank, with count, "
                       "byte displacement and datatype arrays; overlap with computation",
        .send = COLL_PER_RANK,
        .recv = COLL_PER_RANK,
        .vector = true,
        .prepare = coll_prepare_alltoallw,
        .expect = coll_expect_alltoall,
        .start = start,
    };
    coll_main(&bench, argc, argv);
}
