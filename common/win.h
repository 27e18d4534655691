/*
 * win: MPI_Win_allocate for every one-sided benchmark (osu/ and caf/), with
 * the size rounded up to a multiple of WIN_ALIGN bytes. MPICH 4.0 (ch4 over
 * shared memory) loses puts and gets on allocated windows of other sizes
 * (seen at 8 bytes times an odd number, 72, 100 and 200 bytes); the pad is
 * never addressed, so the rounding costs nothing on other libraries.
 */
#ifndef COMMSWEEP_WIN_H
#define COMMSWEEP_WIN_H

#include <mpi.h>
#include <stddef.h>

#define WIN_ALIGN 64

/* bytes rounded up to a multiple of WIN_ALIGN (never 0). */
size_t win_padded_size(size_t bytes);

/* Collective over comm, as MPI_Win_allocate; returns its error code (comm's
 * error handler must return errors). base_ptr is a pointer to a pointer. The
 * whole padded size is zeroed. */
int win_allocate(size_t bytes, int disp_unit, MPI_Info info, MPI_Comm comm, void *base_ptr,
                 MPI_Win *win);

#endif
