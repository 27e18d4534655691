/*
 * cpm_coll_models: the model-specific collectives of libcpm_coll, the
 * seed's X_Y functions with MPI's argument lists (for example
 * Hockney_Scatter_dfs_binomial_min, PLogP_Bcast_ucs_binomial_max,
 * LinInterp_Gatherv_Traff, LMO_Gather_split_flat). Each binds a generic
 * algorithm of cpm_coll.h to the model instance X_initialize distributed.
 *
 * For X in Hockney, LinInterp, LogGP, PLogP and LMO:
 *   int X_initialize(MPI_Comm comm, const void *model)  (model significant
 *       on rank 0 only: a struct cpm_hockney, cpm_lininterp, cpm_plogp (also
 *       for LogGP) or cpm_lmo; every process gets the same copy, read back
 *       from the text of the model file);
 *   int X_finalize(MPI_Comm comm);
 *   X_model_instance, the seed's global: this process's copy after
 *       X_initialize (owned here, freed by X_finalize), NULL before;
 *   X_{Bcast,Reduce,Scatter,Gather,Scatterv,Gatherv}_{dfs,bfs,ucs}_binomial_{min,max},
 *   X_{Scatterv,Gatherv}_sorted_flat_{asc,dsc}, X_{Scatterv,Gatherv}_Traff.
 * LMO adds LMO_Scatter_split_flat (a flat scatter, the root posting all
 * sends at once) and LMO_Gather_split_flat (a flat gather that, for blocks
 * of M1 <= m < M2 bytes, runs as rounds of gathers of pieces below M1,
 * the LMO model's escalation thresholds). All take MPI_IN_PLACE at the
 * root as cpm_coll.h says.
 *
 * cpm_coll_ops lists every operation by name with what it is, for the
 * tools (prediction uses the same tree builder as the operation).
 */
#ifndef COMMSWEEP_CPM_COLL_MODELS_H
#define COMMSWEEP_CPM_COLL_MODELS_H

#include <mpi.h>

#include "cpm_coll.h"

#define CPM_COLL_MODELS(F) F(Hockney) F(LinInterp) F(LogGP) F(PLogP) F(LMO)

/* The model struct of each X (LogGP reads PLogP's). */
struct cpm_hockney;
struct cpm_lininterp;
struct cpm_plogp;
struct cpm_lmo;
#define CPM_COLL_TYPE_Hockney struct cpm_hockney
#define CPM_COLL_TYPE_LinInterp struct cpm_lininterp
#define CPM_COLL_TYPE_LogGP struct cpm_plogp
#define CPM_COLL_TYPE_PLogP struct cpm_plogp
#define CPM_COLL_TYPE_LMO struct cpm_lmo

#define CPM_COLL_ARGS_BCAST void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm
#define CPM_COLL_ARGS_REDUCE                                                                     \
    const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,   \
        MPI_Comm comm
#define CPM_COLL_ARGS_SG                                                                         \
    const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,     \
        MPI_Datatype recvtype, int root, MPI_Comm comm
#define CPM_COLL_ARGS_SCATTERV                                                                   \
    const void *sendbuf, const int *sendcounts, const int *displs, MPI_Datatype sendtype,         \
        void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm
#define CPM_COLL_ARGS_GATHERV                                                                    \
    const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,                    \
        const int *recvcounts, const int *displs, MPI_Datatype recvtype, int root, MPI_Comm comm

#define CPM_COLL_DECLARE_BINOMIAL(X, S, N)                                                       \
    int X##_Bcast_##S##_binomial_##N(CPM_COLL_ARGS_BCAST);                                       \
    int X##_Reduce_##S##_binomial_##N(CPM_COLL_ARGS_REDUCE);                                     \
    int X##_Scatter_##S##_binomial_##N(CPM_COLL_ARGS_SG);                                        \
    int X##_Gather_##S##_binomial_##N(CPM_COLL_ARGS_SG);                                         \
    int X##_Scatterv_##S##_binomial_##N(CPM_COLL_ARGS_SCATTERV);                                 \
    int X##_Gatherv_##S##_binomial_##N(CPM_COLL_ARGS_GATHERV);

#define CPM_COLL_DECLARE(X)                                                                      \
    extern CPM_COLL_TYPE_##X *X##_model_instance;                                                \
    int X##_initialize(MPI_Comm comm, const void *model);                                        \
    int X##_finalize(MPI_Comm comm);                                                             \
    CPM_COLL_DECLARE_BINOMIAL(X, dfs, min)                                                       \
    CPM_COLL_DECLARE_BINOMIAL(X, dfs, max)                                                       \
    CPM_COLL_DECLARE_BINOMIAL(X, bfs, min)                                                       \
    CPM_COLL_DECLARE_BINOMIAL(X, bfs, max)                                                       \
    CPM_COLL_DECLARE_BINOMIAL(X, ucs, min)                                                       \
    CPM_COLL_DECLARE_BINOMIAL(X, ucs, max)                                                       \
    int X##_Scatterv_sorted_flat_asc(CPM_COLL_ARGS_SCATTERV);                                    \
    int X##_Scatterv_sorted_flat_dsc(CPM_COLL_ARGS_SCATTERV);                                    \
    int X##_Gatherv_sorted_flat_asc(CPM_COLL_ARGS_GATHERV);                                      \
    int X##_Gatherv_sorted_flat_dsc(CPM_COLL_ARGS_GATHERV);                                      \
    int X##_Scatterv_Traff(CPM_COLL_ARGS_SCATTERV);                                              \
    int X##_Gatherv_Traff(CPM_COLL_ARGS_GATHERV);

