/* rma_mode: -w and -s names and the valid combinations; see rma_mode.h. */
#include "rma_mode.h"

#include <stdio.h>
#include <string.h>

const char *const rma_win_names[] = {"create", "allocate", "dynamic", NULL};
const char *const rma_sync_names[] = {"pscw",  "fence", "lock", "lock_all",
                                      "flush", "flush_local", NULL};

bool rma_sync_is_active(enum rma_sync s)
{
    return s == RMA_SYNC_PSCW || s == RMA_SYNC_FENCE;
}

const char *rma_sync_describe(enum rma_sync s)
{
    switch (s) {
    case RMA_SYNC_PSCW:
        return "pscw (MPI_Win_post/MPI_Win_start/MPI_Win_complete/MPI_Win_wait per epoch)";
    case RMA_SYNC_FENCE:
        return "fence (MPI_Win_fence per epoch and at the start of every iteration)";
    case RMA_SYNC_LOCK:
        return "lock (MPI_Win_lock exclusive/MPI_Win_unlock per epoch)";
    case RMA_SYNC_LOCK_ALL:
        return "lock_all (MPI_Win_lock_all/MPI_Win_unlock_all per epoch)";
    case RMA_SYNC_FLUSH:
        return "flush (MPI_Win_lock shared per size, MPI_Win_flush per epoch)";
    case RMA_SYNC_FLUSH_LOCAL:
        return "flush_local (MPI_Win_lock shared per size, MPI_Win_flush_local per epoch)";
    case RMA_SYNC_COUNT:
        break;
    }
    return "?";
}

/* "pscw, fence" from a set, for the refusal message. */
static void list_syncs(unsigned set, char *text, size_t len)
{
    size_t used = 0;
    text[0] = '\0';
    for (int s = 0; s < RMA_SYNC_COUNT && used < len; s++) {
        if (!(set & RMA_SYNC_BIT(s)))
            continue;
        used += (size_t)snprintf(text + used, len - used, "%s%s", used ? ", " : "",
                                 rma_sync_names[s]);
    }
}

void rma_mode_sync_help(const struct rma_rules *rules, enum rma_sync def, int omb_def,
                        char *text, size_t len)
{
    char allowed[128];
    list_syncs(rules->syncs, allowed, sizeof allowed);
    if (omb_def < 0 || (enum rma_sync)omb_def == def)
        snprintf(text, len, "synchronization: %s (default %s)", allowed, rma_sync_names[def]);
    else
        snprintf(text, len, "synchronization: %s (default %s; the seed's %s)", allowed,
                 rma_sync_names[omb_def], rma_sync_names[def]);
}

int rma_mode_check(const struct rma_rules *rules, enum rma_sync s, enum rma_win_kind w,
                   bool device, char *err, size_t errlen)
{
    if ((unsigned)s >= RMA_SYNC_COUNT || (unsigned)w >= RMA_WIN_COUNT) {
        snprintf(err, errlen, "unknown window creation or synchronization");
        return -1;
    }
    if (!(rules->syncs & RMA_SYNC_BIT(s))) {
        char allowed[128];
        list_syncs(rules->syncs, allowed, sizeof allowed);
        snprintf(err, errlen, "synchronization '%s' does not apply to this program (use %s)",
                 rma_sync_names[s], allowed);
        return -1;
    }
    if (device && !rules->device) {
        snprintf(err, errlen, "device buffers are supported by the put and get programs only");
        return -1;
    }
    if (device && w == RMA_WIN_ALLOCATE) {
        snprintf(err, errlen, "-w allocate gives host memory: device windows need -w create "
                              "or -w dynamic");
        return -1;
    }
    return 0;
}
