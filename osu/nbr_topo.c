/* nbr_topo: -N's neighbourhoods, pure; see nbr_topo.h. */
#include "nbr_topo.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "opt.h"
#include "osu_pairs.h"

int nbr_spec_parse(const char *arg, struct nbr_spec *s, char *err, size_t errlen)
{
    const char *colon = strchr(arg, ':');
    size_t head = colon ? (size_t)(colon - arg) : strlen(arg);
    if (head == 5 && strncasecmp(arg, "graph", 5) == 0) {
        if (!colon || colon[1] == '\0') {
            snprintf(err, errlen, "graph takes an edge file (graph:FILE)");
            return -1;
        }
        s->kind = NBR_GRAPH;
        s->path = colon + 1;
        return 0;
    }
    if (head == 4 && strncasecmp(arg, "cart", 4) == 0) {
        const char *second = colon ? strchr(colon + 1, ':') : NULL;
        if (!second) {
            snprintf(err, errlen, "cart takes DIMENSIONS:RADIUS (cart:1:1)");
            return -1;
        }
        char dims[64];
        size_t n = (size_t)(second - colon - 1);
        n = n < sizeof dims - 1 ? n : sizeof dims - 1;
        memcpy(dims, colon + 1, n);
        dims[n] = '\0';
        if (opt_to_size(dims, "number of dimensions", 1, NBR_MAX_DIMS, &s->ndims, err,
                        errlen) ||
            opt_to_size(second + 1, "radius", 1, INT_MAX / 2, &s->radius, err, errlen))
            return -1;
        s->kind = NBR_CART;
        return 0;
    }
    snprintf(err, errlen, "expected cart:DIMENSIONS:RADIUS or graph:FILE");
    return -1;
}

void nbr_lists_free(struct nbr_lists *l)
{
    free(l->sources);
    free(l->from_block);
    free(l->destinations);
    l->sources = l->from_block = l->destinations = NULL;
    l->indegree = l->outdegree = 0;
}

/* Room for the lists of in sources and out destinations; -1 when out of
 * memory. */
static int lists_alloc(struct nbr_lists *l, size_t in, size_t out)
{
    l->indegree = in;
    l->outdegree = out;
    l->sources = malloc((in ? in : 1) * sizeof *l->sources);
    l->from_block = malloc((in ? in : 1) * sizeof *l->from_block);
    l->destinations = malloc((out ? out : 1) * sizeof *l->destinations);
    if (l->sources && l->from_block && l->destinations)
        return 0;
    nbr_lists_free(l);
    return -1;
}

int nbr_cart_check(const struct nbr_spec *s, const int *dims, char *err, size_t errlen)
{
    size_t need = 2 * s->radius + 1, used = 0;
    long ranks = 1;
    char grid[256] = "";
    int bad = 0;
    for (size_t i = 0; i < s->ndims; i++) {
        bad |= (size_t)dims[i] < need;
        ranks *= dims[i];
        if (used < sizeof grid)
            used += (size_t)snprintf(grid + used, sizeof grid - used, "%s%d", i ? " x " : "",
                                     dims[i]);
    }
    if (!bad)
        return 0;
    snprintf(err, errlen,
             "-N cart:%zu:%zu at %ld rank%s: dimension sizes %s (MPI_Dims_create), but radius "
             "%zu needs at least %zu ranks in every dimension (else a rank would be its own "
             "neighbour or a neighbour twice); use more ranks, fewer dimensions or a smaller "
             "radius",
             s->ndims, s->radius, ranks, ranks == 1 ? "" : "s", grid, s->radius, need);
    return -1;
}

size_t nbr_cart_degree(const struct nbr_spec *s)
{
    size_t side = 2 * s->radius + 1, total = 1;
    for (size_t i = 0; i < s->ndims; i++)
        total *= side;
    return total - 1;
}

int nbr_cart_neighbor(const struct nbr_spec *s, const int *dims, int rank, size_t j)
{
    size_t side = 2 * s->radius + 1, center = nbr_cart_degree(s) / 2;
    /* Offsets in lexicographic order, the zero one (the middle) left out. */
    size_t m = j < center ? j : j + 1;
    long coords[NBR_MAX_DIMS];
    long rest = rank;
    for (size_t i = s->ndims; i-- > 0;) {
        coords[i] = rest % dims[i];
        rest /= dims[i];
    }
    for (size_t i = s->ndims; i-- > 0;) {
        long offset = (long)(m % side) - (long)s->radius;
        m /= side;
        coords[i] = ((coords[i] + offset) % dims[i] + dims[i]) % dims[i];
    }
    long out = 0;
    for (size_t i = 0; i < s->ndims; i++)
        out = out * dims[i] + coords[i];
    return (int)out;
}

