/*
 * coll_busbw: the bus bandwidth of a collective, by nccl-tests' definition,
 * so that one figure can be set against a link's peak at any rank count.
 * The algorithm bandwidth is S / t, with S the bytes of the operation as
 * nccl-tests counts them; the bus bandwidth is that times a factor of the
 * collective and the rank count n: 2(n-1)/n for allreduce, (n-1)/n for
 * allgather, reduce-scatter and alltoall, 1 for bcast and reduce.
 *
 * From an OSU size (bytes per rank per peer, coll.h): S is the size for
 * allreduce, reduce, bcast and reduce-scatter (the vector each rank
 * contributes), and n times the size for allgather and alltoall (a rank's
 * whole receive buffer). The v- and w-forms move equal blocks here and
 * count as their plain forms; non-blocking and persistent forms as the
 * blocking one. Pure: no MPI, unit tested.
 */
#ifndef COMMSWEEP_OSU_COLL_BUSBW_H
#define COMMSWEEP_OSU_COLL_BUSBW_H

#include <stdbool.h>
#include <stddef.h>

enum busbw_kind {
    BUSBW_NONE, /* no bus bandwidth defined (barrier, gather, scatter, neighbours) */
    BUSBW_ALLREDUCE,
    BUSBW_ALLGATHER,
    BUSBW_REDUCE_SCATTER,
    BUSBW_ALLTOALL,
    BUSBW_BCAST,
    BUSBW_REDUCE,
};

/* The kind of a program, by its name: "osu_iallreduce",
 * "osu_alltoallv_persistent", "osu_xccl_allreduce", ... (BUSBW_NONE for
 * the others). */
enum busbw_kind busbw_kind_of(const char *program);
/* S in bytes for an OSU size at n ranks. */
double busbw_bytes(enum busbw_kind k, size_t size, int n);
/* The factor of the bus bandwidth at n ranks (0 for BUSBW_NONE). */
double busbw_factor(enum busbw_kind k, int n);
/* Algorithm and bus bandwidth in MB/s (10^6 bytes/s) of one call of
 * seconds; false (and nothing set) for BUSBW_NONE or a time that is not
 * positive. */
bool busbw_of(enum busbw_kind k, size_t size, int n, double seconds, double *algbw_mb_s,
              double *busbw_mb_s);

#endif
