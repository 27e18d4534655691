/* caf_rma: coarray operations over MPI one-sided communication; the mapping
 * is written in caf_rma.h. */
#include "caf_rma.h"

#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "win.h"

/* Live coarrays: image control statements complete what was issued on all
 * of them, as a coarray runtime must. */
#define CAF_MAX_COARRAYS 16
static MPI_Win live[CAF_MAX_COARRAYS];
static size_t nlive;

static MPI_Comm sync_comm = MPI_COMM_NULL;
static MPI_Win lock_win = MPI_WIN_NULL;
static int *lock_words;
static int my_rank;

/* Scratch for caf_sync_images, grown on demand and kept: the call sits in
 * timed loops. */
static struct {
    MPI_Request *reqs;
    MPI_Status *statuses;
    int *partners;
    char *inbox;
    size_t cap;
} scratch;

const char *caf_dir_name(enum caf_dir dir) { return dir == CAF_PUT ? "put" : "get"; }

static int int_count(size_t n)
{
    if (n > (size_t)INT_MAX)
        err_fatal("coarray transfer of %zu elements does not fit an MPI count", n);
    return (int)n;
}

void caf_init(void)
{
    MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &my_rank));
    MPI_CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &sync_comm));
    MPI_CHECK(win_allocate(CAF_LOCK_WORDS * sizeof(int), sizeof(int), MPI_INFO_NULL,
                           MPI_COMM_WORLD, &lock_words, &lock_win));
    MPI_CHECK(MPI_Win_lock_all(MPI_MODE_NOCHECK, lock_win));
    MPI_CHECK(MPI_Win_sync(lock_win));
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
}

void caf_finalize(void)
{
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    MPI_CHECK(MPI_Win_unlock_all(lock_win));
    MPI_CHECK(MPI_Win_free(&lock_win));
    MPI_CHECK(MPI_Comm_free(&sync_comm));
    free(scratch.reqs);
    free(scratch.statuses);
    free(scratch.partners);
    free(scratch.inbox);
    scratch.cap = 0;
}

void caf_coarray_alloc(struct caf_coarray *x, size_t len)
{
    if (nlive == CAF_MAX_COARRAYS)
        err_fatal("more than %d coarrays alive", CAF_MAX_COARRAYS);
    if (len == 0 || len > CAF_MAX_ELEMENTS)
        err_fatal("coarray of %zu elements is out of range", len);
    int rc = win_allocate(len * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD,
                          &x->base, &x->win);
    err_any(MPI_COMM_WORLD, rc != MPI_SUCCESS, ERR_STATUS_USAGE,
            "cannot allocate a coarray of %zu doubles (%.3f GiB per image)", len,
            (double)len * sizeof(double) / (double)(1u << 30));
    x->len = len;
    MPI_CHECK(MPI_Win_lock_all(MPI_MODE_NOCHECK, x->win));
    MPI_CHECK(MPI_Win_sync(x->win));
    live[nlive++] = x->win;
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
}

void caf_coarray_free(struct caf_coarray *x)
{
    for (size_t i = 0; i < nlive; i++) {
        if (live[i] == x->win) {
            live[i] = live[--nlive];
            break;
        }
    }
    MPI_CHECK(MPI_Win_unlock_all(x->win));
    MPI_CHECK(MPI_Win_free(&x->win));
    x->base = NULL;
    x->len = 0;
}

/* One MPI_Put or MPI_Get, without completion. */
static void issue(enum caf_dir dir, struct caf_coarray *x, int rank, double *local, int ocount,
                  MPI_Datatype otype, size_t disp, int tcount, MPI_Datatype ttype)
{
    if (dir == CAF_PUT)
        MPI_CHECK(MPI_Put(local, ocount, otype, rank, (MPI_Aint)disp, tcount, ttype, x->win));
    else
        MPI_CHECK(MPI_Get(local, ocount, otype, rank, (MPI_Aint)disp, tcount, ttype, x->win));
}

static size_t local_completions;

size_t caf_local_completions(void) { return local_completions; }

static void complete_local(struct caf_coarray *x, int rank)
{
    local_completions++;
    MPI_CHECK(MPI_Win_flush_local(rank, x->win));
}

void caf_transfer_contig(enum caf_dir dir, struct caf_coarray *x, int rank, size_t disp,
                         double *local, size_t count)
{
    int n = int_count(count);
    issue(dir, x, rank, local, n, MPI_DOUBLE, disp, n, MPI_DOUBLE);
    complete_local(x, rank);
}

void caf_transfer_strided(enum caf_dir dir, struct caf_coarray *x, int rank, size_t disp,
                          double *local, size_t count, size_t blksize, size_t stride)
{
    MPI_Datatype vec;
    MPI_CHECK(MPI_Type_vector(int_count(count), int_count(blksize), int_count(stride),
                              MPI_DOUBLE, &vec));
    MPI_CHECK(MPI_Type_commit(&vec));
    issue(dir, x, rank, local, 1, vec, disp, 1, vec);
    complete_local(x, rank);
    MPI_CHECK(MPI_Type_free(&vec));
}

