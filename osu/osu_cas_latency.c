/* osu_cas_latency: MPI_Compare_and_swap latency under any synchronization (default flush). */
#include "rma_driver.h"

static const struct rma_bench bench = {
    .prog = {.title = "OSU MPI_Compare_and_swap latency Test",
             .synopsis = "[options]",
             .description = "MPI_Compare_and_swap (one 64-bit unsigned integer) latency; the time includes the\n"
                            "synchronization chosen with -s (default flush).",
             .min_size = 8, .max_size = 8,
             RMA_LATENCY_LOOPS},
    .op = &rma_op_cas,
    .shape = RMA_SHAPE_LATENCY,
    .rules = {.syncs = RMA_SYNCS_ALL, .device = false},
    .default_sync = RMA_SYNC_FLUSH,
    .shared_lock = true,
};

int main(int argc, char **argv)
{
    rma_main(&bench, argc, argv);
}
