/* caf_sync: the synchronisation section: the overhead of each kind of
 * synchronisation, as a delay loop with synchronisation minus the same delay
 * loop alone, over sync_outer samples of sync_inner repetitions. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "caf_bench.h"
#include "caf_rma.h"
#include "err.h"
#include "out.h"
#include "report.h"
#include "stats.h"
#include "timing.h"
#include "watchdog.h"

#define SYNC_OUTLIER_SD 3.0
#define SYNC_SPREAD 1.96 /* the original's +/-: 1.96 x (sd + reference sd) */
#define SYNC_RANDOM_SEED 0x5eedcafeull

struct sync_test {
    const char *name;
    void (*op)(const struct sync_test *t);
    void (*enter)(void), (*leave)(void); /* serialised tests: the delay goes between */
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

static void lock_enter(void) { caf_lock(CAF_LOCK_USER, 0); }
static void lock_leave(void) { caf_unlock(CAF_LOCK_USER, 0); }

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

/* One sample of the reference: reps delays alone, per delay. */
static double time_reference(const struct caf_config *cfg, size_t reps)
{
    double t0 = timing_now();
    for (size_t i = 0; i < reps; i++)
        delay_loop(cfg->sync_delay);
    return (timing_now() - t0) / (double)reps;
}

/* One sample of the test, from after a sync all to the end of the sync all
 * that closes it, per synchronisation (per delay in the whole job for the
 * serialised tests, where each image does its share inside the lock). */
static double time_sample(const struct caf_config *cfg, const struct sync_test *t,
                          size_t reps, size_t total)
{
    caf_sync_all();
    double t0 = timing_now();
    for (size_t i = 0; i < reps; i++) {
        if (t->enter) {
            t->enter();
            delay_loop(cfg->sync_delay);
            t->leave();
        } else {
            delay_loop(cfg->sync_delay);
            t->op(t);
        }
    }
    caf_sync_all();
    return (timing_now() - t0) / (double)total;
}

void caf_sync_declare(void)
{
    report_table("caf_sync", "overhead_us", REPORT_LOWER_BETTER, "loop_us");
    report_key("name", REPORT_UNIT_TEXT);
    report_key("nneigh", REPORT_UNIT_COUNT);
    report_value("overhead_us", REPORT_UNIT_US);
    report_value("spread_us", REPORT_UNIT_US);
    report_value("ref_us", REPORT_UNIT_US);
    report_value("ref_sd_us", REPORT_UNIT_US);
    report_value("loop_us", REPORT_UNIT_US);
    report_value("loop_sd_us", REPORT_UNIT_US);
    report_value("outliers", REPORT_UNIT_COUNT);
}

/* One test's line from its n reference and loop samples (seconds), and its
 * JSON row; --stats adds the spread of the loop samples (us). The samples
 * are the row's iterations. */
static void print_row(const struct sync_test *t, const double *ref, double *loop, size_t n)
{
    struct stats_summary r, l;
    stats_summarize(ref, n, &r);
    stats_summarize(loop, n, &l);
    size_t outliers = stats_count_outliers(loop, n, SYNC_OUTLIER_SD);
    double sd = n > 1 ? l.stddev : 0.0, refsd = n > 1 ? r.stddev : 0.0;
    report_row_begin("caf_sync");
    report_row_string("name", t->name);
    report_row_size("nneigh", t->nneigh);
    report_row_double("overhead_us", (l.mean - r.mean) * 1e6);
    report_row_double("spread_us", SYNC_SPREAD * (sd + refsd) * 1e6);
    report_row_double("ref_us", r.mean * 1e6);
    report_row_double("ref_sd_us", refsd * 1e6);
    report_row_double("loop_us", l.mean * 1e6);
    report_row_double("loop_sd_us", sd * 1e6);
    report_row_size("outliers", outliers);
    for (size_t k = 0; report_per_iteration() && k < n; k++)
        loop[k] *= 1e6;
    struct stats_dispersion d;
    report_row_iterations(report_per_iteration() ? loop : NULL, n, &d);
    report_row_end();
    char spread[64] = "";
    if (report_stats())
        snprintf(spread, sizeof spread, " %12.3f %12.3f %12.3f %10.4f", d.median, d.p5, d.p95,
                 d.cv);
    out_line("%-16s %6zu %12.3f +/- %10.3f %12.3f %10.3f %12.3f %10.3f %8zu %8zu%s", t->name,
             t->nneigh, (l.mean - r.mean) * 1e6, SYNC_SPREAD * (sd + refsd) * 1e6, r.mean * 1e6,
             refsd * 1e6, l.mean * 1e6, sd * 1e6, outliers, n, spread);
}

static void sync_measure(const struct caf_config *cfg, const struct sync_test *t, int rank,
                         int size)
{
    size_t n = cfg->sync_outer, inner = cfg->sync_inner, reps = inner, total = inner;
    if (t->enter) {
        /* Lock and critical serialise the work: each image does its share. */
        reps = inner / (size_t)size > 2 ? inner / (size_t)size : 2;
        total = reps * (size_t)size;
        if (total != inner && rank == 0)
            out_comment("sync %s: %zu per image x %zu images = %zu delays per sample instead of "
                        "%zu", t->name, reps, (size_t)size, total, inner);
    }
    double *ref = malloc(2 * (n + 1) * sizeof *ref);
    if (!ref)
        err_fatal("out of memory for %zu synchronisation samples", n);
    double *loop = ref + n + 1;
    /* Sample 0 of each warms up and is discarded, as in the original. */
    watchdog_arm(NULL, "sync %s", t->name);
    caf_sync_all();
    for (size_t k = 0; k <= n; k++)
        ref[k] = time_reference(cfg, total);
    watchdog_enter_phase("the samples");
    caf_sync_all();
    for (size_t k = 0; k <= n; k++)
        loop[k] = time_sample(cfg, t, reps, total);
    watchdog_leave();
    watchdog_disarm();
    if (rank == 0) /* image 1's times */
        print_row(t, ref + 1, loop + 1, n);
    free(ref);
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
    out_comment("section sync: image 1's times in microseconds; reference = one delay of %zu "
                "(%zu dependent additions) alone, measured before the test; loop = time from "
                "a sync all through %zu (delay + synchronisation) and a closing sync all, per "
                "synchronisation; overhead = loop - reference; %zu samples after a discarded "
                "first; +/- %.2f x (sd + reference sd), as the original; outliers: loop "
                "samples beyond %.0f sd",
                cfg->sync_delay, cfg->sync_delay * SYNC_DELAY_UNIT, cfg->sync_inner,
                cfg->sync_outer, SYNC_SPREAD, SYNC_OUTLIER_SD);
    out_comment("lock, critical: each image does inner/images (at least 2) of (enter, delay, "
                "leave), divided by all the delays of the job: the hand-off cost of "
                "serialised work");
    char spread[80] = "";
    if (report_stats())
        snprintf(spread, sizeof spread, " %12s %12s %12s %10s", "loop_median[us]",
                 "loop_p5[us]", "loop_p95[us]", "loop_cv");
    if (!report_jsonl()) /* the JSON table has the names */
        out_comment("%-14s %6s %12s %4s %10s %12s %10s %12s %10s %8s %8s%s", "name", "nneigh",
                    "overhead[us]", "", "spread[us]", "ref[us]", "ref_sd[us]", "loop[us]",
                    "loop_sd[us]", "outliers", "samples", spread);

    struct sync_test all = {"sync_all", op_sync_all, NULL, NULL, NULL, 0};
    sync_measure(cfg, &all, rank, size);
    struct sync_test barrier = {"mpi_barrier", op_barrier, NULL, NULL, NULL, 0};
    sync_measure(cfg, &barrier, rank, size);

    int partner = caf_neigh_pairwise(rank, size);
    if (partner < 0) {
        skipped("images_pairwise", "needs an even number of images", size);
    } else {
        struct sync_test pairwise = {"images_pairwise", op_sync_images, NULL, NULL, &partner, 1};
        sync_measure(cfg, &pairwise, rank, size);
    }

    int cap = caf_neigh_cap((int)cfg->sync_maxneigh, size);
    int *neigh = malloc((size_t)(cap > 6 ? cap : 6) * sizeof *neigh);
    if (!neigh)
        err_fatal("out of memory for neighbour lists");
    if (cap < 2) {
        skipped("images_ring", "needs at least 4 images (up to min(maxneigh, images - 2) "
                "neighbours)", size);
        skipped("images_random", "needs at least 4 images (up to min(maxneigh, images - 2) "
                "neighbours)", size);
    }
    for (int nn = 2; nn <= cap; nn += 2) {
        struct sync_test ring = {"images_ring", op_sync_images, NULL, NULL, neigh,
                                 caf_neigh_ring(rank, size, nn, neigh)};
        sync_measure(cfg, &ring, rank, size);
        struct sync_test random = {"images_random", op_sync_images, NULL, NULL, neigh,
                                   caf_neigh_random(rank, size, nn,
                                                    SYNC_RANDOM_SEED + (uint64_t)nn, neigh)};
        sync_measure(cfg, &random, rank, size);
    }

    if (size < 8) {
        skipped("images_grid3d", "needs at least 8 images, as the original", size);
    } else {
        int dims[3] = {0, 0, 0};
        MPI_CHECK(MPI_Dims_create(size, 3, dims));
        caf_neigh_grid(rank, dims, neigh);
        /* Distinct partners only: fewer than 6 where a grid dimension is 1
         * or 2. Image 1's count is printed. */
        size_t distinct = caf_neigh_distinct(rank, neigh, 6);
        out_comment("sync images_grid3d: periodic grid %d x %d x %d (MPI_Dims_create), "
                    "image 1 has %zu distinct partners of 6", dims[0], dims[1], dims[2],
                    distinct);
        struct sync_test grid = {"images_grid3d", op_sync_images, NULL, NULL, neigh, distinct};
        sync_measure(cfg, &grid, rank, size);
    }
    free(neigh);

    if (timing_simulated()) {
        /* 60 of 80 hand-offs of a lock on 4 ranks went to a second holder. */
        out_comment("sync lock and critical skipped: SimGrid's SMPI 3.32 does not make "
                    "MPI_Compare_and_swap atomic between ranks, so two images can hold one lock");
    } else {
        struct sync_test lock = {"lock", NULL, lock_enter, lock_leave, NULL, 0};
        sync_measure(cfg, &lock, rank, size);
        struct sync_test critical = {"critical", NULL, caf_critical_begin, caf_critical_end,
                                     NULL, 0};
        sync_measure(cfg, &critical, rank, size);
    }
    out_block_end();
    return true;
}
