/* osu_scatterv: MPI_Scatterv latency; the root sends a different block of size bytes to every rank,
 * with count and displacement arrays. */
#include "coll.h"

static void call(struct coll_ctx *c)
{
    MPI_CHECK(MPI_Scatterv(c->sendbuf, c->counts, c->displs, c->msg.type, c->recvbuf,
                           c->msg.count, c->msg.type, c->root, c->comm));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Scatterv Latency Test",
        .description = "MPI_Scatterv: the root sends a different block of size bytes to every "
                       "rank, with count and displacement arrays",
        .send = COLL_PER_RANK,
        .recv = COLL_ONE,
        .rooted = true,
        .vector = true,
        .expect = coll_expect_scatter,
        .call = call,
    };
    coll_main(&bench, argc, argv);
}
