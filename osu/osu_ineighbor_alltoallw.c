/* osu_ineighbor_alltoallw: MPI_Ineighbor_alltoallw latency and how much of it computation can
 * hide on the -N neighbourhood; as the neighbourhood alltoall, with count, byte displacement and
 * type arrays. */
#include "coll.h"
#include "coll_neighbor.h"

static void start(struct coll_ctx *c, MPI_Request *req)
{
    const struct coll_nbr *n = c->nbr;
    MPI_CHECK(MPI_Ineighbor_alltoallw(buf_mpi(&c->send), n->send_counts, n->send_wdispls,
                                      n->send_types, buf_mpi(&c->recv), n->recv_counts,
                                      n->recv_wdispls, n->recv_types, n->comm, req));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Non-blocking Neighborhood Alltoallw Latency Test",
        .description = "MPI_Ineighbor_alltoallw on the -N neighbourhood: as the neighbourhood "
                       "alltoall, with count, byte displacement and type arrays; overlap with "
                       "computation",
        .send = COLL_PER_DEST,
        .recv = COLL_PER_SOURCE,
        .neighbor = true,
        .expect = coll_expect_neighbor_alltoall,
        .start = start,
    };
    coll_main(&bench, argc, argv);
}
