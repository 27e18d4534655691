/* osu_gatherv: MPI_Gatherv latency; the root gathers size bytes from every rank, with count and
 * displacement arrays. */
#include "coll.h"

static void call(struct coll_ctx *c)
{
    MPI_CHECK(MPI_Gatherv(c->sendbuf, c->msg.count, c->msg.type, c->recvbuf, c->counts,
                          c->displs, c->msg.type, c->root, c->comm));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Gatherv Latency Test",
        .description = "MPI_Gatherv: the root gathers size bytes from every rank, with count and "
                       "displacement arrays",
        .send = COLL_ONE,
        .recv = COLL_PER_RANK,
        .rooted = true,
        .vector = true,
        .expect = coll_expect_gather,
        .call = call,
    };
    coll_main(&bench, argc, argv);
}
