/* osu_latency: blocking MPI_Send/MPI_Recv ping-pong between ranks 0 and 1;
 * one-way latency is half the round trip. */
#include "pt2pt.h"

static const struct pt2pt_bench latency = {
    .prog = {.title = "OSU MPI Latency Test",
             .synopsis = OSU_PLACEMENT_SYNOPSIS,
             .description = "Ping-pong between ranks 0 and 1 with blocking MPI_Send/MPI_Recv;\n"
                            "reports the one-way latency (half the round trip). Needs 2 ranks.\n"
                            "H|D|MH|MD x2: buffers of rank 0 and rank 1 on the host, the device or\n"
                            "managed memory (preferred on host or device).",
             PT2PT_LATENCY_DEFAULTS, .placement = true},
    PT2PT_TWO_RANK_LATENCY,
    .exchange = pt2pt_ping_pong,
};

int main(int argc, char **argv) { pt2pt_main(&latency, argc, argv); }
