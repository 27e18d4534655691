/*
 * heapcount: how much heap a rank's own code holds, and its peak, so that
 * the scale bench can show what rank 0 keeps as the job grows. In an SMPI
 * build (make SMPI=1) every source of the suite is compiled with this
 * header forced in (-include), so the suite's malloc, calloc, realloc,
 * posix_memalign and free go through counters; SMPI gives each simulated rank its own copy of
 * the program's globals, hence its own counters. What libraries allocate
 * for themselves (MPI, hwloc, GSL, strdup) is not counted. In other builds
 * nothing is redirected and the counts stay 0.
 */
#ifndef COMMSWEEP_HEAPCOUNT_H
#define COMMSWEEP_HEAPCOUNT_H

#include <mpi.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

void *heapcount_malloc(size_t n);
void *heapcount_calloc(size_t n, size_t each);
void *heapcount_realloc(void *p, size_t n);
void heapcount_free(void *p);
int heapcount_posix_memalign(void **p, size_t align, size_t n);

/* The bytes held now and the most held at once, by this rank. */
size_t heapcount_now(void);
size_t heapcount_peak(void);

/* With COMMSWEEP_HEAP_REPORT set in the environment, rank 0 writes one
 * line on stderr: its own peak, and the largest peak of any rank with
 * that rank's number. Collective over comm; nothing otherwise. */
void heapcount_report(MPI_Comm comm);

#ifdef COMMSWEEP_SMPI
#undef malloc
#undef calloc
#undef realloc
#undef free
#define malloc(n) heapcount_malloc(n)
#define calloc(n, each) heapcount_calloc((n), (each))
#define realloc(p, n) heapcount_realloc((p), (n))
#define free(p) heapcount_free(p)
#define posix_memalign(p, align, n) heapcount_posix_memalign((p), (align), (n))
#endif

#endif
