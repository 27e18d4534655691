/*
 * cpm_api: the names the CPM manual gives its interface (seed sections 5.3
 * and 6.1-6.9, the structs of 8.3 and 8.10-8.14), so that a program
 * written against the manual builds with this header in place of its
 * include lines. Thin wrappers over the cpm_ calls of libcpm and
 * libcpm_coll; this module owns nothing but the message of the last
 * X_read or X_estimate that gave no model.
 *
 * Types: CPM_predictor (struct cpm_predictor: predict_p2p(_this, i, j, M)
 * as in 8.3, beside the library's size_t p2p; a program's own predictor
 * may set predict_p2p alone), X_model for X in Hockney, LinInterp, PLogP,
 * LMO (the model structs, predictor first), MPIB_precision, MPIB_msgset,
 * MPIB_result (MPIBlib's measurement structs: the cpm_ ones, with MPIBlib's
 * field names), MPIB_sort_order, CPM_next_node_strategy and CPM_coll_ops.
 *
 * For X in Hockney, LinInterp, PLogP and LMO:
 *   X_alloc, X_free, X_read, X_write   (6.2: a zeroed model, NULL for a
 *       count outside [1, CPM_MAX_PROCESSES]; X_read takes the whole file
 *       as X_write writes it, with the strict reader of cpm_model.h, and
 *       gives NULL when the stream holds no valid model, cpm_api_error()
 *       saying why);
 *   X_estimate... (6.4-6.7), collective, the model on the root (rank 0) and
 *       NULL elsewhere, NULL on every process with cpm_api_error() set when
 *       the arguments cannot give a model (too few processes, a message set
 *       or precision the tools would refuse);
 *   X_predict_p2p(_this, i, j, M) and each model's own predictions;
 * with CPM_measure_p2pp(_p2p) (6.1), the CPM_predict_* family (6.3), the
 * generic collectives CPM_Y (6.8) and X_initialize, X_finalize,
 * X_model_instance and every X_Y collective (6.9) of cpm_coll_models.h.
 *
 * Where the manual is silent or differs from libcpm: sizes and counts are
 * int as in the manual, and a prediction for a size below 0 is NaN (no
 * message has one); LinInterp_alloc's num_points must be in [1,
 * CPM_MAX_POINTS]; PLogP_alloc(n) samples the curves at the one size 0;
 * LMO_alloc gives the heterogeneous model; LMO_model's S, M1 and M2 are
 * size_t (CPM_NO_THRESHOLD when not found) and its b, the rates beta, is
 * derived from inv_beta (1/beta, which the file holds) by the library's
 * own functions. Not provided: LinInterp_model's splines and accels and
 * PLogP_model's logp (GSL's and logp_mpi's objects; libcpm keeps the sampled
 * times in sizes/times and pairs instead), and LMO_init_R (no R here).
 */
#ifndef COMMSWEEP_CPM_API_H
#define COMMSWEEP_CPM_API_H

#include <stdio.h>

#include "cpm_coll_models.h"
#include "cpm_hockney.h"
#include "cpm_lininterp.h"
#include "cpm_lmo.h"
#include "cpm_measure.h"
#include "cpm_plogp.h"
#include "cpm_predict.h"

typedef struct cpm_predictor CPM_predictor;
typedef struct cpm_hockney Hockney_model;
typedef struct cpm_lininterp LinInterp_model;
typedef struct cpm_plogp PLogP_model;
typedef struct cpm_lmo LMO_model;
typedef struct cpm_precision MPIB_precision;
typedef struct cpm_msgset MPIB_msgset;
typedef struct cpm_result MPIB_result;
typedef enum cpm_sort_order MPIB_sort_order;
typedef enum cpm_next_node CPM_next_node_strategy;
typedef enum cpm_coll_op CPM_coll_ops;

/* 6.6.2: the number of triplets i < j < k of n processes, and the index
 * of (i, j, k) among them in lexicographic order (cpm_triplet_index). */
#define LMO_C3(n) ((n) * ((n) - 1) * ((n) - 2) / 6)
/* Triplets whose first is below i, then pairs (j', k') after i with j' < j,
 * then k' < k. */
#define LMO_IJK2INDEX(n, i, j, k)                                                                \
    (LMO_C3(n) - LMO_C3((n) - (i)) +                                                             \
     ((j) - (i) - 1) * (2 * ((n) - (i) - 1) - ((j) - (i) - 1) - 1) / 2 + ((k) - (j) - 1))

