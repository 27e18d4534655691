/* osu_bibw: ranks 0 and 1 both send a window of MPI_Isend to each other and
 * wait for all; bandwidth counts the bytes of both directions. */
#include "pt2pt.h"

static const struct pt2pt_bench bibw = {
    .prog = {.title = "OSU MPI Bi-Directional Bandwidth Test",
             .synopsis = OSU_PLACEMENT_SYNOPSIS,
             .description = "Ranks 0 and 1 each post a window (-W) of MPI_Irecv and MPI_Isend\n"
                            "and wait for all; reports the aggregate MB/s of both directions\n"
                            "(10^6 bytes). Needs 2 ranks.\n"
                            "H|D|MH|MD x2: buffers of rank 0 and rank 1 on the host, the device or\n"
                            "managed memory (preferred on host or device).",
             PT2PT_BANDWIDTH_DEFAULTS, .placement = true},
    PT2PT_TWO_RANK_BANDWIDTH,
    .exchange = pt2pt_window_both_ways,
    .values = pt2pt_bibw_values,
};

int main(int argc, char **argv) { pt2pt_main(&bibw, argc, argv); }
