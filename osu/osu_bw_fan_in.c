/* osu_bw_fan_in: congestion at one node: the ranks of every other node send
 * windows of MPI_Isend at once to the rank of their local index on rank 0's
 * node; bandwidth is all the bytes over the senders' mean time. */
#include "pt2pt_fan.h"

static const struct pt2pt_bench fan_in = {
    .prog = {.title = "OSU MPI Bandwidth Test", /* OMB 7.4's title of both fan tests */
             .synopsis = OSU_PLACEMENT_SYNOPSIS,
             .description = "Fan-in: every rank of nodes 1, 2, ... sends a window (-W) of MPI_Isend\n"
                            "to the rank of its local index on node 0 (rank 0's), all at once;\n"
                            "each receiver takes the windows of all its senders and replies to\n"
                            "each. Reports the bytes of every pair over the senders' mean time,\n"
                            "MB/s (10^6 bytes). Needs 2 nodes or more with as many ranks on each\n"
                            "(--ranks-per-node N: blocks of N ranks as the nodes).\n"
                            "H|D|MH|MD x2: buffers of the senders and of the receivers.",
             PT2PT_BANDWIDTH_DEFAULTS, .placement = true,
             .placement_who = {"senders", "receivers"}},
    PT2PT_FAN_BENCH,
    .setup = pt2pt_fan_in_setup,
};

int main(int argc, char **argv) { pt2pt_main(&fan_in, argc, argv); }
