/*
 * caf_rma: the coarray operations the benchmarks measure, written once over
 * MPI-3 one-sided communication (passive target). Image i of a coarray
 * program is world rank i-1 here; every function takes ranks.
 *
 * Mapping (what each coarray operation becomes, and what it guarantees):
 *
 *   double x(n)[*]          caf_coarray_alloc: MPI_Win_allocate of n doubles
 *                           (disp_unit 8, zeroed), then MPI_Win_lock_all with
 *                           MPI_MODE_NOCHECK: one shared passive-target epoch
 *                           stays open for the life of the coarray.
 *                           Collective, like an allocate of a coarray.
 *   x(d:d+n-1)[j] = y       caf_transfer_contig(CAF_PUT): one MPI_Put of n
 *                           doubles, then MPI_Win_flush_local(j). On return y
 *                           may be reused (local completion); the data is
 *                           guaranteed at image j only after the next image
 *                           control statement (sync all / sync images /
 *                           unlock / end critical), as in Fortran.
 *   y = x(d:d+n-1)[j]       caf_transfer_contig(CAF_GET): MPI_Get, then
 *                           MPI_Win_flush_local(j): y holds the data on return.
 *   x(d:e:s)[j] (1 elem/s)  caf_transfer_strided: one MPI_Put/MPI_Get with the
 *   or blocks of b every s  same MPI_Type_vector(count, b, s, MPI_DOUBLE) as
 *                           origin and target type; completion as above.
 *   a loop of block copies  a loop of caf_transfer_contig: each statement is
 *                           complete on return, as in Fortran.
 *   x(box)[j] = y(box)      caf_transfer_box: MPI_Type_create_subarray (Fortran
 *                           order, axis 0 fastest) on both sides, one call.
 *   sync all                caf_sync_all: MPI_Win_flush_all on every live
 *                           coarray (remote completion of this image's puts),
 *                           MPI_Win_sync, MPI_Barrier, MPI_Win_sync.
 *   sync images(list)       caf_sync_images: MPI_Win_flush_all + MPI_Win_sync
 *                           on every live coarray, then one zero-byte message
 *                           to and from each distinct partner other than
 *                           oneself (MPI_Isend/MPI_Irecv/MPI_Waitall on a
 *                           private communicator), then MPI_Win_sync. Messages
 *                           between two ranks do not overtake, so the k-th
 *                           sync images of A with B pairs with the k-th of B
 *                           with A, as the standard requires.
 *   lock(l[j])              caf_lock: MPI_Compare_and_swap of 0 -> rank+1 on
 *                           the lock word at j, MPI_Win_flush(j), retried until
 *                           the old value was 0; then MPI_Win_sync on the
 *                           coarrays (acquire).
 *   unlock(l[j])            caf_unlock: MPI_Win_flush_all + MPI_Win_sync on the
 *                           coarrays (release), then MPI_Fetch_and_op(0,
 *                           MPI_REPLACE) + MPI_Win_flush(j); unlocking a lock
 *                           this rank does not hold is a fatal error.
 *   critical / end critical caf_critical_begin/end: lock/unlock of a lock word
 *                           on image 1 reserved for the critical construct.
 *
 * Derived datatypes are built and freed in each call, as a runtime that
 * translates each statement on its own must; their cost is part of what is
 * measured. Element counts handed to MPI must fit an int; callers keep
 * array lengths below CAF_MAX_ELEMENTS so that they do.
 */
#ifndef COMMSWEEP_CAF_RMA_H
#define COMMSWEEP_CAF_RMA_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

#define CAF_MAX_ELEMENTS ((size_t)1 << 30)

enum caf_dir { CAF_PUT = 0, CAF_GET = 1 };
/* "put" / "get" */
const char *caf_dir_name(enum caf_dir dir);

struct caf_coarray {
    MPI_Win win;
    double *base; /* this image's part */
    size_t len;   /* elements per image */
};

/* A box (section) of a 3-D array of sizes[] elements, axis 0 fastest. */
struct caf_box {
    size_t sizes[3];
    size_t starts[3];
    size_t counts[3];
};

/* Collective over MPI_COMM_WORLD: the synchronisation communicator and the
 * lock words. caf_finalize frees them. */
void caf_init(void);
void caf_finalize(void);

/* Collective; len >= 1. */
void caf_coarray_alloc(struct caf_coarray *x, size_t len);
void caf_coarray_free(struct caf_coarray *x);

/* local is this image's memory (it may lie inside x); disp is counted in
 * elements from the start of x on image `rank`. */
void caf_transfer_contig(enum caf_dir dir, struct caf_coarray *x, int rank, size_t disp,
                         double *local, size_t count);
/* count blocks of blksize elements, stride elements apart, on both sides. */
void caf_transfer_strided(enum caf_dir dir, struct caf_coarray *x, int rank, size_t disp,
                          double *local, size_t count, size_t blksize, size_t stride);
/* MPI_Win_flush_local calls this rank has made so far (one per transfer
 * statement): lets a benchmark show how its pattern completes. */
size_t caf_local_completions(void);
/* remote box of x on rank <-> local box of local_base (both described with
 * their own array sizes; the counts must agree). */
void caf_transfer_box(enum caf_dir dir, struct caf_coarray *x, int rank,
                      const struct caf_box *remote, double *local_base,
                      const struct caf_box *local);

void caf_sync_all(void);
/* The original's global check gand(l): sync all, every image's flag read,
 * sync all; here sync all + MPI_Allreduce(MPI_LAND) + sync all. Collective;
 * true when l is true on every image. */
bool caf_global_and(bool l);
/* Partners may repeat and may include this rank; each other distinct rank
 * is synchronised with once. */
void caf_sync_images(const int *ranks, size_t n);

enum caf_lock_word { CAF_LOCK_USER = 0, CAF_LOCK_CRITICAL = 1, CAF_LOCK_WORDS = 2 };
void caf_lock(enum caf_lock_word which, int rank);
void caf_unlock(enum caf_lock_word which, int rank);
void caf_critical_begin(void);
void caf_critical_end(void);

#endif
