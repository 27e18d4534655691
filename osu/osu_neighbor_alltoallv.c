/* osu_neighbor_alltoallv: MPI_Neighbor_alltoallv latency on the -N neighbourhood; as the
 * neighbourhood alltoall, with count and displacement arrays. */
#include "coll.h"
#include "coll_neighbor.h"

static void call(struct coll_ctx *c)
{
    const struct coll_nbr *n = c->nbr;
    MPI_CHECK(MPI_Neighbor_alltoallv(buf_mpi(&c->send), n->send_counts, n->send_displs, c->msg.type,
                                     buf_mpi(&c->recv), n->recv_counts, n->recv_displs, c->msg.type,
                                     n->comm));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Neighborhood All-to-Allv Latency Test",
        .description = "MPI_Neighbor_alltoallv on the -N neighbourhood: as the neighbourhood "
                       "alltoall, with count and displacement arrays",
        .send = COLL_PER_DEST,
        .recv = COLL_PER_SOURCE,
        .neighbor = true,
        .vector = true,
        .expect = coll_expect_neighbor_alltoall,
        .call = call,
    };
    coll_main(&bench, argc, argv);
}
