/* osu_neighbor_allgatherv: MPI_Neighbor_allgatherv latency on the -N neighbourhood; as the
 * neighbourhood allgather, with count and displacement arrays. */
#include "coll.h"
#include "coll_neighbor.h"

static void call(struct coll_ctx *c)
{
    const struct coll_nbr *n = c->nbr;
    MPI_CHECK(MPI_Neighbor_allgatherv(buf_mpi(&c->send), c->msg.count, c->msg.type,
                                      buf_mpi(&c->recv), n->recv_counts, n->recv_displs,
                                      c->msg.type, n->comm));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Neighborhood Allgatherv Latency Test",
        .description = "MPI_Neighbor_allgatherv on the -N neighbourhood: as the neighbourhood "
                       "allgather, with count and displacement arrays",
        .send = COLL_ONE,
        .recv = COLL_PER_SOURCE,
        .neighbor = true,
        .vector = true,
        .expect = coll_expect_neighbor_allgather,
        .call = call,
    };
    coll_main(&bench, argc, argv);
}