int nbr_cart_lists(const struct nbr_spec *s, const int *dims, int rank, struct nbr_lists *l)
{
    size_t n = nbr_cart_degree(s);
    if (lists_alloc(l, n, n))
        return -1;
    for (size_t k = 0; k < n; k++) {
        l->sources[k] = l->destinations[k] = nbr_cart_neighbor(s, dims, rank, k);
        /* The source at offset o reaches this rank at offset -o, whose place
         * in the reversed lexicographic order is the mirror of k. */
        l->from_block[k] = (int)(n - 1 - k);
    }
    return 0;
}

void nbr_graph_free(struct nbr_graph *g)
{
    free(g->from);
    free(g->to);
    g->from = g->to = NULL;
    g->nedges = 0;
}

int nbr_graph_parse(const char *text, size_t len, const char *name, int nranks,
                    struct nbr_graph *g, char *err, size_t errlen)
{
    static const struct osu_pairs_rule rule = {
        .first = "source", .second = "destination",
        .first_min = 0, .first_max = INT_MAX - 1, .second_min = 0, .second_max = INT_MAX - 1,
        .max_pairs = NBR_MAX_EDGES, .plural = "edges"};
    struct osu_pair *edges;
    size_t n;
    g->from = g->to = NULL;
    g->nedges = 0;
    if (osu_pairs_parse(text, len, name, &rule, &edges, &n, err, errlen))
        return -1;
    for (size_t k = 0; k < n; k++) {
        size_t beyond = edges[k].first >= (size_t)nranks ? edges[k].first : edges[k].second;
        if (beyond >= (size_t)nranks) {
            snprintf(err, errlen, "%.100s line %zu: rank %zu, but the ranks of the run are 0 to %d",
                     name, edges[k].line, beyond, nranks - 1);
            free(edges);
            return -1;
        }
    }
    g->from = malloc(n * sizeof *g->from);
    g->to = malloc(n * sizeof *g->to);
    if (!g->from || !g->to) {
        nbr_graph_free(g);
        free(edges);
        snprintf(err, errlen, "out of memory for %zu edges", n);
        return -1;
    }
    for (size_t k = 0; k < n; k++) {
        g->from[k] = (int)edges[k].first;
        g->to[k] = (int)edges[k].second;
    }
    g->nedges = n;
    free(edges);
    return 0;
}

int nbr_graph_lists(const struct nbr_graph *g, int nranks, int rank, struct nbr_lists *l)
{
    size_t in = 0, out = 0;
    for (size_t e = 0; e < g->nedges; e++) {
        in += g->to[e] == rank;
        out += g->from[e] == rank;
    }
    /* sent[s]: edges out of rank s so far, the index of s's next send block. */
    int *sent = calloc((size_t)nranks, sizeof *sent);
    if (!sent || lists_alloc(l, in, out)) {
        free(sent);
        return -1;
    }
    in = out = 0;
    for (size_t e = 0; e < g->nedges; e++) {
        int block = sent[g->from[e]]++;
        if (g->to[e] == rank) {
            l->sources[in] = g->from[e];
            l->from_block[in++] = block;
        }
        if (g->from[e] == rank)
            l->destinations[out++] = g->to[e];
    }
    free(sent);
    return 0;
}

int nbr_graph_degrees(const struct nbr_graph *g, int nranks, struct nbr_degrees *d)
{
    size_t *in = calloc(2 * (size_t)nranks, sizeof *in);
    if (!in)
        return -1;
    size_t *out = in + nranks;
    for (size_t e = 0; e < g->nedges; e++) {
        in[g->to[e]]++;
        out[g->from[e]]++;
    }
    *d = (struct nbr_degrees){in[0], in[0], out[0], out[0]};
    for (int r = 1; r < nranks; r++) {
        d->min_in = in[r] < d->min_in ? in[r] : d->min_in;
        d->max_in = in[r] > d->max_in ? in[r] : d->max_in;
        d->min_out = out[r] < d->min_out ? out[r] : d->min_out;
        d->max_out = out[r] > d->max_out ? out[r] : d->max_out;
    }
    free(in);
    return 0;
}
