/* osu_ineighbor_allgatherv: MPI_Ineighbor_allgatherv latency and how much of it computation can
 * hide on the -N neighbourhood; as the neighbourhood allgather, with count and displacement
 * arrays. */
#include "coll.h"
#include "coll_neighbor.h"

static void start(struct coll_ctx *c, MPI_Request *req)
{
    const struct coll_nbr *n = c->nbr;
    MPI_CHECK(MPI_Ineighbor_allgatherv(buf_mpi(&c->send), c->msg.count, c->msg.type,
                                       buf_mpi(&c->recv), n->recv_counts, n->recv_displs,
                                       c->msg.type, n->comm, req));
}

int main(int argc, char **argv)
{
    static const struct coll_bench bench = {
        .title = "OSU MPI Non-blocking Neighborhood Allgatherv Latency Test",
        .description = "MPI_Ineighbor_allgatherv on the -N neighbourhood: as the neighbourhood "
                       "allgather, with count and displacement arrays; overlap with computation",
        .send = COLL_ONE,
        .recv = COLL_PER_SOURCE,
        .neighbor = true,
        .vector = true,
        .expect = coll_expect_neighbor_allgather,
        .start = start,
    };
    coll_main(&bench, argc, argv);
}
