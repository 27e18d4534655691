/*
 * rma_sync: the epochs of a two-rank one-sided run under each -s mode. A
 * rank takes a role per epoch: origin (issues the operations), target
 * (exposes its window in an active-target epoch), both (bidirectional), or
 * idle (a passive target, which takes no part). open/close bracket the
 * iterations of one message size (the first and last fence, the long-lived
 * shared lock of the flush modes); begin/end bracket one epoch.
 */
#ifndef COMMSWEEP_OSU_RMA_SYNC_H
#define COMMSWEEP_OSU_RMA_SYNC_H

#include <mpi.h>
#include <stdbool.h>

#include "rma_mode.h"

enum rma_role { RMA_ROLE_IDLE, RMA_ROLE_ORIGIN, RMA_ROLE_TARGET, RMA_ROLE_BOTH };

struct rma_sync_state {
    enum rma_sync mode;
    MPI_Win win;
    MPI_Group peer_group; /* the peer alone, for post and start */
    int peer;
    bool origin;          /* this rank issues operations in passive modes */
    int lock_type;        /* lock mode: MPI_LOCK_EXCLUSIVE (set by init) or _SHARED */
};

void rma_sync_init(struct rma_sync_state *s, enum rma_sync mode, MPI_Win win, int peer,
                   bool origin, MPI_Comm comm);
void rma_sync_free(struct rma_sync_state *s);

void rma_sync_open(const struct rma_sync_state *s);
void rma_sync_begin(const struct rma_sync_state *s, enum rma_role role);
void rma_sync_end(const struct rma_sync_state *s, enum rma_role role);
void rma_sync_close(const struct rma_sync_state *s);
/* At the start of every iteration: fence mode fences there too, so an
 * iteration is framed by fences as in OMB 7.4 (latency: 3 fences for the
 * two transfers, bandwidth: 2 around the window); other modes do nothing. */
void rma_sync_iteration(const struct rma_sync_state *s);

/* Before a check outside the timed part: makes the origin's last operations
 * complete at the target too (flush_local only completes them locally). */
void rma_sync_settle(const struct rma_sync_state *s);

/* How the owner may touch its window between epochs (see rma_window.h). */
bool rma_sync_needs_self_lock(const struct rma_sync_state *s);

#endif
