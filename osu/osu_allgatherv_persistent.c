/* osu_allgatherv_persistent: MPI_Allgatherv_init latency (the request made once per size, outside
 * the timing; MPI_Start and MPI_Wait per call); every rank gathers size bytes from every rank, with
 * count and displacement arrays. */
#include "coll.h"
#include "pcoll.h"

static void init(struct coll_ctx *c, MPI_Request *req)
{
    MPI_CHECK(PCOLL_INIT(Allgatherv)(c->sendbuf, c->msg.count, c->msg.type,
                                     c->recvbuf, c->counts, c->displs, c->msg.type, c->comm,
                                     MPI_INFO_NULL, req));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Allgatherv Persistent Latency Test",
        .description =
            "MPI_Allgatherv_init once per size, MPI_Start and MPI_Wait per call: every rank "
            "gathers size bytes from every rank, with count and displacement arrays",
        .send = COLL_ONE,
        .recv = COLL_PER_RANK,
        .vector = true,
        .expect = coll_expect_allgather,
        .init = init,
    };
    coll_main(&bench, argc, argv);
}
