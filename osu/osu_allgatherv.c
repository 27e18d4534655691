/* osu_allgatherv: MPI_Allgatherv latency; every rank gathers size bytes from every rank, with count
 * and displacement arrays. */
#include "coll.h"

static void call(struct coll_ctx *c)
{
    MPI_CHECK(MPI_Allgatherv(c->sendbuf, c->msg.count, c->msg.type, c->recvbuf, c->counts,
                             c->displs, c->msg.type, c->comm));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Allgatherv Latency Test",
        .description = "MPI_Allgatherv: every rank gathers size bytes from every rank, with count "
                       "and displacement arrays",
        .send = COLL_ONE,
        .recv = COLL_PER_RANK,
        .vector = true,
        .expect = coll_expect_allgather,
        .call = call,
    };
    coll_main(&bench, argc, argv);
}
