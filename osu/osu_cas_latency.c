/* osu_cas_latency: MPI_Compare_and_swap latency under any synchronization (default flush). */
#include "rma_driver.h"

static const struct rma_bench bench = {
    .prog = {.title = "OSU MPI_Compare_and_swap latency Test",
             .synopsis = "[options]",
             .description = "MPI_Compare_and_swap (one element of the -T type, default MPI_CHAR;\n"
                            "integer types only) latency; the time includes the synchronization\n"
                            "chosen with -s (default flush).",
             .min_size = 1, .max_size = 1,
             RMA_LATENCY_LOOPS},
    .op = &rma_op_cas,
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
