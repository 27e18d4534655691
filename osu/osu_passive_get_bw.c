/* osu_passive_get_bw: MPI_Get bandwidth, passive target, -W gets per lock epoch. */
#include "rma_driver.h"

static const struct rma_bench bench = {
    .prog = {.title = "OSU MPI_Get Bandwidth Test with Passive Synchronization",
             .synopsis = RMA_PLACEMENT_SYNOPSIS,
             .placement = true,
             .description = "MPI_Get bandwidth with passive synchronization: rank 0 locks rank 1's window, issues\n"
                            "-W gets and unlocks.",
             .min_size = 1, .max_size = RMA_MAX_SIZE,
             RMA_BANDWIDTH_LOOPS, .not_in_omb = true},
    .op = &rma_op_get,
    .shape = RMA_SHAPE_BANDWIDTH,
    .rules = {.syncs = RMA_SYNCS_PASSIVE, .device = true},
    .default_sync = RMA_SYNC_LOCK,
};

int main(int argc, char **argv)
{
    rma_main(&bench, argc, argv);
}
