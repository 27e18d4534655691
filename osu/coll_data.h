/*
 * coll_data: the pure arithmetic of the collective driver, kept apart so it
 * can be unit tested without MPI: element types and their sizes, the largest
 * send value that keeps a sum over all ranks exact in a type, typed loads and
 * stores, the OSU split of a reduce_scatter vector, buffer extents in blocks,
 * and the overlap formula of the non-blocking benchmarks.
 */
#ifndef COMMSWEEP_COLL_DATA_H
#define COMMSWEEP_COLL_DATA_H

#include <stdbool.h>
#include <stddef.h>

#include "coll.h"

/* "char", "int", "float", "double" (the -T choices), NULL-terminated. */
extern const char *const coll_type_names[];
/* The type's name in our messages: coll_type_names', or "byte" for the
 * bytes that the data-moving collectives move without -T. */
const char *coll_type_label(enum coll_type t);
/* The name OMB 7.4 prints in its "# Datatype:" line (bytes: MPI_CHAR, the
 * 1-byte type OMB moves them as). */
const char *coll_type_omb_name(enum coll_type t);

size_t coll_type_size(enum coll_type t);
MPI_Datatype coll_type_mpi(enum coll_type t);

/* Largest send value v such that nranks * v is exact in t (at most 250, the
 * pattern's own maximum); 0 when even 1 per rank would not fit. */
unsigned coll_value_max(enum coll_type t, bool reduction, int nranks);

/* Element i of an array of type t, as a double (exact for the values used). */
double coll_load(enum coll_type t, const void *p, size_t i);
void coll_store(enum coll_type t, void *p, size_t i, double v);

/* Splits total elements over nranks as OSU does: total / nranks each, the
 * first total % nranks ranks one more; displacements are prefix sums.
 * total must fit an int. */
void coll_split(size_t total, int nranks, int *counts, int *displs);

/* Blocks of one size a buffer of extent e holds at nranks. */
size_t coll_blocks(enum coll_extent e, int nranks);

/* Overlap in percent: max(0, 100 - 100 * (overall - compute) / pure), at
 * most 100 (reached when the whole communication hid behind the compute);
 * 0 when pure is not positive. */
double coll_overlap(double overall, double compute, double pure);

#endif
