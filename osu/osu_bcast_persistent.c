/* osu_bcast_persistent: MPI_Bcast_init latency (the request made once per size, outside the timing;
 * MPI_Start and MPI_Wait per call); the root sends size bytes to every rank. */
#include "coll.h"
#include "pcoll.h"

static void init(struct coll_ctx *c, MPI_Request *req)
{
    MPI_CHECK(PCOLL_INIT(Bcast)(buf_mpi(&c->recv), c->msg.count, c->msg.type, c->root, c->comm,
                                MPI_INFO_NULL, req));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Broadcast Persistent Latency Test",
        .description = "MPI_Bcast_init once per size, MPI_Start and MPI_Wait per call: the root "
                       "sends size bytes to every rank",
        .send = COLL_NONE,
        .recv = COLL_ONE,
        .rooted = true,
        .fill = coll_fill_bcast,
        .expect = coll_expect_bcast,
        .init = init,
    };
    coll_main(&bench, argc, argv);
}
