/* osu_multi_lat: every pair (rank i with i + np/2) ping-pongs at the same
 * time; reports the one-way latency averaged over all ranks in pairs. */
#include "pt2pt.h"

static void multi_lat_setup(struct pt2pt_ctx *c)
{
    /* Both ends of every pair measure their own round trips. */
    c->timed = c->peer >= 0;
}

static const struct pt2pt_bench multi_lat = {
    .prog = {.title = "OSU MPI Multi Latency Test",
             .synopsis = OSU_PLACEMENT_SYNOPSIS,
             .description = "All pairs (rank i with rank i + np/2) ping-pong at once with\n"
                            "blocking MPI_Send/MPI_Recv; reports the one-way latency averaged\n"
                            "over all ranks. Needs an even number of ranks; place them in\n"
                            "blocks (first half on one node) to measure across two nodes.\n"
                            "H|D|MH|MD x2: buffers of the first and second half of the ranks.",
             PT2PT_LATENCY_DEFAULTS, .placement = true},
    .ranks = PT2PT_EVEN,
    .combine = PT2PT_MEAN,
    .columns = pt2pt_latency_columns, .ncolumns = 1,
    .full_columns = pt2pt_latency_full_columns,
    .setup = multi_lat_setup,
    .exchange = pt2pt_ping_pong,
    .values = pt2pt_latency_values,
};

int main(int argc, char **argv) { pt2pt_main(&multi_lat, argc, argv); }
