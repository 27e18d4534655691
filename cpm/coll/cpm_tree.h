/*
 * cpm_tree: communication trees of the model-based collectives, built from
 * any model's point-to-point predictions and kept apart from their
 * execution, so the prediction of an operation walks the very tree the
 * operation runs.
 *
 * A tree is stored in preorder: order[k] is a process, size[k] the number of
 * processes of its subtree (order[k .. k+size[k])), bytes[k] the bytes that
 * process contributes (scatter/gather) or 0. The children of the node at k
 * are at k+1, then k+1+size[k+1], ... in the order the node communicates
 * with them (sends for Bcast/Scatter(v), receives for Reduce/Gather(v)).
 * Each subtree is a contiguous range, which is also how the data of a
 * scatter or gather travels: one buffer per subtree, blocks in preorder.
 *
 * Builders:
 *  - binomial: the binomial shape of n nodes (a node at relative position v
 *    has children v + 2^k for 2^k below the lowest set bit of v), sends
 *    largest subtree first, receives smallest first; processes are mapped
 *    onto the positions depth-first (children visited smallest subtree
 *    first, the largest on the right), breadth-first (largest subtree on the
 *    left) or by uniform cost search (the position whose transfer would
 *    start earliest is filled next). The process put at a position is the
 *    free one with the smallest (CPM_NEXT_MIN) or largest (CPM_NEXT_MAX)
 *    predicted transfer from/to the parent's process; ties go to the lower
 *    rank. An edge carries m bytes (Bcast/Reduce) or the subtree's bytes;
 *    while the members are not yet known, the average bytes per process
 *    times the positions below the edge.
 *  - sorted flat: the root talks to every other process in the order of
 *    its predicted transfer, ascending or descending.
 *  - Traff: trees of consecutive relative ranks are merged pairwise in
 *    rounds; of the two roots, the one whose side of the transfer is cheaper
 *    (predicted) keeps the merged tree, the tree of the operation's root
 *    always keeps it (Traff's size rule when predictions grow with bytes).
 * Nothing here communicates; only the predictor is called.
 */
#ifndef COMMSWEEP_CPM_TREE_H
#define COMMSWEEP_CPM_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cpm_model.h"

enum cpm_tree_search { CPM_TREE_DFS, CPM_TREE_BFS, CPM_TREE_UCS };
enum cpm_next_node { CPM_NEXT_MIN, CPM_NEXT_MAX };
enum cpm_sort_order { CPM_SORT_ASC, CPM_SORT_DESC };
/* Direction of the data: down (Bcast, Scatter) or up (Reduce, Gather). */
enum cpm_tree_dir { CPM_TREE_DOWN, CPM_TREE_UP };

struct cpm_tree {
    int n;         /* processes in the tree */
    int *order;    /* n processes, preorder; order[0] is the root */
    int *size;     /* n subtree sizes */
    size_t *bytes; /* n bytes contributed (NULL: the same m for every edge) */
};

/* Processes' bytes: bytes[rank] (scatter(v)/gather(v)) or NULL with m, the
 * bytes of every edge (Bcast/Reduce). Each returns 0, or an MPI error code
 * (MPI_ERR_NO_MEM, MPI_ERR_ARG: also when the bytes of all processes,
 * bytes[] or m each, do not fit in a size_t) with nothing allocated. */
int cpm_tree_binomial(const struct cpm_predictor *p, int n, int root, enum cpm_tree_dir dir,
                      enum cpm_tree_search search, enum cpm_next_node next, size_t m,
                      const size_t *bytes, struct cpm_tree *t);
int cpm_tree_sorted_flat(const struct cpm_predictor *p, int n, int root, enum cpm_tree_dir dir,
                         enum cpm_sort_order order, size_t m, const size_t *bytes,
                         struct cpm_tree *t);
int cpm_tree_traff(const struct cpm_predictor *p, int n, int root, enum cpm_tree_dir dir,
                   size_t m, const size_t *bytes, struct cpm_tree *t);
/* A tree of the subtree range given in preorder arrays (copied). */
int cpm_tree_from(int n, const int *order, const int *size, const size_t *bytes,
                  struct cpm_tree *t);
void cpm_tree_free(struct cpm_tree *t);

/* Index of process rank in t->order, -1 when absent. */
int cpm_tree_find(const struct cpm_tree *t, int rank);
/* Bytes on the edge above the node at k: m, or the subtree's bytes. */
size_t cpm_tree_edge_bytes(const struct cpm_tree *t, int k, size_t m);
/* Predicted time of the operation on this tree: a node's transfers are
 * sequential, different nodes work in parallel; down: when the last process
 * has its data, up: when the root has received everything. */
double cpm_tree_predict(const struct cpm_tree *t, const struct cpm_predictor *p,
                        enum cpm_tree_dir dir, size_t m);
/* Graphviz DOT of the tree: nodes are ranks, edges labelled with their
 * position in the parent's sequence, bytes and predicted time (p may be
 * NULL: no times). */
void cpm_tree_dot(FILE *f, const struct cpm_tree *t, const struct cpm_predictor *p,
                  enum cpm_tree_dir dir, size_t m, const char *title);

#endif
