/* osu_barrier: MPI_Barrier latency; synchronisation of all ranks; no data, no sizes. */
#include "coll.h"

static void call(struct coll_ctx *c)
{
    MPI_CHECK(MPI_Barrier(c->comm));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Barrier Latency Test",
        .description = "MPI_Barrier: synchronisation of all ranks; no data, no sizes",
        .send = COLL_NONE,
        .recv = COLL_NONE,
        .no_data = true,
        .call = call,
    };
    coll_main(&bench, argc, argv);
}
