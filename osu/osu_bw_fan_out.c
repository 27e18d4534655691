/* osu_bw_fan_out: congestion out of one node: each rank of rank 0's node
 * sends windows of MPI_Isend at once to the rank of its local index on every
 * other node; bandwidth is all the bytes over the senders' mean time. */
#include "pt2pt_fan.h"

static const struct pt2pt_bench fan_out = {
    .prog = {.title = "OSU MPI Bandwidth Test", /* OMB 7.4's title of both fan tests */
             .synopsis = OSU_PLACEMENT_SYNOPSIS,
             .description = "Fan-out: every rank of node 0 (rank 0's) sends a window (-W) of\n"
                            "MPI_Isend to the rank of its local index on each other node, all at\n"
                            "once, and waits for each one's reply. Reports the bytes of every\n"
                            "pair over the senders' mean time, MB/s (10^6 bytes). Needs 2 nodes\n"
                            "or more with as many ranks on each (--ranks-per-node N: blocks of N\n"
                            "ranks as the nodes).\n"
                            "H|D|MH|MD x2: buffers of the senders and of the receivers.",
             PT2PT_BANDWIDTH_DEFAULTS, .placement = true,
             .placement_who = {"senders", "receivers"}},
    PT2PT_FAN_BENCH,
    .setup = pt2pt_fan_out_setup,
};

int main(int argc, char **argv) { pt2pt_main(&fan_out, argc, argv); }
