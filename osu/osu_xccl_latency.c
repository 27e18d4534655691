/* osu_xccl_latency: ncclSend/ncclRecv ping-pong between ranks 0 and 1 on device buffers (RCCL's
 * in a HIP build), the stream synchronised after each call as in OMB 7.4; one-way latency is half
 * the round trip. */
#include "pt2pt.h"
#include "xccl.h"

/* OMB 7.4's heading of its xccl latency. */
static const char *const omb_columns[1] = {"Latency (us)"};

static void exchange(struct pt2pt_ctx *c, size_t count)
{
    size_t n = c->size / c->elem_size;
    for (size_t i = 0; i < count; i++) {
        if (c->initiator) {
            xccl_send(c->send.ptr, n, c->elem, c->peer);
            xccl_sync();
            xccl_recv(c->recv.ptr, n, c->elem, c->peer);
            xccl_sync();
        } else {
            xccl_recv(c->recv.ptr, n, c->elem, c->peer);
            xccl_sync();
            xccl_send(c->send.ptr, n, c->elem, c->peer);
            xccl_sync();
        }
    }
}

int main(int argc, char **argv)
{
    static struct pt2pt_bench latency = {
        .prog = {.synopsis = "[options] [D D]",
                 .description = "Ping-pong between ranks 0 and 1 with ncclSend/ncclRecv (RCCL\n"
                                "in a HIP build) on device buffers, the stream synchronised\n"
                                "after each; reports the one-way latency (half the round trip).\n"
                                "Needs 2 ranks.",
                 PT2PT_LATENCY_DEFAULTS, .placement = true, .offload = &xccl_offload},
        PT2PT_TWO_RANK_LATENCY,
        .omb_columns = omb_columns,
        .exchange = exchange,
    };
    latency.prog.title = xccl_title("Latency Test");
    pt2pt_main(&latency, argc, argv);
}
