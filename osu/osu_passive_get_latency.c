/* osu_passive_get_latency: MPI_Get latency, passive target (lock, get, unlock). */
#include "rma_driver.h"

static const struct rma_bench bench = {
    .prog = {.title = "OSU MPI_Get Latency Test with Passive Synchronization",
             .synopsis = RMA_PLACEMENT_SYNOPSIS,
             .placement = true,
             .description = "Time of MPI_Win_lock + MPI_Get + MPI_Win_unlock from rank 0 on rank 1's window.",
             .min_size = 1, .max_size = RMA_MAX_SIZE,
             RMA_LATENCY_LOOPS, .not_in_omb = true},
    .op = &rma_op_get,
    .shape = RMA_SHAPE_LATENCY,
    .rules = {.syncs = RMA_SYNCS_PASSIVE, .device = true},
    .default_sync = RMA_SYNC_LOCK,
};

int main(int argc, char **argv)
{
    rma_main(&bench, argc, argv);
}
