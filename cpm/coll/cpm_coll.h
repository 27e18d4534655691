/*
 * cpm_coll: the generic model-based collectives (the seed's CPM_Y family),
 * parameterised by any model's point-to-point predictor. Each builds its
 * tree with cpm_tree (cpm_coll_tree gives the same tree for a prediction)
 * and runs it with blocking point-to-point messages on the communicator
 * (tag CPM_COLL_TAG for data, CPM_COLL_TAG + 2 .. + 16385 for the headers
 * of Scatterv/Gatherv, one tag per operation from a counter cached on the
 * communicator): a node's transfers follow one another in the tree's
 * order; subtrees proceed in parallel.
 *
 * The arguments after the predictor and the algorithm are MPI's, with the
 * meaning MPI gives them (any root, any number of processes, any datatype;
 * scatter and gather data travel between the ends as bytes, so a sendtype
 * and a recvtype must have the same type signature as in MPI). The
 * predictor must describe at least the communicator's processes. Reduce
 * needs a commutative operation. MPI_IN_PLACE is taken at the root as MPI
 * defines it: Reduce's and Gather(v)'s sendbuf (the root's contribution is
 * in recvbuf already; sendcount and sendtype are ignored there), Scatter(v)'s
 * recvbuf (the root's block stays in sendbuf; recvcount and recvtype are
 * ignored there). Anywhere else, and for Bcast, it is erroneous, as in MPI:
 * that process returns MPI_ERR_BUFFER at once (the others may then wait,
 * as they do for any erroneous argument of one process).
 * Each returns MPI_SUCCESS or an MPI error code; nothing prints or exits.
 *
 * Scatterv/Gatherv counts reach the other processes as cpm_coll_sgv_mode
 * says: CPM_SGV_PROPAGATE (0, default) the root builds the tree and sends
 * every child the description of its subtree (processes, subtree sizes,
 * bytes) ahead of the data; CPM_SGV_BCAST (1) the root broadcasts the
 * counts and every process builds the tree; CPM_SGV_ALLOVER (2) the counts
 * and types are valid on every process already.
 */
#ifndef COMMSWEEP_CPM_COLL_H
#define COMMSWEEP_CPM_COLL_H

#include <mpi.h>

#include "cpm_model.h"
#include "cpm_tree.h"

#define CPM_COLL_TAG 7301

enum cpm_sgv_mode { CPM_SGV_PROPAGATE = 0, CPM_SGV_BCAST = 1, CPM_SGV_ALLOVER = 2 };
extern int cpm_coll_sgv_mode;

enum cpm_coll_kind { CPM_ALG_BINOMIAL, CPM_ALG_SORTED_FLAT, CPM_ALG_TRAFF };
struct cpm_coll_alg {
    enum cpm_coll_kind kind;
    enum cpm_tree_search search; /* binomial */
    enum cpm_next_node next;     /* binomial */
    enum cpm_sort_order order;   /* sorted flat */
};

/* The operations, for tables, predictions and the tools. */
enum cpm_coll_op_kind {
    CPM_OP_BCAST, CPM_OP_REDUCE, CPM_OP_SCATTER, CPM_OP_GATHER, CPM_OP_SCATTERV, CPM_OP_GATHERV
};
enum cpm_tree_dir cpm_coll_op_dir(enum cpm_coll_op_kind op);

/* The tree an operation runs on n processes: m bytes per process (Bcast,
 * Reduce: the message; Scatter, Gather: each block) or bytes[rank] (v). */
int cpm_coll_tree(const struct cpm_predictor *p, const struct cpm_coll_alg *alg,
                  enum cpm_coll_op_kind op, int n, int root, size_t m, const size_t *bytes,
                  struct cpm_tree *t);
/* Its prediction (seconds), or a negative value when the tree cannot be built. */
double cpm_coll_predict(const struct cpm_predictor *p, const struct cpm_coll_alg *alg,
                        enum cpm_coll_op_kind op, int n, int root, size_t m, const size_t *bytes);

int cpm_coll_bcast(const struct cpm_predictor *p, const struct cpm_coll_alg *alg, void *buffer,
                   int count, MPI_Datatype datatype, int root, MPI_Comm comm);
int cpm_coll_reduce(const struct cpm_predictor *p, const struct cpm_coll_alg *alg,
                    const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                    MPI_Op op, int root, MPI_Comm comm);
int cpm_coll_scatter(const struct cpm_predictor *p, const struct cpm_coll_alg *alg,
                     const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
int cpm_coll_gather(const struct cpm_predictor *p, const struct cpm_coll_alg *alg,
                    const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
int cpm_coll_scatterv(const struct cpm_predictor *p, const struct cpm_coll_alg *alg,
                      const void *sendbuf, const int *sendcounts, const int *displs,
                      MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                      int root, MPI_Comm comm);
int cpm_coll_gatherv(const struct cpm_predictor *p, const struct cpm_coll_alg *alg,
                     const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int *recvcounts, const int *displs, MPI_Datatype recvtype, int root,
                     MPI_Comm comm);

#endif
