/* osu_passive_acc_latency: MPI_Accumulate latency, passive target (lock, accumulate, unlock). */
#include "rma_driver.h"

static const struct rma_bench bench = {
    .prog = {.title = "OSU MPI_Accumulate Latency Test with Passive Synchronization",
             .synopsis = "[options]",
             .description = "Time of MPI_Win_lock + MPI_Accumulate (MPI_SUM on 32-bit unsigned integers) +\n"
                            "MPI_Win_unlock from rank 0 to rank 1's window.",
             .min_size = 4, .max_size = RMA_MAX_SIZE,
             RMA_LATENCY_LOOPS, .not_in_omb = true},
    .op = &rma_op_acc,
    .shape = RMA_SHAPE_LATENCY,
    .rules = {.syncs = RMA_SYNCS_PASSIVE, .device = false},
    .default_sync = RMA_SYNC_LOCK,
};

int main(int argc, char **argv)
{
    rma_main(&bench, argc, argv);
}