CPM_COLL_MODELS(CPM_COLL_DECLARE)

/* The seed's generic names: the predictor and the strategy (next-node rule
 * or sort order), then MPI's arguments, e.g.
 * CPM_Scatter_bfs_binomial(p, CPM_NEXT_MIN, sendbuf, ...). */
#define CPM_COLL_DECLARE_GENERIC(S)                                                              \
    int CPM_Bcast_##S##_binomial(const struct cpm_predictor *p, enum cpm_next_node next,        \
                                 CPM_COLL_ARGS_BCAST);                                           \
    int CPM_Reduce_##S##_binomial(const struct cpm_predictor *p, enum cpm_next_node next,       \
                                  CPM_COLL_ARGS_REDUCE);                                         \
    int CPM_Scatter_##S##_binomial(const struct cpm_predictor *p, enum cpm_next_node next,      \
                                   CPM_COLL_ARGS_SG);                                            \
    int CPM_Gather_##S##_binomial(const struct cpm_predictor *p, enum cpm_next_node next,       \
                                  CPM_COLL_ARGS_SG);                                             \
    int CPM_Scatterv_##S##_binomial(const struct cpm_predictor *p, enum cpm_next_node next,     \
                                    CPM_COLL_ARGS_SCATTERV);                                     \
    int CPM_Gatherv_##S##_binomial(const struct cpm_predictor *p, enum cpm_next_node next,      \
                                   CPM_COLL_ARGS_GATHERV);
CPM_COLL_DECLARE_GENERIC(dfs)
CPM_COLL_DECLARE_GENERIC(bfs)
CPM_COLL_DECLARE_GENERIC(ucs)
int CPM_Scatterv_sorted_flat(const struct cpm_predictor *p, enum cpm_sort_order order,
                             CPM_COLL_ARGS_SCATTERV);
int CPM_Gatherv_sorted_flat(const struct cpm_predictor *p, enum cpm_sort_order order,
                            CPM_COLL_ARGS_GATHERV);
int CPM_Scatterv_Traff(const struct cpm_predictor *p, CPM_COLL_ARGS_SCATTERV);
int CPM_Gatherv_Traff(const struct cpm_predictor *p, CPM_COLL_ARGS_GATHERV);

int LMO_Scatter_split_flat(CPM_COLL_ARGS_SG);
int LMO_Gather_split_flat(CPM_COLL_ARGS_SG);

/* An operation of the library. */
struct cpm_coll_entry {
    const char *name;  /* the function's name, e.g. Hockney_Scatter_dfs_binomial_min */
    const char *model; /* the model kind's name, e.g. Hockney */
    enum cpm_coll_op_kind op;
    int lmo_split;           /* 1 for the LMO split-flat operations, else 0 */
    struct cpm_coll_alg alg; /* the generic algorithm (lmo_split 0) */
    void (*fn)(void);        /* the function, to be called through cpm_coll_entry_call */
};
extern const struct cpm_coll_entry cpm_coll_ops[];
extern const size_t cpm_coll_nops;
/* NULL when unknown. */
const struct cpm_coll_entry *cpm_coll_op_find(const char *name);

/* The arguments of any operation: count elements of type per process
 * (Scatterv/Gatherv: counts[rank] at displs[rank] on the root's side, count
 * on the others'), op for Reduce. */
struct cpm_coll_call {
    const void *sendbuf;
    void *recvbuf; /* Bcast: the buffer is sendbuf */
    int count;
    MPI_Datatype type;
    const int *counts, *displs;
    MPI_Op op;
    int root;
    MPI_Comm comm;
};
/* Calls fn (e->fn, or the same function found elsewhere, e.g. by dlsym)
 * with the argument list of e's kind. */
int cpm_coll_entry_call(const struct cpm_coll_entry *e, void (*fn)(void),
                        const struct cpm_coll_call *a);
/* The prediction of an operation with a model (its kind's own model
 * struct) on n processes, m bytes per process; negative on failure. */
double cpm_coll_op_predict(const struct cpm_coll_entry *o, const void *model, int n, int root,
                           size_t m);
/* The tree the operation runs (not for the LMO split-flat ones). */
int cpm_coll_op_tree(const struct cpm_coll_entry *o, const void *model, int n, int root, size_t m,
                     struct cpm_tree *t);

#endif
