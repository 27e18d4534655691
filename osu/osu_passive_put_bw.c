/* osu_passive_put_bw: MPI_Put bandwidth, passive target, -W puts per lock epoch. */
#include "rma_driver.h"

static const struct rma_bench bench = {
    .prog = {.title = "OSU MPI_Put Bandwidth Test with Passive Synchronization",
             .synopsis = RMA_PLACEMENT_SYNOPSIS,
             .placement = true,
             .description = "MPI_Put bandwidth with passive synchronization: rank 0 locks rank 1's window, issues\n"
                            "-W puts and unlocks.",
             .min_size = 1, .max_size = RMA_MAX_SIZE,
             RMA_BANDWIDTH_LOOPS, .not_in_omb = true},
    .op = &rma_op_put,
    .shape = RMA_SHAPE_BANDWIDTH,
    .rules = {.syncs = RMA_SYNCS_PASSIVE, .device = true},
    .default_sync = RMA_SYNC_LOCK,
};

int main(int argc, char **argv)
{
    rma_main(&bench, argc, argv);
}
