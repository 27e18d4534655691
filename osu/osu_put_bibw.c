/* osu_put_bibw: MPI_Put bidirectional bandwidth, active target, -W puts per epoch from both ranks. */
#include "rma_driver.h"

static const struct rma_bench bench = {
    .prog = {.title = "OSU MPI_Put Bi-directional Bandwidth Test",
             .synopsis = RMA_PLACEMENT_SYNOPSIS,
             .placement = true,
             .description = "MPI_Put bidirectional bandwidth with active synchronization: both ranks issue -W\n"
                            "puts per epoch into each other's window; the bytes of both count.",
             .min_size = 1, .max_size = RMA_MAX_SIZE,
             RMA_BANDWIDTH_LOOPS},
    .op = &rma_op_put,
    .shape = RMA_SHAPE_BIBANDWIDTH,
    .rules = {.syncs = RMA_SYNCS_ACTIVE, .device = true},
    .default_sync = RMA_SYNC_PSCW,
    .omb = {.in_omb = true, .win = RMA_WIN_ALLOCATE, .sync = RMA_SYNC_PSCW},
    .shared_lock = true,
};

int main(int argc, char **argv)
{
    rma_main(&bench, argc, argv);
}
