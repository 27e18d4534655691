/* osu_fop_latency: MPI_Fetch_and_op latency under any synchronization (default flush). */
#include "rma_driver.h"

static const struct rma_bench bench = {
    .prog = {.title = "OSU MPI_Fetch_and_op latency Test",
             .synopsis = "[options]",
             .description = "MPI_Fetch_and_op (MPI_SUM on one element of the -T type, default\n"
                            "MPI_CHAR) latency; the time includes the synchronization chosen\n"
                            "with -s (default flush).",
             .min_size = 1, .max_size = 1,
             RMA_LATENCY_LOOPS},
    .op = &rma_op_fop,
    .shape = RMA_SHAPE_LATENCY,
    .rules = {.syncs = RMA_SYNCS_ALL, .device = false},
    .default_sync = RMA_SYNC_FLUSH,
    .omb = RMA_OMB_ATOMIC,
    .shared_lock = true,
    .omb_types = true,
};

int main(int argc, char **argv)
{
    rma_main(&bench, argc, argv);
}
