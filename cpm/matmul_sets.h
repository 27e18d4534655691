/*
 * matmul_sets: the collectives the parallel matrix product (matmul) runs
 * with, a set of three: the Scatterv of A's row blocks, the Bcast of B and
 * the Gatherv of C's row blocks. "native" is MPI's own; a name X_ALG takes
 * X_Scatterv_ALG, X_Gatherv_ALG and X_Bcast_ALG of libcpm_coll (the seed's
 * Hockney_dfs_binomial_min is Hockney_Scatterv_dfs_binomial_min, ...), or
 * MPI_Bcast where the library has no X_Bcast_ALG (the sorted flat and
 * Traff algorithms exist for Scatterv and Gatherv only). It owns the table
 * of the models' initialisers.
 */
#ifndef COMMSWEEP_CPM_MATMUL_SETS_H
#define COMMSWEEP_CPM_MATMUL_SETS_H

#include <mpi.h>
#include <stddef.h>

#include "cpm_coll_models.h"

struct matmul_set {
    char name[80];
    char model[16];                                          /* "" for native */
    const struct cpm_coll_entry *scatterv, *bcast, *gatherv; /* NULL: MPI's */
};

/* 0, or -1 with a message when name is no set. */
int matmul_set_parse(const char *name, struct matmul_set *s, char *err, size_t errlen);
/* "Hockney_Scatterv_dfs_binomial_min, ..." or "MPI_Scatterv, ...". */
void matmul_set_describe(const struct matmul_set *s, char *out, size_t len);

/* Distributes rank 0's model of the named kind to every process of comm
 * (X_initialize), and frees it again (X_finalize). MPI error codes. */
int matmul_model_init(const char *model, MPI_Comm comm, const void *instance);
int matmul_model_finalize(const char *model, MPI_Comm comm);

/* The three collectives of a set, on doubles, rooted at 0, with MPI's
 * arguments; MPI error codes. */
int matmul_scatterv(const struct matmul_set *s, const double *sendbuf, const int *counts,
                    const int *displs, double *recvbuf, int recvcount, MPI_Comm comm);
int matmul_bcast(const struct matmul_set *s, double *buf, int count, MPI_Comm comm);
int matmul_gatherv(const struct matmul_set *s, const double *sendbuf, int sendcount,
                   double *recvbuf, const int *counts, const int *displs, MPI_Comm comm);

#endif