#define CPM_API_DECLARE_FILE(X)                                                                  \
    void X##_free(X##_model *model);                                                             \
    void X##_read(FILE *stream, X##_model **model);                                              \
    void X##_write(FILE *stream, const X##_model *model);                                        \
    double X##_predict_p2p(void *_this, int i, int j, int M);
CPM_API_DECLARE_FILE(Hockney)
CPM_API_DECLARE_FILE(LinInterp)
CPM_API_DECLARE_FILE(PLogP)
CPM_API_DECLARE_FILE(LMO)

Hockney_model *Hockney_alloc(int n);
LinInterp_model *LinInterp_alloc(int size, int num_points);
PLogP_model *PLogP_alloc(int n);
LMO_model *LMO_alloc(int n);

/* Why the last X_read or X_estimate of this process gave no model ("" when
 * it gave one). */
const char *cpm_api_error(void);
/* The same (the name of earlier releases). */
const char *cpm_api_read_error(void);

/* 6.1: the one-to-two experiments of M bytes of every triplet, results in
 * LMO_IJK2INDEX order, 3 per triplet (one per root), on rank 0; with the
 * round trips within the same triplets (cpm_measure_p2pp_p2p). */
void CPM_measure_p2pp(MPI_Comm comm, int M, int parallel, MPIB_precision precision,
                      MPIB_result *results);
void CPM_measure_p2pp_p2p(MPI_Comm comm, int M, int parallel, MPIB_precision precision,
                          MPIB_result *results_p2pp, MPIB_result *results_p2p[2]);

/* 6.4-6.7: estimates (collective; the model on rank 0). Hockney_estimate
 * takes round trips of 0 and M bytes; the others the message set. */
void Hockney_estimate(MPI_Comm comm, int M, MPIB_precision precision, int parallel,
                      Hockney_model **model);
void Hockney_estimate_regression(MPI_Comm comm, MPIB_msgset msgset, MPIB_precision precision,
                                 int parallel, Hockney_model **model);
void LinInterp_estimate(MPI_Comm comm, MPIB_precision precision, MPIB_msgset msgset,
                        int parallel, LinInterp_model **model);
void PLogP_estimate(MPI_Comm comm, MPIB_precision precision, MPIB_msgset msgset, int parallel,
                    PLogP_model **model);
void LMO_estimate(MPI_Comm comm, MPIB_precision precision, MPIB_msgset msgset, int parallel,
                  LMO_model **model);
/* The homogeneous LMO model (one C, t, L and beta). */
void LMO_estimate_homogeneous(MPI_Comm comm, MPIB_precision precision, MPIB_msgset msgset,
                              LMO_model **model);

/* 6.4: Hockney's own predictions, _this a Hockney_model. */
double Hockney_predict_sg_flat_serial(void *_this, int root, int M);
double Hockney_predict_sg_flat_parallel(void *_this, int root, int M);
double Hockney_predict_sg_binomial(void *_this, int root, int M);
double Hockney_hpredict_sg_flat_serial(void *_this, int M);
double Hockney_hpredict_sg_flat_parallel(void *_this, int M);
double Hockney_hpredict_sg_binomial(void *_this, int M);
/* 6.6: LMO's flat scatter and gather, _this an LMO_model. */
double LMO_predict_scatter_flat(void *_this, int root, int M);
double LMO_predict_gather_flat(void *_this, int root, int M);
/* 6.7: _this a PLogP_model; LogGP's from the same model. */
double LogGP_predict_p2p(void *_this, int i, int j, int M);
double PLogP_hpredict_sg_linear(void *_this, int M);
double LogGP_hpredict_sg_linear(void *_this, int M);

/* 6.3: generic predictions over any predictor for size processes; the
 * v-forms take size_bytes[rank]. NaN when a size is below 0. */
double CPM_predict_brsg(CPM_predictor *predictor, int size, int root, int size_bytes,
                        CPM_coll_ops operation);
double CPM_predict_sgv(CPM_predictor *predictor, int size, int root, int *size_bytes,
                       CPM_coll_ops operation);
double CPM_predict_flat_sgv(CPM_predictor *predictor, int size, int root, int *size_bytes);
double CPM_predict_flat_sg(CPM_predictor *predictor, int size, int root, int size_bytes);
double CPM_predict_flat_sgv_parallel(CPM_predictor *predictor, int size, int root,
                                     int *size_bytes);
double CPM_predict_flat_sg_parallel(CPM_predictor *predictor, int size, int root, int size_bytes);
double CPM_predict_flat_sgv_serial(CPM_predictor *predictor, int size, int root, int *size_bytes);
double CPM_predict_flat_sg_serial(CPM_predictor *predictor, int size, int root, int size_bytes);

#endif
