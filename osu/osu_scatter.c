/* osu_scatter: MPI_Scatter latency; the root sends a different block of size bytes to every rank.
 */
#include "coll.h"

static void call(struct coll_ctx *c)
{
    MPI_CHECK(MPI_Scatter(c->sendbuf, c->msg.count, c->msg.type, c->recvbuf,
                          c->msg.count, c->msg.type, c->root, c->comm));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Scatter Latency Test",
        .description = "MPI_Scatter: the root sends a different block of size bytes to every rank",
        .send = COLL_PER_RANK,
        .recv = COLL_ONE,
        .rooted = true,
        .expect = coll_expect_scatter,
        .call = call,
    };
    coll_main(&bench, argc, argv);
}
