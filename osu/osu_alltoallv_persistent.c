/* osu_alltoallv_persistent: MPI_Alltoallv_init latency (the request made once per size, outside the
 * timing; MPI_Start and MPI_Wait per call); every rank sends size bytes to every rank, with count
 * and displacement arrays. */
#include "coll.h"
#include "pcoll.h"

static void init(struct coll_ctx *c, MPI_Request *req)
{
    MPI_CHECK(PCOLL_INIT(Alltoallv)(c->sendbuf, c->counts, c->displs, c->msg.type,
                                    c->recvbuf, c->counts, c->displs, c->msg.type, c->comm,
                                    MPI_INFO_NULL, req));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI All-to-Allv Personalized Exchange Persistent Latency Test",
        .description = "MPI_Alltoallv_init once per size, MPI_Start and MPI_Wait per call: every "
                       "rank sends size bytes to every rank, with count and displacement arrays",
        .send = COLL_PER_RANK,
        .recv = COLL_PER_RANK,
        .vector = true,
        .expect = coll_expect_alltoall,
        .init = init,
    };
    coll_main(&bench, argc, argv);
}
