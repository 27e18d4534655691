/* caf_reps: adaptive repetitions and the collective check verdict; see caf_bench.h. */
#include "caf_bench.h"

#include "err.h"
#include "timing.h"
#include "watchdog.h"

/* Beyond this the clock is surely broken; stop doubling rather than overflow. */
#define CAF_MAX_REPS ((size_t)1 << 40)

struct caf_timed caf_reps_measure(struct caf_reps *r, caf_measure_fn fn, void *ctx)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    size_t reps = r->reps ? r->reps : 1;
    double global[2];
    const char *failure;
    for (;;) {
        failure = NULL;
        double local[2];
        watchdog_enter_phase("the repetitions");
        local[0] = fn(ctx, reps, &failure);
        watchdog_leave();
        /* The maximum of size - rank over the failing ranks names the lowest. */
        local[1] = failure ? (double)(size - rank) : 0.0;
        timing_allmax(local, global, 2, MPI_COMM_WORLD);
        if (global[1] > 0.0 || global[0] >= r->target_time * 2.0 / 3.0 || reps >= CAF_MAX_REPS)
            break;
        reps *= 2;
    }
    bool bad = global[1] > 0.0;
    if (bad && failure && size - (int)global[1] == rank)
        err_print("rank %d: %s", rank, failure);
    r->reps = (global[0] > r->target_time * 4.0 / 3.0 && reps > 1) ? reps / 2 : reps;
    return (struct caf_timed){global[0], reps, bad};
}

void caf_units_of(const struct caf_config *cfg, struct caf_units *u)
{
    if (cfg->original_units)
        *u = (struct caf_units){"latency[s]", "bandwidth[MiB/s]",
                                "latency in seconds, bandwidth in MiB/s (2^20 bytes), the "
                                "original's units",
                                1.0, 1.0 / (1024.0 * 1024.0)};
    else
        *u = (struct caf_units){"latency[us]", "bandwidth[MB/s]",
                                "latency in microseconds, bandwidth in MB/s (10^6 bytes)", 1e6,
                                1e-6};
}
