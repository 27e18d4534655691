/* osu_ibarrier: MPI_Ibarrier latency and how much of it computation can hide;
 * synchronisation of all ranks; no data, no sizes. */
#include "coll.h"

static void start(struct coll_ctx *c, MPI_Request *req)
{
    MPI_CHECK(MPI_Ibarrier(c->comm, req));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Non-blocking Barrier Latency Test",
        .description = "MPI_Ibarrier: synchronisation of all ranks; no data, no sizes; overlap "
                       "with computation",
        .send = COLL_NONE,
        .recv = COLL_NONE,
        .no_data = true,
        .start = start,
    };
    coll_main(&bench, argc, argv);
}
