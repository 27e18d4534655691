/* heapcount: see heapcount.h. */
#include "heapcount.h"

/* The allocator's own functions, whatever macros the header or MPI's set
 * (before malloc.h, whose prototypes they would rename). */
#undef malloc
#undef calloc
#undef realloc
#undef free
#undef posix_memalign

#include <malloc.h>
#include <stdio.h>

static size_t held, peak;

/* A block's true size comes from the allocator, so a block that some
 * library allocated and the suite frees is taken off as what it was. */
static void *counted(void *p)
{
    if (p) {
        held += malloc_usable_size(p);
        if (held > peak)
            peak = held;
    }
    return p;
}

static void uncount(void *p)
{
    size_t n = p ? malloc_usable_size(p) : 0;
    held = n < held ? held - n : 0;
}

void *heapcount_malloc(size_t n) { return counted(malloc(n)); }

void *heapcount_calloc(size_t n, size_t each) { return counted(calloc(n, each)); }

void *heapcount_realloc(void *p, size_t n)
{
    size_t before = p ? malloc_usable_size(p) : 0;
    void *q = realloc(p, n);
    if (!q && n)
        return NULL; /* p is still held */
    held = before < held ? held - before : 0;
    return counted(q);
}

void heapcount_free(void *p)
{
    uncount(p);
    free(p);
}

int heapcount_posix_memalign(void **p, size_t align, size_t n)
{
    int rc = posix_memalign(p, align, n);
    if (rc == 0)
        counted(*p);
    return rc;
}

size_t heapcount_now(void) { return held; }
size_t heapcount_peak(void) { return peak; }

void heapcount_report(MPI_Comm comm)
{
    if (!getenv("COMMSWEEP_HEAP_REPORT"))
        return;
    int rank;
    MPI_Comm_rank(comm, &rank);
    struct {
        double bytes;
        int rank;
    } mine = {(double)peak, rank}, most;
    if (MPI_Reduce(&mine, &most, 1, MPI_DOUBLE_INT, MPI_MAXLOC, 0, comm) != MPI_SUCCESS)
        return;
    if (rank == 0)
        fprintf(stderr, "heap peak: rank 0 %zu bytes, largest rank %d %.0f bytes\n", peak,
                most.rank, most.bytes);
}
