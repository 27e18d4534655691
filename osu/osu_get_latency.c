/* osu_get_latency: MPI_Get latency, active target, origin and target swap every epoch. */
#include "rma_driver.h"

static const struct rma_bench bench = {
    .prog = {.title = "OSU MPI_Get latency Test",
             .synopsis = RMA_PLACEMENT_SYNOPSIS,
             .placement = true,
             .description = "MPI_Get latency with active synchronization: rank 0 gets from rank 1's window in one\n"
                            "epoch, then rank 1 from rank 0's; the time includes the synchronization.",
             .min_size = 1, .max_size = RMA_MAX_SIZE,
             RMA_LATENCY_LOOPS},
    .op = &rma_op_get,
    .shape = RMA_SHAPE_LATENCY,
    .rules = {.syncs = RMA_SYNCS_ALL, .device = true},
    .default_sync = RMA_SYNC_PSCW,
    .omb = RMA_OMB_ALLOCATE_FLUSH,
    .shared_lock = true,
};

int main(int argc, char **argv)
{
    rma_main(&bench, argc, argv);
}
