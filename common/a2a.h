/*
 * a2a: the data check of all-to-all exchanges run concurrently in
 * subcommunicators (alltoall/all, always/all, always/iall). Element i of the
 * send buffer of world rank s holds a2a_value(s, i), so after an exchange of
 * `calls` all-to-alls of `count` elements per peer, call k's pieces starting
 * at k * stride of both buffers, element j of the block received from
 * communicator rank q in call k must equal the value its sender put at
 * k * stride + (my rank) * count + j.
 */
#ifndef COMMSWEEP_A2A_H
#define COMMSWEEP_A2A_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"

enum a2a_type { A2A_LONG, A2A_DOUBLE };

/* Non-negative, below 2^31: exact as long and as double. */
static inline long a2a_value(int sender, size_t index)
{
    return (long)(((uint64_t)sender * 1000003u + (uint64_t)index * 7u + 1u) % 2147483647u);
}

size_t a2a_elem_size(enum a2a_type t);

/* Fills the first n elements of send with this world rank's values. */
void a2a_fill(struct buf *send, size_t n, enum a2a_type t, int world_rank);

struct a2a_failure {
    size_t call, peer, element; /* where the first wrong value is */
    double got, want;
};

/* Where an exchange put its data: calls x (comm_size x count) elements,
 * call k's at k * stride (at least comm_size * count: always/all spaces the
 * calls by its target size, so a smaller communicator leaves gaps, which
 * are not checked). world_of[q] is the world rank of communicator rank q. */
struct a2a_layout {
    size_t calls, stride, count;
    int comm_size, comm_rank;
    const int *world_of;
};

/* Checks every received element of the layout. Returns 0 when all match,
 * else -1 with the first mismatch in *f. */
int a2a_check(const struct buf *recv, enum a2a_type t, const struct a2a_layout *l,
              struct a2a_failure *f);

/* world_of[q] for every rank q of comm (caller frees). */
int *a2a_world_ranks(MPI_Comm comm);

/* Test hook (buf_corrupt_requested): COMMSWEEP_CORRUPT=1 in the environment
 * makes rank 0 (or COMMSWEEP_CORRUPT_RANK) damage one received element before
 * the check, to prove the check can fail. */
void a2a_corrupt_if_asked(struct buf *recv, enum a2a_type t, int world_rank);

#endif
