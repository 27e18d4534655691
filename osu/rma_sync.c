/* rma_sync: epochs per synchronization mode; see rma_sync.h. */
#include "rma_sync.h"

#include "err.h"

void rma_sync_init(struct rma_sync_state *s, enum rma_sync mode, MPI_Win win, int peer,
                   bool origin, MPI_Comm comm)
{
    s->mode = mode;
    s->win = win;
    s->peer = peer;
    s->origin = origin;
    s->lock_type = MPI_LOCK_EXCLUSIVE;
    MPI_Group world;
    MPI_CHECK(MPI_Comm_group(comm, &world));
    MPI_CHECK(MPI_Group_incl(world, 1, &peer, &s->peer_group));
    MPI_CHECK(MPI_Group_free(&world));
}

void rma_sync_free(struct rma_sync_state *s)
{
    MPI_CHECK(MPI_Group_free(&s->peer_group));
}

static bool flushes(const struct rma_sync_state *s)
{
    return s->mode == RMA_SYNC_FLUSH || s->mode == RMA_SYNC_FLUSH_LOCAL;
}

void rma_sync_open(const struct rma_sync_state *s)
{
    if (s->mode == RMA_SYNC_FENCE)
        MPI_CHECK(MPI_Win_fence(MPI_MODE_NOPRECEDE, s->win));
    else if (flushes(s) && s->origin)
        MPI_CHECK(MPI_Win_lock(MPI_LOCK_SHARED, s->peer, 0, s->win));
}

void rma_sync_iteration(const struct rma_sync_state *s)
{
    if (s->mode == RMA_SYNC_FENCE)
        MPI_CHECK(MPI_Win_fence(0, s->win));
}

void rma_sync_close(const struct rma_sync_state *s)
{
    if (s->mode == RMA_SYNC_FENCE)
        MPI_CHECK(MPI_Win_fence(MPI_MODE_NOSUCCEED, s->win));
    else if (flushes(s) && s->origin)
        MPI_CHECK(MPI_Win_unlock(s->peer, s->win));
}

static bool issues(enum rma_role role)
{
    return role == RMA_ROLE_ORIGIN || role == RMA_ROLE_BOTH;
}

static bool exposes(enum rma_role role)
{
    return role == RMA_ROLE_TARGET || role == RMA_ROLE_BOTH;
}

void rma_sync_begin(const struct rma_sync_state *s, enum rma_role role)
{
    switch (s->mode) {
    case RMA_SYNC_PSCW:
        if (exposes(role))
            MPI_CHECK(MPI_Win_post(s->peer_group, 0, s->win));
        if (issues(role))
            MPI_CHECK(MPI_Win_start(s->peer_group, 0, s->win));
        break;
    case RMA_SYNC_LOCK:
        if (issues(role))
            MPI_CHECK(MPI_Win_lock(s->lock_type, s->peer, 0, s->win));
        break;
    case RMA_SYNC_LOCK_ALL:
        if (issues(role))
            MPI_CHECK(MPI_Win_lock_all(0, s->win));
        break;
    default:
        break; /* fence and the flush modes open nothing per epoch */
    }
}

void rma_sync_end(const struct rma_sync_state *s, enum rma_role role)
{
    switch (s->mode) {
    case RMA_SYNC_PSCW:
        if (issues(role))
            MPI_CHECK(MPI_Win_complete(s->win));
        if (exposes(role))
            MPI_CHECK(MPI_Win_wait(s->win));
        break;
    case RMA_SYNC_FENCE:
        MPI_CHECK(MPI_Win_fence(0, s->win));
        break;
    case RMA_SYNC_LOCK:
        if (issues(role))
            MPI_CHECK(MPI_Win_unlock(s->peer, s->win));
        break;
    case RMA_SYNC_LOCK_ALL:
        if (issues(role))
            MPI_CHECK(MPI_Win_unlock_all(s->win));
        break;
    case RMA_SYNC_FLUSH:
        if (issues(role))
            MPI_CHECK(MPI_Win_flush(s->peer, s->win));
        break;
    case RMA_SYNC_FLUSH_LOCAL:
        if (issues(role))
            MPI_CHECK(MPI_Win_flush_local(s->peer, s->win));
        break;
    case RMA_SYNC_COUNT:
        break;
    }
}

void rma_sync_settle(const struct rma_sync_state *s)
{
    if (s->mode == RMA_SYNC_FLUSH_LOCAL && s->origin)
        MPI_CHECK(MPI_Win_flush(s->peer, s->win));
}

bool rma_sync_needs_self_lock(const struct rma_sync_state *s)
{
    return !rma_sync_is_active(s->mode);
}
