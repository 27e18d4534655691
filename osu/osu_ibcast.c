/* osu_ibcast: MPI_Ibcast latency and how much of it computation can hide;
 * the root sends size bytes to every rank. */
#include "coll.h"

static void start(struct coll_ctx *c, MPI_Request *req)
{
    MPI_CHECK(MPI_Ibcast(buf_mpi(&c->recv), c->msg.count, c->msg.type, c->root, c->comm, req));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Non-Blocking Broadcast Latency Test",
        .description =
            "MPI_Ibcast: the root sends size bytes to every rank; overlap with computation",
        .send = COLL_NONE,
        .recv = COLL_ONE,
        .rooted = true,
        .fill = coll_fill_bcast,
        .expect = coll_expect_bcast,
        .start = start,
    };
    coll_main(&bench, argc, argv);
}
