/* osu_put_bw: MPI_Put bandwidth, active target, -W puts per epoch. */
#include "rma_driver.h"

static const struct rma_bench bench = {
    .prog = {.title = "OSU MPI_Put Bandwidth Test",
             .synopsis = RMA_PLACEMENT_SYNOPSIS,
             .placement = true,
             .description = "MPI_Put bandwidth with active synchronization: rank 0 issues -W puts per epoch into\n"
                            "rank 1's window.",
             .min_size = 1, .max_size = RMA_MAX_SIZE,
             RMA_BANDWIDTH_LOOPS},
    .op = &rma_op_put,
    .shape = RMA_SHAPE_BANDWIDTH,
    .rules = {.syncs = RMA_SYNCS_ALL, .device = true},
    .default_sync = RMA_SYNC_PSCW,
    .omb = RMA_OMB_ALLOCATE_FLUSH,
    .shared_lock = true,
};

int main(int argc, char **argv)
{
    rma_main(&bench, argc, argv);
}
