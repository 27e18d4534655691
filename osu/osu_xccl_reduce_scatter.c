/* osu_xccl_reduce_scatter: ncclReduceScatter latency (RCCL's in a HIP build) on device buffers;
 * sum of a vector of size bytes over all ranks, each rank receiving an equal block of size / ranks
 * (rounded down, as OMB 7.4). */
#include "coll.h"
#include "xccl.h"

static void call(struct coll_ctx *c)
{
    xccl_reduce_scatter(c->sendbuf, c->recvbuf, (size_t)c->counts[0], c->elem);
    xccl_sync();
}

int main(int argc, char **argv)
{
    static struct coll_bench bench = {
        .description = "ncclReduceScatter on device buffers (RCCL in a HIP build): sum of a "
                       "vector of size bytes over all ranks, each rank receiving an equal block "
                       "of size / ranks (rounded down)",
        .send = COLL_ONE,
        .recv = COLL_ONE,
        .reduction = true,
        .prepare = coll_prepare_reduce_scatter_block,
        .expect = coll_expect_reduce_scatter,
        .call = call,
        .offload = &xccl_offload,
    };
    bench.title = xccl_title("Reduce_scatter Latency Test");
    coll_main(&bench, argc, argv);
}
