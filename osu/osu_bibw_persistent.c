/* osu_bibw_persistent: osu_bibw with persistent requests: ranks 0 and 1 each
 * start a window of MPI_Recv_init and MPI_Send_init requests (made once per
 * size) with one MPI_Startall and wait for all; bandwidth counts the bytes of
 * both directions. */
#include "pt2pt.h"

static const struct pt2pt_bench bibw_persistent = {
    .prog = {.title = "OSU MPI Bi-Directional Bandwidth Persistent Test",
             .synopsis = OSU_PLACEMENT_SYNOPSIS,
             .description = "Ranks 0 and 1 each start a window (-W) of persistent receives and\n"
                            "sends (MPI_Recv_init/MPI_Send_init per size, one MPI_Startall per\n"
                            "window) and wait for all; reports the aggregate MB/s of both\n"
                            "directions (10^6 bytes). Needs 2 ranks. H|D|MH|MD x2: buffers of\n"
                            "rank 0 and rank 1 on the host, the device or managed memory.",
             PT2PT_BANDWIDTH_DEFAULTS, .placement = true},
    PT2PT_TWO_RANK_BANDWIDTH,
    .size_begin = pt2pt_persistent_both_ways_begin,
    .size_end = pt2pt_persistent_end,
    .exchange = pt2pt_persistent_window_both_ways,
    .values = pt2pt_bibw_values,
};

int main(int argc, char **argv) { pt2pt_main(&bibw_persistent, argc, argv); }
