/*
 * rma_run: the state of one one-sided run, shared by the driver (rma_driver.c) and
 * the validation data (rma_data.c); not for the programs themselves.
 */
#ifndef COMMSWEEP_OSU_RMA_RUN_H
#define COMMSWEEP_OSU_RMA_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rma_driver.h"
#include "rma_sync.h"
#include "rma_window.h"

/* The first wrong buffer a rank found in a size (-c). */
struct rma_failure {
    const char *what; /* "its window", "the data it got", "the values it fetched" */
    size_t element;   /* first wrong element (byte for put and get) */
    size_t iteration; /* counted from the first warm-up iteration */
};

struct rma_run {
    const struct rma_bench *bench;
    const struct rma_op *op;
    enum rma_type types[RMA_OMB_TYPES]; /* one sweep each (-T all: several) */
    size_t ntypes;
    enum rma_type type;     /* element type of the current sweep */
    struct rma_elem elem;   /* its size and kind */
    struct osu_opts opts;
    enum rma_win_kind win_kind;
    enum rma_sync sync;
    bool hints;
    enum rma_win_memory memory; /* --win-memory: where create/dynamic window memory comes from */
    int rank, peer;
    enum rma_role roles[2]; /* this rank's role in each epoch of an iteration */
    size_t epochs;          /* epochs per iteration: 2 for a ping-pong, else 1 */
    bool lock_shared;       /* --lock-type: -s lock takes MPI_LOCK_SHARED */
    bool was_origin;        /* this rank issued operations in an iteration */
    bool was_target;        /* the peer's operations reached this rank's window */
    size_t slots;           /* operations per epoch (-W for bandwidth) */
    struct rma_window window;
    struct rma_sync_state epoch;
    struct buf origin, result;
    uint64_t compare;
    struct rma_xfer xfer;
    size_t size;            /* bytes per operation */
    size_t elems;           /* elements per epoch: slots * (size / element size) */
    size_t warmup;          /* of the current size */
    void *expect_local;     /* -c, summing ops: what this rank's window holds */
    void *expect_remote;    /* -c, summing ops: what the peer's window holds */
    bool corrupt;           /* this rank damages data (see rma_data.h) */
    size_t failed_checks;   /* wrong buffers of the current size, this rank */
    struct rma_failure first_failure; /* valid when failed_checks > 0 */
    bool tail;              /* -z: P50, P90, P99 of rank 0's single iterations */
    bool win_per_size;      /* --win-per-size: a window of size x slots bytes per size */
    bool win_open;          /* window and epoch state exist now */
    double *iteration_times; /* -z, --stats, --samples: each timed iteration of this size */
};

#endif
