/*
 * xccl: NCCL (CUDA=1 builds) or RCCL (HIP=1 builds) for the programs whose
 * timed calls are the library's, OMB 7.4's xccl set (osu_xccl_*). The
 * library is loaded at run time (dlopen of libnccl.so.2, or librccl.so and
 * librccl.so.1; COMMSWEEP_XCCL_LIB names another file), so the programs
 * build without its headers; this module declares the few calls and types
 * it uses, as the library's ABI defines them. It owns the library's
 * communicator of all ranks (rank i of it is rank i of the world) and the
 * stream every call is queued on (devmem_stream_create), and ends both
 * before MPI ends.
 *
 * The programs hand xccl_offload to their driver (struct osu_offload,
 * osu.h), which starts it after the options; then each timed call is one
 * of the calls below and xccl_sync. A library that cannot be loaded is
 * refused on every rank together: one line naming it, status 2. A call
 * that fails ends the run with one line naming the call and the library's
 * error string, status 1, from the rank it failed on (the others may be
 * waiting in the library for it, so the run is ended, not agreed on).
 */
#ifndef COMMSWEEP_OSU_XCCL_H
#define COMMSWEEP_OSU_XCCL_H

#include <mpi.h>
#include <stddef.h>

#include "osu.h"

extern const struct osu_offload xccl_offload;

/* "OSU NCCL-CUDA <what>" (RCCL-ROCM in a HIP build), as OMB 7.4 titles its
 * xccl programs; the text lives until the next call. */
const char *xccl_title(const char *what);

/* The library's calls, queued on the stream, on count elements of elem:
 * MPI_CHAR or MPI_SIGNED_CHAR (int8), MPI_BYTE (uint8), MPI_INT, MPI_FLOAT,
 * MPI_DOUBLE, the types the drivers use. Reductions are sums. xccl_bcast
 * works in place, as OMB 7.4's; xccl_alltoall is a group of a send to and
 * a receive from every rank, block r at r * count elements, as OMB 7.4's. */
void xccl_allreduce(const void *send, void *recv, size_t count, MPI_Datatype elem);
void xccl_reduce(const void *send, void *recv, size_t count, MPI_Datatype elem, int root);
void xccl_bcast(void *buf, size_t count, MPI_Datatype elem, int root);
void xccl_allgather(const void *send, void *recv, size_t count, MPI_Datatype elem);
void xccl_reduce_scatter(const void *send, void *recv, size_t count, MPI_Datatype elem);
void xccl_alltoall(const void *send, void *recv, size_t count, MPI_Datatype elem);
void xccl_send(const void *buf, size_t count, MPI_Datatype elem, int peer);
void xccl_recv(void *buf, size_t count, MPI_Datatype elem, int peer);
/* A window of messages of count elements with peer, in one group: message
 * w sent from send + w * stride and received into recv + w * stride
 * (stride 0: every message in the one buffer); send or recv NULL: none
 * that way. */
void xccl_window(const void *send, void *recv, size_t stride, size_t window, size_t count,
                 MPI_Datatype elem, int peer);
/* Calls between these are one group: the library starts them together. */
void xccl_group_start(void);
void xccl_group_end(void);
/* Waits until everything queued on the stream has finished: only then
 * are the results in the receive buffers. */
void xccl_sync(void);

#endif
