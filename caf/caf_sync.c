/* caf_sync: the synchronisation section: the overhead of each kind of
 * synchronisation, as a delay loop with synchronisation minus the same delay
 * loop alone, over sync_outer samples of sync_inner repetitions. */
#include <math.h>
#include <stdlib.h>

#include "caf_bench.h"
#include "caf_rma.h"
#include "err.h"
#include "out.h"
#include "stats.h"
#include "timing.h"

#define SYNC_OUTLIER_SD 3.0
#define SYNC_CONFIDENCE 0.95
#define SYNC_RANDOM_SEED 0x5eedcafeull

struct sync_test {
    const char *name;
    void (*op)(const struct sync_test *t);
    const int *neigh;
    size_t nneigh;
};

static void op_sync_all(const struct sync_test *t)
{
    (void)t;
    caf_sync_all();
}

static void op_barrier(const struct sync_test *t)
{
    (void)t;
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
}

static void op_sync_images(const struct sync_test *t) { caf_sync_images(t->neigh, t->nneigh); }

static void op_lock(const struct sync_test *t)
{
    (void)t;
    caf_lock(CAF_LOCK_USER, 0);
    caf_unlock(CAF_LOCK_USER, 0);
}

static void op_critical(const struct sync_test *t)
{
    (void)t;
    caf_critical_begin();
    caf_critical_end();
}

#define SYNC_DELAY_UNIT 100 /* additions per unit of --sync-delay, as the original */

static volatile double delay_sink;

/* n x SYNC_DELAY_UNIT additions, each waiting for the one before (the
 * addend is re-read from a volatile, so the chain is neither folded nor
 * vectorised). */
static void delay_loop(size_t n)
{
    static volatile double one = 1.0;
    double a = 0.0;
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < SYNC_DELAY_UNIT; j++)
            a += one;
    delay_sink = a;
}

static double time_inner(const struct caf_config *cfg, const struct sync_test *t)
{
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    double t0 = timing_now();
    for (size_t i = 0; i < cfg->sync_inner; i++) {
        delay_loop(cfg->sync_delay);
        if (t)
            t->op(t);
    }
    return timing_now() - t0;
}

static void sync_measure(const struct caf_config *cfg, const struct sync_test *t, int rank)
{
    size_t n = cfg->sync_outer;
    double *with = calloc(5 * n, sizeof *with);
    if (!with)
        err_fatal("out of memory for %zu synchronisation samples", n);
    double *alone = with + n, *max_with = with + 2 * n, *max_alone = with + 3 * n;
    double *overhead = with + 4 * n;
    for (size_t o = 0; o < n; o++) {
        with[o] = time_inner(cfg, t);
        alone[o] = time_inner(cfg, NULL);
    }
    /* Each sample lasts until its slowest image is done. */
    timing_max_per_iteration(with, max_with, n, 0, MPI_COMM_WORLD);
    timing_max_per_iteration(alone, max_alone, n, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        for (size_t o = 0; o < n; o++)
            overhead[o] = (max_with[o] - max_alone[o]) / (double)cfg->sync_inner * 1e6;
        struct stats_summary s;
        stats_summarize(overhead, n, &s);
        double ci = stats_t_halfwidth(s.stddev, n, SYNC_CONFIDENCE);
        size_t outliers = stats_count_outliers(overhead, n, SYNC_OUTLIER_SD);
        out_line("%-16s %6zu %12.3f +/- %10.3f %10.3f %10.3f %10.3f %8zu %8zu", t->name,
                 t->nneigh, s.mean, ci, s.stddev, s.min, s.max, outliers, n);
    }
    free(with);
}

static void skipped(const char *name, const char *why, int size)
{
    out_comment("sync %s skipped: %s (have %d)", name, why, size);
}

bool caf_sync_run(const struct caf_config *cfg)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    out_comment("section sync: overhead per synchronisation in microseconds = (delay loop "
                "with it - delay loop alone) / %zu inner repetitions, %zu samples, delay %zu "
                "= %zu dependent additions; mean +/- %.0f%% Student-t half width; outliers beyond %.0f "
                "standard deviations",
                cfg->sync_inner, cfg->sync_outer, cfg->sync_delay,
                cfg->sync_delay * SYNC_DELAY_UNIT, SYNC_CONFIDENCE * 100,
                SYNC_OUTLIER_SD);
    out_comment("%-14s %6s %12s %4s %10s %10s %10s %10s %8s %8s", "name", "nneigh", "mean[us]",
                "", "ci[us]", "stddev[us]", "min[us]", "max[us]", "outliers", "samples");

    struct sync_test all = {"sync_all", op_sync_all, NULL, 0};
    sync_measure(cfg, &all, rank);
    struct sync_test barrier = {"mpi_barrier", op_barrier, NULL, 0};
    sync_measure(cfg, &barrier, rank);

    int partner = caf_neigh_pairwise(rank, size);
    if (partner < 0) {
        skipped("images_pairwise", "needs an even number of images", size);
    } else {
        struct sync_test pairwise = {"images_pairwise", op_sync_images, &partner, 1};
        sync_measure(cfg, &pairwise, rank);
    }

    int cap = caf_neigh_cap((int)cfg->sync_maxneigh, size);
    int *neigh = malloc((size_t)(cap > 6 ? cap : 6) * sizeof *neigh);
    if (!neigh)
        err_fatal("out of memory for neighbour lists");
    if (cap < 2) {
        skipped("images_random", "needs at least 3 images for 2 distinct neighbours", size);
        skipped("images_ring", "needs at least 3 images for 2 distinct neighbours", size);
    } else {
        if ((size_t)cap < cfg->sync_maxneigh)
            out_comment("sync images_random/images_ring: neighbours capped at %d below %d "
                        "images", cap, size);
        for (int nn = 2; nn <= cap; nn += 2) {
            struct sync_test random = {"images_random", op_sync_images, neigh,
                                       caf_neigh_random(rank, size, nn,
                                                        SYNC_RANDOM_SEED + (uint64_t)nn, neigh)};
            sync_measure(cfg, &random, rank);
        }
        struct sync_test ring = {"images_ring", op_sync_images, neigh,
                                 caf_neigh_ring(rank, size, cap, neigh)};
        sync_measure(cfg, &ring, rank);
    }

    int dims[3] = {0, 0, 0};
    MPI_CHECK(MPI_Dims_create(size, 3, dims));
    out_comment("sync images_grid3d: periodic grid %d x %d x %d (MPI_Dims_create)", dims[0],
                dims[1], dims[2]);
    caf_neigh_grid(rank, dims, neigh);
    struct sync_test grid = {"images_grid3d", op_sync_images, neigh, 6};
    sync_measure(cfg, &grid, rank);
    free(neigh);

    struct sync_test lock = {"lock", op_lock, NULL, 0};
    sync_measure(cfg, &lock, rank);
    struct sync_test critical = {"critical", op_critical, NULL, 0};
    sync_measure(cfg, &critical, rank);
    out_block_end();
    return true;
}
