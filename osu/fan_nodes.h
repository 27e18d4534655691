/*
 * fan_nodes: the nodes of the fan tests (osu_bw_fan_in, osu_bw_fan_out) and
 * who sends to whom. Pure: no MPI, unit tested.
 *
 * The ranks are grouped into nodes by host name (or, on request, into blocks
 * of consecutive ranks); nodes are numbered in the order of their lowest
 * rank, so node 0 is rank 0's, and a rank's local index is its place among
 * the ranks of its node, in rank order. Every node must hold as many ranks
 * as the others, and there must be two nodes or more. Node 0 is the one end
 * of the fan: its local rank l pairs with local rank l of every other node.
 */
#ifndef COMMSWEEP_OSU_FAN_NODES_H
#define COMMSWEEP_OSU_FAN_NODES_H

#include <stddef.h>

struct fan_nodes {
    size_t nranks, nodes, per_node;
    int *rank_at;  /* nodes * per_node: the rank with local index l on node n
                    * at n * per_node + l */
    size_t *node_of, *local_of; /* per rank */
};

/* From the host name of every rank: names holds nranks names of name_len
 * bytes each (each ended by a zero within them, as gathered). 0, or -1
 * with why (nothing to free then). */
int fan_nodes_by_name(struct fan_nodes *f, const char *names, size_t name_len, size_t nranks,
                      char *why, size_t why_len);
/* Blocks of per_node consecutive ranks as the nodes. 0, or -1 with why. */
int fan_nodes_by_block(struct fan_nodes *f, size_t nranks, size_t per_node, char *why,
                       size_t why_len);
void fan_nodes_free(struct fan_nodes *f);

/* The partners of rank: on node 0 the ranks of its local index on every
 * other node (nodes - 1 of them, in node order), elsewhere that of node 0
 * (one). peers holds nodes - 1 entries; returns how many it filled. */
size_t fan_nodes_peers(const struct fan_nodes *f, int rank, int *peers);

#endif
