/* osu_xccl_allgather: ncclAllGather latency (RCCL's in a HIP build) on device buffers; every
 * rank gathers size bytes from every rank. */
#include "coll.h"
#include "xccl.h"

static void call(struct coll_ctx *c)
{
    xccl_allgather(c->sendbuf, c->recvbuf, c->count, c->elem);
    xccl_sync();
}

int main(int argc, char **argv)
{
    static struct coll_bench bench = {
        .description = "ncclAllGather on device buffers (RCCL in a HIP build): every rank gathers "
                       "size bytes from every rank",
        .send = COLL_ONE,
        .recv = COLL_PER_RANK,
        .expect = coll_expect_allgather,
        .call = call,
        .offload = &xccl_offload,
    };
    bench.title = xccl_title("Allgather Latency Test");
    coll_main(&bench, argc, argv);
}
