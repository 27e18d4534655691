/*
 * caf_bench: what the three sections of cafbench share: the parsed options,
 * the section entry points, the adaptive repetition driver (one loop for
 * every timed measurement, with the doubling/halving decided on the maximum
 * time over all ranks so that no rank takes a different path, and with the
 * collective verdict of the data check).
 */
#ifndef COMMSWEEP_CAF_BENCH_H
#define COMMSWEEP_CAF_BENCH_H

#include <stdbool.h>
#include <stddef.h>

#include "caf_neigh.h"

#define CAF_MAX_HALO_SIZES 32

struct caf_config {
    bool p2p, sync, halo;
    bool modes[CAF_NMODES];
    size_t maxndata, maxstride;
    double target_time;
    double timeout;     /* --timeout: seconds one measurement may take (0: no limit) */
    size_t sync_outer, sync_inner, sync_delay, sync_maxneigh;
    size_t halo_sizes[CAF_MAX_HALO_SIZES];
    size_t nhalo_sizes;
    bool check;
    bool original_units; /* latency in s, bandwidth in MiB/s, as the original */
    bool corrupt; /* COMMSWEEP_CORRUPT=1: damage received data to test --check */
};

/* Units of the p2p and halo tables: us and MB/s (10^6 bytes) by default,
 * s and MiB/s (2^20 bytes) with --original-units. */
struct caf_units {
    const char *latency, *bandwidth; /* column names: "latency[us]", ... */
    const char *note;                /* for the section header */
    double latency_scale;            /* per second */
    double bandwidth_scale;          /* per byte/s */
};
void caf_units_of(const struct caf_config *cfg, struct caf_units *u);

/* Each returns false when a data check failed (on any rank: the verdict is
 * collective). Collective over MPI_COMM_WORLD. */
bool caf_p2p_run(const struct caf_config *cfg);
bool caf_sync_run(const struct caf_config *cfg);
bool caf_halo_run(const struct caf_config *cfg);
/* Their JSON tables (report.h), declared before the first section runs.
 * JSON rows are in us and MB/s whatever --original-units says. */
void caf_p2p_declare(void);
void caf_sync_declare(void);
void caf_halo_declare(void);

/* One timed measurement of reps repetitions: returns this rank's elapsed
 * seconds, and sets *failure to a message when this rank's data check
 * failed (left NULL otherwise). Collective. */
typedef double (*caf_measure_fn)(void *ctx, size_t reps, const char **failure);

struct caf_reps {
    size_t reps;        /* carried from one size to the next */
    double target_time; /* seconds */
};

struct caf_timed {
    double time; /* maximum over ranks, seconds */
    size_t reps;
    bool bad;    /* a check failed on some rank */
};

/* Measures with r->reps repetitions, doubling while the time is under 2/3 of
 * the target; the next size starts from half as many when it took over 4/3.
 * Every decision uses the maximum over the ranks, in the same reduction that
 * finds the lowest rank whose check failed: that rank prints its failure on
 * stderr, once. */
struct caf_timed caf_reps_measure(struct caf_reps *r, caf_measure_fn fn, void *ctx);

#endif
