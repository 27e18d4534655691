/*
 * rma_driver: the one driver behind the OSU-style one-sided programs (osu_put_*,
 * osu_get_*, osu_acc_latency, osu_passive_*, osu_get_acc_latency,
 * osu_fop_latency, osu_cas_latency).
 *
 * A program is a struct rma_bench: its OSU description and defaults, the
 * operation it times (rma_op.h), its shape (latency, bandwidth or
 * bidirectional bandwidth), the synchronizations it accepts and its default
 * one, whether it takes device buffers and OMB's -T element types. The
 * driver owns the rest: options (-w, -s, -n, -T beside the OSU letters), the
 * two-rank check, the -M cap, the window (rma_window.h), the epochs
 * (rma_sync.h), the size sweep (once per -T type), warm-up, timing, -f
 * statistics, -c validation (rma_data.h) and the output.
 *
 * Shapes: a latency program under an active-target mode (pscw, fence) moves
 * one message from rank 0 to rank 1 and then one back, each in its own epoch,
 * and reports half the time of the pair; under a passive mode rank 0 is the
 * only origin and one epoch (lock + operation + unlock, or operation + flush)
 * is the reported time. A bandwidth program issues -W operations into
 * distinct slots of the target window per epoch, rank 0 to rank 1; the
 * bidirectional one does so from both ranks in the same epoch and reports
 * the bytes of both.
 */
#ifndef COMMSWEEP_OSU_RMA_DRIVER_H
#define COMMSWEEP_OSU_RMA_DRIVER_H

#include <stdbool.h>

#include "osu.h"
#include "rma_mode.h"
#include "rma_op.h"

enum rma_shape { RMA_SHAPE_LATENCY, RMA_SHAPE_BANDWIDTH, RMA_SHAPE_BIBANDWIDTH };

/* What OMB 7.4's program of the same name does when given no -w and -s.
 * Under OMB's defaults its window memory is OMB's too (malloc, touched)
 * and its window is made again for every size. A program OMB 7.4 does not
 * have (in_omb false) keeps the seed's defaults under both. */
struct rma_omb_defaults {
    bool in_omb;
    enum rma_win_kind win;
    enum rma_sync sync;
    bool exclusive_lock; /* -s lock takes an exclusive lock (osu_get_acc_latency) */
    bool no_datatype;    /* OMB prints no "# Datatype:" line (osu_get_acc_latency) */
    bool atomics_report; /* -c: "passed" rows and OMB's per-rank "Atomic Data
                          * Validation" block after the table (acc, fop, cas) */
};
/* Most of OMB 7.4's one-sided programs: MPI_Win_allocate and flush. */
#define RMA_OMB_ALLOCATE_FLUSH {.in_omb = true, .win = RMA_WIN_ALLOCATE, .sync = RMA_SYNC_FLUSH}
/* The same for OMB 7.4's atomics, whose -c reports as OMB's do. */
#define RMA_OMB_ATOMIC                                                                      \
    {.in_omb = true, .win = RMA_WIN_ALLOCATE, .sync = RMA_SYNC_FLUSH, .atomics_report = true}

struct rma_bench {
    struct osu_program prog;
    const struct rma_op *op;
    enum rma_shape shape;
    struct rma_rules rules;     /* accepted -s values, device buffers */
    enum rma_sync default_sync; /* the seed's synchronization */
    struct rma_omb_defaults omb; /* OMB 7.4's, under its defaults (osu_defaults.h) */
    bool shared_lock;           /* -s lock takes a shared lock by default (OMB 7.4's
                                 * programs); the seed's passive ones an exclusive */
    bool omb_types;             /* takes OMB 7.4's -T (default mpi_char); without it
                                 * the elements are of the operation's own type */
};

/* The whole program: returns only through harness_finish. */
_Noreturn void rma_main(const struct rma_bench *b, int argc, char **argv);

/* Defaults shared by the programs (OSU's one-sided loop counts). */
#define RMA_MAX_SIZE ((size_t)1 << 22)
#define RMA_LATENCY_LOOPS                                                                   \
    .iter_small = 10000, .warm_small = 100, .iter_large = 1000, .warm_large = 10,            \
    .large_threshold = 8192, .no_blank_line = true
#define RMA_BANDWIDTH_LOOPS                                                                 \
    .iter_small = 100, .warm_small = 10, .iter_large = 20, .warm_large = 2,                  \
    .large_threshold = 8192, .default_window = 64, .no_blank_line = true
#define RMA_PLACEMENT_SYNOPSIS "[options] [H|D H|D]"

#endif
