/* osu_acc_latency: MPI_Accumulate latency, active target, origin and target swap every epoch. */
#include "rma_driver.h"

static const struct rma_bench bench = {
    .prog = {.title = "OSU MPI_Accumulate latency Test",
             .synopsis = "[options]",
             .description = "MPI_Accumulate (MPI_SUM on the -T type, default MPI_CHAR) latency\n"
                            "with active synchronization; origin and target swap after every\n"
                            "epoch.",
             .min_size = 1, .max_size = RMA_MAX_SIZE,
             RMA_LATENCY_LOOPS},
    .op = &rma_op_acc,
    .shape = RMA_SHAPE_LATENCY,
    .rules = {.syncs = RMA_SYNCS_ALL, .device = false},
    .default_sync = RMA_SYNC_PSCW,
    .omb = RMA_OMB_ATOMIC,
    .shared_lock = true,
    .omb_types = true,
};

int main(int argc, char **argv)
{
    rma_main(&bench, argc, argv);
}
