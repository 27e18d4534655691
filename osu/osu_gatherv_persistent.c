/* osu_gatherv_persistent: MPI_Gatherv_init latency (the request made once per size, outside the
 * timing; MPI_Start and MPI_Wait per call); the root gathers size bytes from every rank, with count
 * and displacement arrays. */
#include "coll.h"
#include "pcoll.h"

static void init(struct coll_ctx *c, MPI_Request *req)
{
    MPI_CHECK(PCOLL_INIT(Gatherv)(c->sendbuf, c->msg.count, c->msg.type, c->recvbuf,
                                  c->counts, c->displs, c->msg.type, c->root, c->comm,
                                  MPI_INFO_NULL, req));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Gatherv Persistent Latency Test",
        .description = "MPI_Gatherv_init once per size, MPI_Start and MPI_Wait per call: the root "
                       "gathers size bytes from every rank, with count and displacement arrays",
        .send = COLL_ONE,
        .recv = COLL_PER_RANK,
        .rooted = true,
        .vector = true,
        .expect = coll_expect_gather,
        .init = init,
    };
    coll_main(&bench, argc, argv);
}
