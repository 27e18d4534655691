/* osu_get_acc_latency: MPI_Get_accumulate latency under any synchronization (default flush). */
#include "rma_driver.h"

static const struct rma_bench bench = {
    .prog = {.title = "OSU MPI_Get_accumulate latency Test",
             .synopsis = "[options]",
             .description = "MPI_Get_accumulate (MPI_SUM on the -T type, default MPI_CHAR)\n"
                            "latency; the time includes the synchronization chosen with -s\n"
                            "(default flush).",
             .min_size = 1, .max_size = RMA_MAX_SIZE,
             RMA_LATENCY_LOOPS},
    .op = &rma_op_get_acc,
    .shape = RMA_SHAPE_LATENCY,
    .rules = {.syncs = RMA_SYNCS_ALL, .device = false},
    .default_sync = RMA_SYNC_FLUSH,
    .omb = {.in_omb = true,
            .win = RMA_WIN_CREATE,
            .sync = RMA_SYNC_LOCK,
            .exclusive_lock = true,
            .no_datatype = true},
    .shared_lock = true,
    .omb_types = true,
};

int main(int argc, char **argv)
{
    rma_main(&bench, argc, argv);
}
