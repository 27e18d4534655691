/* osu_xccl_bcast: ncclBroadcast latency (RCCL's in a HIP build) on device buffers, in place as
 * in OMB 7.4; the root sends size bytes to every rank. */
#include "coll.h"
#include "xccl.h"

static void call(struct coll_ctx *c)
{
    xccl_bcast(c->recvbuf, c->count, c->elem, c->root);
    xccl_sync();
}

int main(int argc, char **argv)
{
    static struct coll_bench bench = {
        .description = "ncclBroadcast in place on device buffers (RCCL in a HIP build): the root "
                       "sends size bytes to every rank",
        .send = COLL_NONE,
        .recv = COLL_ONE,
        .rooted = true,
        .fill = coll_fill_bcast,
        .expect = coll_expect_bcast,
        .call = call,
        .offload = &xccl_offload,
    };
    bench.title = xccl_title("Broadcast Latency Test");
    coll_main(&bench, argc, argv);
}
