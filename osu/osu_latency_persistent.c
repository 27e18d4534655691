/* osu_latency_persistent: osu_latency's ping-pong between ranks 0 and 1 with
 * persistent requests (MPI_Send_init/MPI_Recv_init once per size, then
 * MPI_Start and MPI_Wait per message); one-way latency is half the round trip. */
#include "pt2pt.h"

static const struct pt2pt_bench latency_persistent = {
    .prog = {.title = "OSU MPI Latency Persistent Test",
             .synopsis = OSU_PLACEMENT_SYNOPSIS,
             .description = "Ping-pong between ranks 0 and 1 with persistent requests\n"
                            "(MPI_Send_init/MPI_Recv_init per size, MPI_Start/MPI_Wait per\n"
                            "message); reports the one-way latency (half the round trip).\n"
                            "Needs 2 ranks. H|D|MH|MD x2: buffers of rank 0 and rank 1 on the\n"
                            "host, the device or managed memory (preferred on host or device).",
             PT2PT_LATENCY_DEFAULTS, .placement = true},
    PT2PT_TWO_RANK_LATENCY,
    .size_begin = pt2pt_persistent_ping_pong_begin,
    .size_end = pt2pt_persistent_end,
    .exchange = pt2pt_persistent_ping_pong,
};

int main(int argc, char **argv) { pt2pt_main(&latency_persistent, argc, argv); }
