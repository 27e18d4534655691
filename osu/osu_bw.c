/* osu_bw: rank 0 sends a window of back-to-back MPI_Isend to rank 1, which
 * replies once all arrived; bandwidth is the bytes rank 0 sent per second. */
#include "pt2pt.h"

static const struct pt2pt_bench bw = {
    .prog = {.title = "OSU MPI Bandwidth Test",
             .synopsis = OSU_PLACEMENT_SYNOPSIS,
             .description = "Rank 0 sends a window (-W) of back-to-back MPI_Isend to rank 1 and\n"
                            "waits for a short reply; reports MB/s (10^6 bytes). Needs 2 ranks.\n"
                            "H|D|MH|MD x2: buffers of rank 0 and rank 1 on the host, the device or\n"
                            "managed memory (preferred on host or device).",
             PT2PT_BANDWIDTH_DEFAULTS, .placement = true},
    PT2PT_TWO_RANK_BANDWIDTH,
    .setup = pt2pt_one_way_setup,
    .exchange = pt2pt_window_one_way,
    .values = pt2pt_bw_values,
};

int main(int argc, char **argv) { pt2pt_main(&bw, argc, argv); }
