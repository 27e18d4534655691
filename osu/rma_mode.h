/*
 * rma_mode: the names and the rules of the one-sided programs' two choices,
 * how the window is created (-w) and how epochs are synchronised (-s), and
 * which combinations a program accepts. Pure logic, no MPI calls, so the
 * table of valid combinations can be unit tested.
 */
#ifndef COMMSWEEP_OSU_RMA_MODE_H
#define COMMSWEEP_OSU_RMA_MODE_H

#include <stdbool.h>
#include <stddef.h>

enum rma_win_kind {
    RMA_WIN_CREATE,   /* MPI_Win_create over MPI_Alloc_mem (or device) memory */
    RMA_WIN_ALLOCATE, /* MPI_Win_allocate */
    RMA_WIN_DYNAMIC,  /* MPI_Win_create_dynamic + MPI_Win_attach */
    RMA_WIN_COUNT
};

enum rma_sync {
    RMA_SYNC_PSCW,        /* post-start-complete-wait, per epoch */
    RMA_SYNC_FENCE,       /* MPI_Win_fence, per epoch */
    RMA_SYNC_LOCK,        /* MPI_Win_lock (exclusive) + unlock, per epoch */
    RMA_SYNC_LOCK_ALL,    /* MPI_Win_lock_all + unlock_all, per epoch */
    RMA_SYNC_FLUSH,       /* one shared lock per size, MPI_Win_flush per epoch */
    RMA_SYNC_FLUSH_LOCAL, /* one shared lock per size, MPI_Win_flush_local per epoch */
    RMA_SYNC_COUNT
};

#define RMA_SYNC_BIT(s) (1u << (s))
#define RMA_SYNCS_ACTIVE (RMA_SYNC_BIT(RMA_SYNC_PSCW) | RMA_SYNC_BIT(RMA_SYNC_FENCE))
#define RMA_SYNCS_PASSIVE                                                                   \
    (RMA_SYNC_BIT(RMA_SYNC_LOCK) | RMA_SYNC_BIT(RMA_SYNC_LOCK_ALL) |                       \
     RMA_SYNC_BIT(RMA_SYNC_FLUSH) | RMA_SYNC_BIT(RMA_SYNC_FLUSH_LOCAL))
#define RMA_SYNCS_ALL (RMA_SYNCS_ACTIVE | RMA_SYNCS_PASSIVE)

/* Option values, NULL-terminated, index = enum value. */
extern const char *const rma_win_names[];
extern const char *const rma_sync_names[];

/* Active target: both sides take part in every epoch (pscw, fence). */
bool rma_sync_is_active(enum rma_sync s);

/* One line for the header: which MPI calls the choice stands for. */
const char *rma_sync_describe(enum rma_sync s);

/* What a program accepts. */
struct rma_rules {
    unsigned syncs; /* RMA_SYNC_BIT set */
    bool device;    /* device buffers (-d cuda, D placement) */
};

/* --help text of -s: the accepted modes and the default: OMB 7.4's (omb_def,
 * or -1 for a program OMB does not have) and the seed's (def). */
void rma_mode_sync_help(const struct rma_rules *rules, enum rma_sync def, int omb_def,
                        char *text, size_t len);

/* 0 when the combination is valid; otherwise -1 and a one-line reason in err.
 * device: some rank's buffers are on the GPU. */
int rma_mode_check(const struct rma_rules *rules, enum rma_sync s, enum rma_win_kind w,
                   bool device, char *err, size_t errlen);

#endif
