/* osu_bw_persistent: osu_bw with persistent requests: rank 0 starts a window
 * of MPI_Send_init requests (made once per size) with MPI_Startall, rank 1
 * its MPI_Recv_init requests, and replies once all arrived; bandwidth is the
 * bytes rank 0 sent per second. */
#include "pt2pt.h"

static const struct pt2pt_bench bw_persistent = {
    .prog = {.title = "OSU MPI Bandwidth Persistent Test",
             .synopsis = OSU_PLACEMENT_SYNOPSIS,
             .description = "Rank 0 starts a window (-W) of persistent sends (MPI_Send_init per\n"
                            "size, MPI_Startall per window) to rank 1, which starts as many\n"
                            "persistent receives and sends a short reply; reports MB/s (10^6\n"
                            "bytes). Needs 2 ranks. H|D|MH|MD x2: buffers of rank 0 and rank 1\n"
                            "on the host, the device or managed memory.",
             PT2PT_BANDWIDTH_DEFAULTS, .placement = true},
    PT2PT_TWO_RANK_BANDWIDTH,
    .setup = pt2pt_one_way_setup,
    .size_begin = pt2pt_persistent_one_way_begin,
    .size_end = pt2pt_persistent_end,
    .exchange = pt2pt_persistent_window_one_way,
    .values = pt2pt_bw_values,
};

int main(int argc, char **argv) { pt2pt_main(&bw_persistent, argc, argv); }
