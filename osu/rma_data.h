/*
 * rma_data: what a validated (-c) one-sided run writes and checks, all of it
 * outside the timed part. Per size the owner sets its window (zero, or for
 * get the pattern of its rank); before each iteration the origin fills its
 * operands with the operation's values for (rank, iteration) and poisons
 * what must be overwritten (get destinations, fetched results); after it the
 * target checks its window (put, accumulate, atomics: running sums included)
 * and the origin its get or fetch buffers.
 *
 * COMMSWEEP_CORRUPT=1 alters what the transfers of rank 0 (or of the rank
 * COMMSWEEP_CORRUPT_RANK names) carry: one bit of its first operand in the
 * first timed iteration of each size (of a float, the sign), or for get one
 * byte of its target's window, so tests can prove that -c catches bad data.
 * rma_data_corrupts says whether this rank is the one that alters data.
 */
#ifndef COMMSWEEP_OSU_RMA_DATA_H
#define COMMSWEEP_OSU_RMA_DATA_H

#include "rma_run.h"

/* Expected contents of both windows, for up to bytes bytes of window
 * (summing operations only). */
void rma_data_alloc(struct rma_run *r, size_t bytes);
void rma_data_free(struct rma_run *r);

/* Start of a size, outside any epoch: window contents and expectations. */
void rma_data_setup(struct rma_run *r);
/* Operands of iteration it on an origin rank. */
void rma_data_prepare(struct rma_run *r, size_t it);
/* After iteration it (complete at the target): counts wrong buffers in
 * r->failed_checks and keeps the first in r->first_failure. */
void rma_data_check(struct rma_run *r, size_t it);

/* Whether this rank alters data for the COMMSWEEP_CORRUPT hook (r->corrupt):
 * it is the named rank, or for get the named rank's peer, whose window the
 * named rank reads. */
bool rma_data_corrupts(const struct rma_run *r);

#endif
