/* osu_xccl_bibw: ranks 0 and 1 both queue a window of ncclSend and ncclRecv in one group (RCCL's
 * in a HIP build) on device buffers, then synchronise the stream; bandwidth counts the bytes of
 * both directions. */
#include "pt2pt.h"
#include "xccl.h"

static void exchange(struct pt2pt_ctx *c, size_t count)
{
    size_t n = c->size / c->elem_size;
    for (size_t i = 0; i < count; i++) {
        xccl_window(c->send.ptr, c->recv.ptr, c->message_stride, c->window, n, c->elem,
                    c->peer);
        xccl_sync();
    }
}

int main(int argc, char **argv)
{
    static struct pt2pt_bench bibw = {
        .prog = {.synopsis = "[options] [D D]",
                 .description = "Ranks 0 and 1 each queue a window (-W) of ncclSend and\n"
                                "ncclRecv in one group (RCCL in a HIP build) on device buffers\n"
                                "and synchronise; reports the aggregate MB/s of both directions\n"
                                "(10^6 bytes). Needs 2 ranks.",
                 PT2PT_BANDWIDTH_DEFAULTS, .placement = true, .offload = &xccl_offload},
        PT2PT_TWO_RANK_BANDWIDTH,
        .exchange = exchange,
        .values = pt2pt_bibw_values,
    };
    bibw.prog.title = xccl_title("Bi-Directional Bandwidth Test");
    pt2pt_main(&bibw, argc, argv);
}
