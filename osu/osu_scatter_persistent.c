/* osu_scatter_persistent: MPI_Scatter_init latency (the request made once per size, outside the
 * timing; MPI_Start and MPI_Wait per call); the root sends a different block of size bytes to every
 * rank. */
#include "coll.h"
#include "pcoll.h"

static void init(struct coll_ctx *c, MPI_Request *req)
{
    MPI_CHECK(PCOLL_INIT(Scatter)(c->sendbuf, c->msg.count, c->msg.type, c->recvbuf,
                                  c->msg.count, c->msg.type, c->root, c->comm, MPI_INFO_NULL, req));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Scatter Persistent Latency Test",
        .description = "MPI_Scatter_init once per size, MPI_Start and MPI_Wait per call: the root "
                       "sends a different block of size bytes to every rank",
        .send = COLL_PER_RANK,
        .recv = COLL_ONE,
        .rooted = true,
        .expect = coll_expect_scatter,
        .init = init,
    };
    coll_main(&bench, argc, argv);
}