static MPI_Datatype box_type(const struct caf_box *b)
{
    int sizes[3], subsizes[3], starts[3];
    for (int d = 0; d < 3; d++) {
        sizes[d] = int_count(b->sizes[d]);
        subsizes[d] = int_count(b->counts[d]);
        starts[d] = int_count(b->starts[d]);
    }
    MPI_Datatype t;
    MPI_CHECK(MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_FORTRAN, MPI_DOUBLE,
                                       &t));
    MPI_CHECK(MPI_Type_commit(&t));
    return t;
}

void caf_transfer_box(enum caf_dir dir, struct caf_coarray *x, int rank,
                      const struct caf_box *remote, double *local_base,
                      const struct caf_box *local)
{
    MPI_Datatype rt = box_type(remote), lt = box_type(local);
    issue(dir, x, rank, local_base, 1, lt, 0, 1, rt);
    complete_local(x, rank);
    MPI_CHECK(MPI_Type_free(&rt));
    MPI_CHECK(MPI_Type_free(&lt));
}

/* Remote completion of everything this rank issued, and a consistent view of
 * its own memory: the part every image control statement starts with. */
bool caf_global_and(bool l)
{
    int mine = l, all = 0;
    caf_sync_all();
    MPI_CHECK(MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD));
    caf_sync_all();
    return all != 0;
}

static void release_all(void)
{
    for (size_t i = 0; i < nlive; i++) {
        MPI_CHECK(MPI_Win_flush_all(live[i]));
        MPI_CHECK(MPI_Win_sync(live[i]));
    }
}

static void acquire_all(void)
{
    for (size_t i = 0; i < nlive; i++)
        MPI_CHECK(MPI_Win_sync(live[i]));
}

void caf_sync_all(void)
{
    release_all();
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    acquire_all();
}

static void scratch_reserve(size_t n)
{
    if (n <= scratch.cap)
        return;
    free(scratch.reqs);
    free(scratch.statuses);
    free(scratch.partners);
    free(scratch.inbox);
    scratch.reqs = malloc(2 * n * sizeof *scratch.reqs);
    scratch.statuses = malloc(2 * n * sizeof *scratch.statuses);
    scratch.partners = malloc(n * sizeof *scratch.partners);
    scratch.inbox = malloc(n);
    if (!scratch.reqs || !scratch.statuses || !scratch.partners || !scratch.inbox)
        err_fatal("out of memory for a sync images list of %zu", n);
    scratch.cap = n;
}

void caf_sync_images(const int *ranks, size_t n)
{
    enum { SYNC_TAG = 17 };
    release_all();
    scratch_reserve(n ? n : 1);
    int *partners = scratch.partners;
    size_t np = 0;
    for (size_t i = 0; i < n; i++) {
        bool seen = ranks[i] == my_rank;
        for (size_t k = 0; k < np && !seen; k++)
            seen = partners[k] == ranks[i];
        if (!seen)
            partners[np++] = ranks[i];
    }
    char token = 0;
    for (size_t k = 0; k < np; k++) {
        MPI_CHECK(MPI_Irecv(&scratch.inbox[k], 0, MPI_CHAR, partners[k], SYNC_TAG, sync_comm,
                            &scratch.reqs[k]));
        MPI_CHECK(MPI_Isend(&token, 0, MPI_CHAR, partners[k], SYNC_TAG, sync_comm,
                            &scratch.reqs[np + k]));
    }
    if (np)
        MPI_CHECK(MPI_Waitall((int)(2 * np), scratch.reqs, scratch.statuses));
    acquire_all();
}

void caf_lock(enum caf_lock_word which, int rank)
{
    int desired = my_rank + 1, expected = 0, old = -1;
    for (;;) {
        MPI_CHECK(MPI_Compare_and_swap(&desired, &expected, &old, MPI_INT, rank,
                                       (MPI_Aint)which, lock_win));
        MPI_CHECK(MPI_Win_flush(rank, lock_win));
        if (old == 0)
            break;
        /* Let the holder run when images share cores; a no-op otherwise. */
        sched_yield();
    }
    acquire_all();
}

void caf_unlock(enum caf_lock_word which, int rank)
{
    int zero = 0, old = -1;
    release_all();
    MPI_CHECK(MPI_Fetch_and_op(&zero, &old, MPI_INT, rank, (MPI_Aint)which, MPI_REPLACE,
                               lock_win));
    MPI_CHECK(MPI_Win_flush(rank, lock_win));
    if (old != my_rank + 1)
        err_fatal("unlock of a lock on rank %d held by %d, not by rank %d", rank, old - 1,
                  my_rank);
}

void caf_critical_begin(void) { caf_lock(CAF_LOCK_CRITICAL, 0); }
void caf_critical_end(void) { caf_unlock(CAF_LOCK_CRITICAL, 0); }
