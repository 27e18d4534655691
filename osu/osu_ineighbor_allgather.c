/* osu_ineighbor_allgather: MPI_Ineighbor_allgather latency and how much of it computation can
 * hide on the -N neighbourhood; every rank sends one block of size bytes to each of its
 * destinations and receives one from each of its sources. */
#include "coll.h"
#include "coll_neighbor.h"

static void start(struct coll_ctx *c, MPI_Request *req)
{
    MPI_CHECK(MPI_Ineighbor_allgather(buf_mpi(&c->send), c->msg.count, c->msg.type,
                                      buf_mpi(&c->recv), c->msg.count, c->msg.type, c->nbr->comm,
                                      req));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Non-blocking Neighborhood Allgather Latency Test",
        .description = "MPI_Ineighbor_allgather on the -N neighbourhood: every rank sends one "
                       "block of size bytes to each destination and receives one from each "
                       "source; overlap with computation",
        .send = COLL_ONE,
        .recv = COLL_PER_SOURCE,
        .neighbor = true,
        .expect = coll_expect_neighbor_allgather,
        .start = start,
    };
    coll_main(&bench, argc, argv);
}
