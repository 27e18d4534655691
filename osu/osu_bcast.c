/* osu_bcast: MPI_Bcast latency; the root sends size bytes to every rank. */
#include "coll.h"

static void call(struct coll_ctx *c)
{
    MPI_CHECK(MPI_Bcast(buf_mpi(&c->recv), c->msg.count, c->msg.type, c->root, c->comm));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Broadcast Latency Test",
        .description = "MPI_Bcast: the root sends size bytes to every rank",
        .send = COLL_NONE,
        .recv = COLL_ONE,
        .rooted = true,
        .fill = coll_fill_bcast,
        .expect = coll_expect_bcast,
        .call = call,
    };
    coll_main(&bench, argc, argv);
}
