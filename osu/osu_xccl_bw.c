/* osu_xccl_bw: rank 0 sends a window of ncclSend in one group to rank 1 (RCCL's in a HIP build),
 * on device buffers; once they arrived rank 1 sends one byte back, as in OMB 7.4. Bandwidth is the
 * bytes rank 0 sent per second. */
#include "pt2pt.h"
#include "xccl.h"

static void exchange(struct pt2pt_ctx *c, size_t count)
{
    size_t n = c->size / c->elem_size;
    void *send = c->initiator ? c->send.ptr : NULL, *recv = c->initiator ? NULL : c->recv.ptr;
    for (size_t i = 0; i < count; i++) {
        xccl_window(send, recv, c->message_stride, c->window, n, c->elem, c->peer);
        xccl_sync();
        /* The reply ends the iteration only once the window has arrived. */
        if (c->initiator)
            xccl_recv(c->recv.ptr, 1, MPI_BYTE, c->peer);
        else
            xccl_send(c->send.ptr, 1, MPI_BYTE, c->peer);
        xccl_sync();
    }
}

int main(int argc, char **argv)
{
    static struct pt2pt_bench bw = {
        .prog = {.synopsis = "[options] [D D]",
                 .description = "Rank 0 sends a window (-W) of ncclSend in one group to rank 1\n"
                                "(RCCL in a HIP build) on device buffers and waits for a one-\n"
                                "byte reply; reports MB/s (10^6 bytes). Needs 2 ranks.",
                 PT2PT_BANDWIDTH_DEFAULTS, .placement = true, .offload = &xccl_offload},
        PT2PT_TWO_RANK_BANDWIDTH,
        .setup = pt2pt_one_way_setup,
        .exchange = exchange,
        .values = pt2pt_bw_values,
    };
    bw.prog.title = xccl_title("Bandwidth Test");
    pt2pt_main(&bw, argc, argv);
}
