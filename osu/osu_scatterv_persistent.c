/* osu_scatterv_persistent: MPI_Scatterv_init latency (the request made once per size, outside the
 * timing; MPI_Start and MPI_Wait per call); the root sends a different block of size bytes to every
 * rank, with count and displacement arrays. */
#include "coll.h"
#include "pcoll.h"

static void init(struct coll_ctx *c, MPI_Request *req)
{
    MPI_CHECK(PCOLL_INIT(Scatterv)(c->sendbuf, c->counts, c->displs, c->msg.type,
                                   c->recvbuf, c->msg.count, c->msg.type, c->root, c->comm,
                                   MPI_INFO_NULL, req));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Scatterv Persistent Latency Test",
        .description =
            "MPI_Scatterv_init once per size, MPI_Start and MPI_Wait per call: the root sends a "
            "different block of size bytes to every rank, with count and displacement arrays",
        .send = COLL_PER_RANK,
        .recv = COLL_ONE,
        .rooted = true,
        .vector = true,
        .expect = coll_expect_scatter,
        .init = init,
    };
    coll_main(&bench, argc, argv);
}
