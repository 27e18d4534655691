/*
 * cpm_predict: model-independent predictions of collective operations from
 * any model's point-to-point predictor (the seed's CPM_predict_* family):
 * flat-tree scatter/gather with serial or parallel point-to-point transfers,
 * their v-variants with a size per process, and binomial trees for Bcast,
 * Reduce, Scatter, Gather (brsg) and Scatterv/Gatherv (sgv).
 * n is the number of processes (at most the predictor's n), root their root,
 * m the bytes per process.
 */
#ifndef COMMSWEEP_CPM_PREDICT_H
#define COMMSWEEP_CPM_PREDICT_H

#include <stddef.h>

#include "cpm_model.h"

enum cpm_coll_op { CPM_COLL_BCAST, CPM_COLL_REDUCE, CPM_COLL_SCATTER, CPM_COLL_GATHER };

/* Sum of the root's transfers (one after another). */
double cpm_predict_flat_sg_serial(const struct cpm_predictor *p, int n, int root, size_t m);
/* Largest of the root's transfers (all at once). */
double cpm_predict_flat_sg_parallel(const struct cpm_predictor *p, int n, int root, size_t m);
/* The seed's CPM_predict_flat_sg and CPM_predict_flat_sgv: a flat tree as
 * MPI runs it, the root posting one transfer after another, which is the
 * serial form; kept under the seed's names for programs written against it. */
double cpm_predict_flat_sg(const struct cpm_predictor *p, int n, int root, size_t m);
double cpm_predict_flat_sgv_serial(const struct cpm_predictor *p, int n, int root,
                                   const size_t *sizes);
double cpm_predict_flat_sgv_parallel(const struct cpm_predictor *p, int n, int root,
                                     const size_t *sizes);
double cpm_predict_flat_sgv(const struct cpm_predictor *p, int n, int root, const size_t *sizes);

/* The bytes of all n processes, sizes[rank] or m each, in *total: 0, or
 * -1 when they do not fit in a size_t. */
int cpm_bytes_total(int n, size_t m, const size_t *sizes, size_t *total);

/* Binomial tree (sends of one node are sequential, different subtrees
 * proceed in parallel). Bcast/Reduce move m bytes per edge, Scatter/Gather
 * the m bytes of every process below the edge; -1 for a scatter or gather
 * whose bytes in all do not fit in a size_t (cpm_bytes_total). */
double cpm_predict_brsg(const struct cpm_predictor *p, int n, int root, size_t m,
                        enum cpm_coll_op op);
/* Binomial Scatterv (op SCATTER) / Gatherv (op GATHER), sizes[rank]. */
double cpm_predict_sgv(const struct cpm_predictor *p, int n, int root, const size_t *sizes,
                       enum cpm_coll_op op);

#endif
