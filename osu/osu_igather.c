/* osu_igather: MPI_Igather latency and how much of it computation can hide;
 * the root gathers size bytes from every rank. */
#include "coll.h"

static void start(struct coll_ctx *c, MPI_Request *req)
{
    MPI_CHECK(MPI_Igather(c->sendbuf, c->msg.count, c->msg.type, c->recvbuf,
                          c->msg.count, c->msg.type, c->root, c->comm, req));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Non-blocking Gather Latency Test",
        .description =
            "MPI_Igather: the root gathers size bytes from every rank; overlap with computation",
        .send = COLL_ONE,
        .recv = COLL_PER_RANK,
        .rooted = true,
        .expect = coll_expect_gather,
        .start = start,
    };
    coll_main(&bench, argc, argv);
}
