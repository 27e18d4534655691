/* osu_xccl_alltoall: all-to-all latency on device buffers as OMB 7.4 makes it with NCCL (RCCL
 * in a HIP build): one group of an ncclSend to and an ncclRecv from every rank, size bytes each. */
#include "coll.h"
#include "xccl.h"

static void call(struct coll_ctx *c)
{
    xccl_alltoall(c->sendbuf, c->recvbuf, c->count, c->elem);
    xccl_sync();
}

int main(int argc, char **argv)
{
    static struct coll_bench bench = {
        .description = "one group of ncclSend and ncclRecv with every rank on device buffers "
                       "(RCCL in a HIP build): every rank sends size bytes to every rank",
        .send = COLL_PER_RANK,
        .recv = COLL_PER_RANK,
        .expect = coll_expect_alltoall,
        .call = call,
        .offload = &xccl_offload,
    };
    bench.title = xccl_title("All-to-All Personalized Exchange Latency Test");
    coll_main(&bench, argc, argv);
}
