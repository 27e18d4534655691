/* osu_neighbor_allgather: MPI_Neighbor_allgather latency on the -N neighbourhood; every rank
 * sends one block of size bytes to each of its destinations and receives one from each of its
 * sources. */
#include "coll.h"
#include "coll_neighbor.h"

static void call(struct coll_ctx *c)
{
    MPI_CHECK(MPI_Neighbor_allgather(buf_mpi(&c->send), c->msg.count, c->msg.type,
                                     buf_mpi(&c->recv), c->msg.count, c->msg.type, c->nbr->comm));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Neighborhood Allgather Latency Test",
        .description = "MPI_Neighbor_allgather on the -N neighbourhood: every rank sends one block "
                       "of size bytes to each destination and receives one from each source",
        .send = COLL_ONE,
        .recv = COLL_PER_SOURCE,
        .neighbor = true,
        .expect = coll_expect_neighbor_allgather,
        .call = call,
    };
    coll_main(&bench, argc, argv);
}
