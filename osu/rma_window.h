/*
 * rma_window: the window of a two-rank one-sided run and its memory. Creates
 * it the way -w asks (MPI_Win_create over MPI_Alloc_mem memory, or over
 * device memory; MPI_Win_allocate; MPI_Win_create_dynamic with the memory
 * attached and its address sent to the peer), passes the alloc_shm hint the
 * OSU seed describes unless hints are off, and gives the owner a correct way
 * to touch its own window memory between epochs.
 */
#ifndef COMMSWEEP_OSU_RMA_WINDOW_H
#define COMMSWEEP_OSU_RMA_WINDOW_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "rma_mode.h"

/* Where the memory of a create or dynamic window on the host comes from.
 * The choice shows in the figures: with Open MPI 4.1 on one node, puts of
 * 4 KiB and more into MPI_Alloc_mem memory take about 10% longer, and gets
 * of 64-512 KiB from it run up to 1.7 times faster, than with OMB 7.4's
 * posix_memalign memory (osu/README.md). */
enum rma_win_memory { RMA_MEM_ALLOC_MEM, RMA_MEM_MALLOC };
extern const char *const rma_win_memory_names[]; /* "alloc_mem", "malloc", NULL */

struct rma_window {
    MPI_Win win;
    struct buf mem;       /* this rank's window memory */
    enum rma_win_kind kind;
    int rank;             /* this rank in the window's communicator */
    bool mpi_memory;      /* from MPI_Alloc_mem: released with MPI_Free_mem */
    MPI_Aint peer_base;   /* target displacement of the peer's window start */
};

/* Collective over comm (two ranks; rank is this one's in comm, peer the
 * other's): bytes of window memory on where. A failed allocation ends every
 * rank with status 2 and one line. */
void rma_window_open(struct rma_window *w, enum rma_win_kind kind, enum rma_win_memory memory,
                     size_t bytes, enum buf_where where, bool hints, int rank, int peer,
                     MPI_Comm comm);
void rma_window_close(struct rma_window *w);

/* One line for the header describing how the window was made. */
void rma_window_describe(enum rma_win_kind kind, enum rma_win_memory memory, bool hints,
                         bool device, char *text, size_t len);

/* Local access of the owner to its window memory. Between passive-target
 * epochs the owner locks its own window (exclusive to write, shared to read)
 * so the access is ordered with remote ones in either memory model; after an
 * active-target epoch (wait, fence) it may read directly. */
enum rma_local { RMA_LOCAL_DIRECT, RMA_LOCAL_READ, RMA_LOCAL_WRITE };
void rma_window_local_begin(const struct rma_window *w, enum rma_local how);
void rma_window_local_end(const struct rma_window *w, enum rma_local how);

#endif
