/* osu_allgather_persistent: MPI_Allgather_init latency (the request made once per size, outside the
 * timing; MPI_Start and MPI_Wait per call); every rank gathers size bytes from every rank. */
#include "coll.h"
#include "pcoll.h"

static void init(struct coll_ctx *c, MPI_Request *req)
{
    MPI_CHECK(PCOLL_INIT(Allgather)(c->sendbuf, c->msg.count, c->msg.type, c->recvbuf,
                                    c->msg.count, c->msg.type, c->comm, MPI_INFO_NULL, req));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Allgather Persistent Latency Test",
        .description = "MPI_Allgather_init once per size, MPI_Start and MPI_Wait per call: every "
                       "rank gathers size bytes from every rank",
        .send = COLL_ONE,
        .recv = COLL_PER_RANK,
        .expect = coll_expect_allgather,
        .init = init,
    };
    coll_main(&bench, argc, argv);
}
