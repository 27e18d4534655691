/*
 * nbr_topo: the neighbourhoods of the neighborhood collectives as OMB 7.4's
 * -N option defines them, without MPI, so they are unit tested:
 *   cart:D:R    a periodic Cartesian grid of D dimensions (their sizes from
 *               MPI_Dims_create, ranks in row-major order); every rank's
 *               neighbours are the ranks at every offset in [-R, R]^D but
 *               the zero one, in lexicographic order of the offsets (the last
 *               dimension fastest), the same list for sources and
 *               destinations. Every dimension must hold 2R + 1 ranks, so no
 *               rank is a neighbour twice;
 *   graph:FILE  a directed graph, one "source, destination" edge a line
 *               ('#' lines comments); a rank's sources and destinations are
 *               its edges in file order (repeated edges and self-loops
 *               allowed).
 * Owns the parsing of -N, the neighbour lists of a rank and, for -c, where
 * each received block comes from: the rank that sent it and its index among
 * that rank's send blocks.
 */
#ifndef COMMSWEEP_NBR_TOPO_H
#define COMMSWEEP_NBR_TOPO_H

#include <stddef.h>

enum nbr_kind { NBR_CART, NBR_GRAPH };

#define NBR_MAX_DIMS 32
#define NBR_MAX_EDGES ((size_t)1 << 20)
#define NBR_MAX_FILE ((size_t)64 << 20)

/* What -N asked for. */
struct nbr_spec {
    enum nbr_kind kind;
    size_t ndims, radius; /* cart */
    const char *path;     /* graph: points into the option's argument */
};

/* Parses a -N argument: cart:D:R (D 1 to NBR_MAX_DIMS, R >= 1) or
 * graph:FILE ("cart" and "graph" in any case, as OMB). The default, OMB's,
 * is cart:1:1. Returns 0, or -1 with a one-line message in err. */
int nbr_spec_parse(const char *arg, struct nbr_spec *s, char *err, size_t errlen);

/* One rank's neighbourhood: receive block k comes from rank sources[k],
 * which sent it as its send block from_block[k] (its index in that rank's
 * destinations); send block j goes to destinations[j]. */
struct nbr_lists {
    size_t indegree, outdegree;
    int *sources, *from_block, *destinations;
};
void nbr_lists_free(struct nbr_lists *l);

/* Fewest and most sources and destinations any rank has. */
struct nbr_degrees {
    size_t min_in, max_in, min_out, max_out;
};

/* cart: 0 when every one of the ndims sizes in dims holds 2 * radius + 1
 * ranks; otherwise -1 with a message naming the sizes. */
int nbr_cart_check(const struct nbr_spec *s, const int *dims, char *err, size_t errlen);
/* cart: neighbours of every rank, (2R + 1)^D - 1 (after nbr_cart_check). */
size_t nbr_cart_degree(const struct nbr_spec *s);
/* cart: the j-th neighbour of rank on the grid dims (j < nbr_cart_degree). */
int nbr_cart_neighbor(const struct nbr_spec *s, const int *dims, int rank, size_t j);
/* cart: rank's lists (after nbr_cart_check); -1 when out of memory. */
int nbr_cart_lists(const struct nbr_spec *s, const int *dims, int rank, struct nbr_lists *l);

/* graph: the edges of a file, in file order. */
struct nbr_graph {
    size_t nedges;
    int *from, *to;
};
/* Parses the text of an edge file (name for messages) for nranks ranks:
 * refuses what osu_pairs_parse refuses (at most NBR_MAX_EDGES edges) and
 * ranks not below nranks. 0, or -1 with a one-line message in err. */
int nbr_graph_parse(const char *text, size_t len, const char *name, int nranks,
                    struct nbr_graph *g, char *err, size_t errlen);
void nbr_graph_free(struct nbr_graph *g);
/* graph: rank's lists; -1 when out of memory. */
int nbr_graph_lists(const struct nbr_graph *g, int nranks, int rank, struct nbr_lists *l);
/* graph: the degrees over all nranks ranks; -1 when out of memory. */
int nbr_graph_degrees(const struct nbr_graph *g, int nranks, struct nbr_degrees *d);

#endif
