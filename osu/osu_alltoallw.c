/* osu_alltoallw: MPI_Alltoallw latency; every rank sends size bytes to every rank, with count,
 * byte displacement and datatype arrays. */
#include "coll.h"

static void call(struct coll_ctx *c)
{
    MPI_CHECK(MPI_Alltoallw(c->sendbuf, c->counts, c->displs, c->types, c->recvbuf,
                            c->counts, c->displs, c->types, c->comm));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI All-to-Allw Personalized Exchange Latency Test",
        .description = "MPI_Alltoallw: every rank sends size bytes to every rank, with count, "
                       "byte displacement and datatype arrays",
        .send = COLL_PER_RANK,
        .recv = COLL_PER_RANK,
        .vector = true,
        .prepare = coll_prepare_alltoallw,
        .expect = coll_expect_alltoall,
        .call = call,
    };
    coll_main(&bench, argc, argv);
}
