/*
 * aller: the all-to-all algorithms alltoall/aller sets against MPI_Alltoall,
 * each an a2a_method run by the same sweep as alltoall/all (common/a2a_sweep).
 * One file per kind: aller_native.c (persistent), aller_p2p.c (isend, rsend),
 * aller_rma.c (put, get), aller_grid.c (2d, 3d, node2d).
 */
#ifndef COMMSWEEP_ALLER_H
#define COMMSWEEP_ALLER_H

#include <stddef.h>

#include "a2a_sweep.h"

extern const struct a2a_method aller_persistent, aller_isend, aller_rsend, aller_put,
    aller_get, aller_2d, aller_3d, aller_node2d;

/* The peer of step k (0 .. size-1) of a rotated exchange: rank + k to send
 * to and rank - k to receive from, so that in every step each rank is the
 * target of exactly one other and no rank is everyone's first. */
static inline int aller_send_peer(int rank, int size, int k) { return (rank + k) % size; }
static inline int aller_recv_peer(int rank, int size, int k)
{
    return (rank - k % size + size) % size;
}

/* Byte offset of peer block q of count longs. */
static inline size_t aller_block(int q, size_t count) { return (size_t)q * count * sizeof(long); }

/* The near-square (ndims 2) or near-cubic (ndims 3) grid of size ranks that
 * aller uses: n[0] <= n[1] (<= n[2]), every side above 1, the longest side
 * as short as possible. Returns 0, or -1 when size has no such grid (a
 * prime for 2, fewer than three prime factors for 3). */
int aller_grid_dims(int size, int ndims, int n[3]);

#endif
