/* osu_neighbor_alltoallw: MPI_Neighbor_alltoallw latency on the -N neighbourhood; as the
 * neighbourhood alltoall, with count, byte displacement and type arrays. */
#include "coll.h"
#include "coll_neighbor.h"

static void call(struct coll_ctx *c)
{
    const struct coll_nbr *n = c->nbr;
    MPI_CHECK(MPI_Neighbor_alltoallw(buf_mpi(&c->send), n->send_counts, n->send_wdispls,
                                     n->send_types, buf_mpi(&c->recv), n->recv_counts,
                                     n->recv_wdispls, n->recv_types, n->comm));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI All-to-Allw Personalized Exchange Latency Test",
        .description = "MPI_Neighbor_alltoallw on the -N neighbourhood: as the neighbourhood "
                       "alltoall, with count, byte displacement and type arrays",
        .send = COLL_PER_DEST,
        .recv = COLL_PER_SOURCE,
        .neighbor = true,
        .expect = coll_expect_neighbor_alltoall,
        .call = call,
    };
    coll_main(&bench, argc, argv);
}
