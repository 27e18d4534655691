/* osu_barrier_persistent: MPI_Barrier_init latency (the request made once, outside the timing;
 * MPI_Start and MPI_Wait per call); synchronisation of all ranks; no data, no sizes. */
#include "coll.h"
#include "pcoll.h"

static void init(struct coll_ctx *c, MPI_Request *req)
{
    MPI_CHECK(PCOLL_INIT(Barrier)(c->comm, MPI_INFO_NULL, req));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Barrier Persistent Latency Test",
        .description = "MPI_Barrier_init once per size, MPI_Start and MPI_Wait per call: "
                       "synchronisation of all ranks; no data, no sizes",
        .send = COLL_NONE,
        .recv = COLL_NONE,
        .no_data = true,
        .init = init,
    };
    coll_main(&bench, argc, argv);
}
