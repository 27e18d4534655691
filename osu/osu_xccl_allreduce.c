/* osu_xccl_allreduce: ncclAllReduce latency (RCCL's in a HIP build) on device buffers; sum
 * of size bytes of elements (-T, default float) over all ranks, result on every rank. */
#include "coll.h"
#include "xccl.h"

static void call(struct coll_ctx *c)
{
    xccl_allreduce(c->sendbuf, c->recvbuf, c->count, c->elem);
    xccl_sync();
}

int main(int argc, char **argv)
{
    static struct coll_bench bench = {
        .description = "ncclAllReduce on device buffers (RCCL in a HIP build): sum of size bytes "
                       "of elements (-T, default float) over all ranks, result on every rank",
        .send = COLL_ONE,
        .recv = COLL_ONE,
        .reduction = true,
        .expect = coll_expect_allreduce,
        .call = call,
        .offload = &xccl_offload,
    };
    bench.title = xccl_title("Allreduce Latency Test");
    coll_main(&bench, argc, argv);
}
