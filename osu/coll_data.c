/* coll_data: pure arithmetic of the collective driver; see coll_data.h. */
#include "coll_data.h"

#include <limits.h>

const char *const coll_type_names[] = {"char", "int", "float", "double", NULL};

const char *coll_type_label(enum coll_type t)
{
    return t == COLL_BYTE ? "byte" : coll_type_names[t];
}

const char *coll_type_omb_name(enum coll_type t)
{
    switch (t) {
    case COLL_INT: return "MPI_INT";
    case COLL_FLOAT: return "MPI_FLOAT";
    case COLL_DOUBLE: return "MPI_DOUBLE";
    default: return "MPI_CHAR";
    }
}

size_t coll_type_size(enum coll_type t)
{
    switch (t) {
    case COLL_INT: return sizeof(int);
    case COLL_FLOAT: return sizeof(float);
    case COLL_DOUBLE: return sizeof(double);
    default: return 1;
    }
}

MPI_Datatype coll_type_mpi(enum coll_type t)
{
    switch (t) {
    /* MPI_CHAR is not a valid type for MPI_SUM; its signed twin is. */
    case COLL_CHAR: return MPI_SIGNED_CHAR;
    case COLL_INT: return MPI_INT;
    case COLL_FLOAT: return MPI_FLOAT;
    case COLL_DOUBLE: return MPI_DOUBLE;
    default: return MPI_BYTE;
    }
}

unsigned coll_value_max(enum coll_type t, bool reduction, int nranks)
{
    const unsigned pattern_max = BUF_PATTERN_RANGE - 1;
    if (!reduction || nranks < 1)
        return pattern_max;
    double exact; /* every integer up to this is exact in t */
    switch (t) {
    case COLL_CHAR: exact = SCHAR_MAX; break;
    case COLL_INT: exact = INT_MAX; break;
    case COLL_FLOAT: exact = 16777216.0; break;      /* 2^24 */
    case COLL_DOUBLE: exact = 9007199254740992.0; break; /* 2^53 */
    default: exact = UCHAR_MAX; break;
    }
    double v = exact / nranks;
    return v >= pattern_max ? pattern_max : (unsigned)v;
}

double coll_load(enum coll_type t, const void *p, size_t i)
{
    switch (t) {
    case COLL_CHAR: return ((const signed char *)p)[i];
    case COLL_INT: return ((const int *)p)[i];
    case COLL_FLOAT: return ((const float *)p)[i];
    case COLL_DOUBLE: return ((const double *)p)[i];
    default: return ((const unsigned char *)p)[i];
    }
}

void coll_store(enum coll_type t, void *p, size_t i, double v)
{
    switch (t) {
    case COLL_CHAR: ((signed char *)p)[i] = (signed char)v; break;
    case COLL_INT: ((int *)p)[i] = (int)v; break;
    case COLL_FLOAT: ((float *)p)[i] = (float)v; break;
    case COLL_DOUBLE: ((double *)p)[i] = v; break;
    default: ((unsigned char *)p)[i] = (unsigned char)v; break;
    }
}

void coll_split(size_t total, int nranks, int *counts, int *displs)
{
    size_t portion = total / (size_t)nranks, remainder = total % (size_t)nranks;
    size_t offset = 0;
    for (int r = 0; r < nranks; r++) {
        size_t n = portion + ((size_t)r < remainder ? 1 : 0);
        counts[r] = (int)n;
        displs[r] = (int)offset;
        offset += n;
    }
}

size_t coll_blocks(enum coll_extent e, int nranks)
{
    switch (e) {
    case COLL_ONE: return 1;
    case COLL_PER_RANK: return (size_t)nranks;
    default: return 0;
    }
}

double coll_overlap(double overall, double compute, double pure)
{
    if (!(pure > 0))
        return 0.0;
    double v = 100.0 - 100.0 * (overall - compute) / pure;
    if (v < 0)
        return 0.0;
    return v > 100.0 ? 100.0 : v;
}

/* The value of an element rank sends at iteration iter (coll.h): kept
 * here, with the value range, so the driver and the neighborhood checks
 * both read it without reading each other. */
double coll_value(const struct coll_ctx *c, int rank, size_t iter, size_t index)
{
    unsigned m = c->value_max + 1;
    if (c->summed)
        return (double)((buf_pattern(0, iter, index) % m + (unsigned)rank % m) % m);
    return (double)(buf_pattern(rank, iter, index) % m);
}
