/* osu_xccl_reduce: ncclReduce latency (RCCL's in a HIP build) on device buffers; sum of size
 * bytes of elements (-T, default float) over all ranks, result at the root. */
#include "coll.h"
#include "xccl.h"

static void call(struct coll_ctx *c)
{
    xccl_reduce(c->sendbuf, c->recvbuf, c->count, c->elem, c->root);
    xccl_sync();
}

int main(int argc, char **argv)
{
    static struct coll_bench bench = {
        .description = "ncclReduce on device buffers (RCCL in a HIP build): sum of size bytes of "
                       "elements (-T, default float) over all ranks, result at the root",
        .send = COLL_ONE,
        .recv = COLL_ONE,
        .reduction = true,
        .rooted = true,
        .expect = coll_expect_reduce,
        .call = call,
        .offload = &xccl_offload,
    };
    bench.title = xccl_title("Reduce Latency Test");
    coll_main(&bench, argc, argv);
}
