/* coll_neighbor: the neighborhood collectives' topology; see coll_neighbor.h. */
#include "coll_neighbor.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_data.h"
#include "osu_defaults.h"
#include "osu_pairs.h"

static int parse_option(const char *arg, void *dest, char *err, size_t errlen)
{
    struct coll_nbr *n = dest;
    n->arg = arg;
    return nbr_spec_parse(arg, &n->spec, err, errlen);
}

struct opt_spec coll_nbr_option(struct coll_nbr *n)
{
    n->spec = (struct nbr_spec){.kind = NBR_CART, .ndims = 1, .radius = 1};
    n->arg = "cart:1:1";
    n->comm = MPI_COMM_NULL;
    return (struct opt_spec){
        .long_name = "nhbr", .short_name = 'N', .kind = OPT_CUSTOM, .dest = n,
        .parse = parse_option, .metavar = "cart:DIMS:RADIUS|graph:FILE",
        .help = "neighbourhood: periodic Cartesian grid of DIMS dimensions, neighbours within "
                "RADIUS (default cart:1:1), or the directed graph of FILE's \"source, "
                "destination\" lines"};
}

/* The edge file, read by rank 0 and broadcast, so every rank parses the same
 * text and reaches the same verdict. */
static void read_graph(struct coll_nbr *n, const struct coll_ctx *c, struct nbr_graph *g)
{
    char err[512] = "";
    size_t len = 0;
    char *text = NULL;
    long long shared = -1;
    if (c->rank == 0 && (text = osu_pairs_read_file(n->spec.path, NBR_MAX_FILE, &len, err,
                                                    sizeof err)))
        shared = (long long)len;
    MPI_CHECK(MPI_Bcast(&shared, 1, MPI_LONG_LONG, 0, c->comm));
    if (shared < 0)
        err_usage("-N graph: %s", err);
    len = (size_t)shared;
    if (c->rank != 0 && !(text = malloc(len + 1)))
        err_fatal("cannot allocate %zu bytes for the edge file", len + 1);
    MPI_CHECK(MPI_Bcast(text, (int)len + 1, MPI_CHAR, 0, c->comm));
    int rc = nbr_graph_parse(text, len, n->spec.path, c->nranks, g, err, sizeof err);
    free(text);
    if (rc)
        err_usage("-N graph: %s", err);
}

/* This rank's lists and the degrees of all, for -N's kind. */
static void build_lists(struct coll_nbr *n, const struct coll_ctx *c)
{
    char err[512];
    bool failed;
    if (n->spec.kind == NBR_CART) {
        memset(n->dims, 0, sizeof n->dims);
        MPI_CHECK(MPI_Dims_create(c->nranks, (int)n->spec.ndims, n->dims));
        if (nbr_cart_check(&n->spec, n->dims, err, sizeof err))
            err_usage("%s", err);
        size_t d = nbr_cart_degree(&n->spec);
        n->degrees = (struct nbr_degrees){d, d, d, d};
        failed = nbr_cart_lists(&n->spec, n->dims, c->rank, &n->lists) != 0;
    } else {
        struct nbr_graph g;
        read_graph(n, c, &g);
        n->nedges = g.nedges;
        failed = nbr_graph_degrees(&g, c->nranks, &n->degrees) != 0 ||
                 nbr_graph_lists(&g, c->nranks, c->rank, &n->lists) != 0;
        nbr_graph_free(&g);
    }
    err_any(c->comm, failed, ERR_STATUS_FAIL, "out of memory for the neighbour lists");
}

/* Per-neighbour arrays of the v and w calls, as long as the longer list. */
static void alloc_arrays(struct coll_nbr *n, MPI_Comm comm)
{
    size_t k = n->lists.indegree > n->lists.outdegree ? n->lists.indegree : n->lists.outdegree;
    k = k ? k : 1;
    n->send_counts = malloc(4 * k * sizeof(int));
    n->send_wdispls = malloc(2 * k * sizeof(MPI_Aint));
    n->send_types = malloc(2 * k * sizeof(MPI_Datatype));
    bool failed = !n->send_counts || !n->send_wdispls || !n->send_types;
    err_any(comm, failed, ERR_STATUS_FAIL, "out of memory for %zu neighbours", k);
    n->send_displs = n->send_counts + k;
    n->recv_counts = n->send_counts + 2 * k;
    n->recv_displs = n->send_counts + 3 * k;
    n->recv_wdispls = n->send_wdispls + k;
    n->recv_types = n->send_types + k;
}

/* Makes the distributed graph communicator with OMB 7.4's arguments (unit
 * weights, no reordering) and returns the creation time averaged over the
 * ranks (valid on rank 0). The ranks start together, so the average is of
 * the creation and not of how late each rank arrived. */
static double create_comm(struct coll_nbr *n, const struct coll_ctx *c)
{
    const struct nbr_lists *l = &n->lists;
    size_t most = l->indegree > l->outdegree ? l->indegree : l->outdegree;
    int *weights = malloc((most ? most : 1) * sizeof *weights);
    err_any(c->comm, !weights, ERR_STATUS_FAIL, "out of memory for %zu edge weights", most);
    for (size_t k = 0; k < most; k++)
        weights[k] = 1;
    MPI_CHECK(MPI_Barrier(c->comm));
    double t = MPI_Wtime();
    MPI_CHECK(MPI_Dist_graph_create_adjacent(c->comm, (int)l->indegree, l->sources, weights,
                                             (int)l->outdegree, l->destinations, weights,
                                             MPI_INFO_NULL, 0, &n->comm));
    t = MPI_Wtime() - t;
    free(weights);
    double sum = 0;
    MPI_CHECK(MPI_Reduce(&t, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, c->comm));
    return sum / c->nranks;
}

void coll_nbr_setup(struct coll_nbr *n, struct coll_ctx *c, char *before, size_t len)
{
    /* The file and the grid first, so that their faults are named at any
     * number of ranks. */
    build_lists(n, c);
    if (c->nranks < 2)
        err_usage("the neighborhood collectives need at least 2 ranks (as OMB 7.4)");
    alloc_arrays(n, c->comm);
    double t = create_comm(n, c);
    c->nbr = n;

    /* OMB 7.4 prints these two lines without a '#' (and a blank after each
     * dimension); the seed's defaults keep stdout to data and '#' lines. */
    bool seed = osu_seed_defaults();
    const char *mark = seed ? "# " : "";
    size_t used = 0;
    if (n->spec.kind == NBR_CART) {
        used += (size_t)snprintf(before, len, "%sDimensions size =%s", mark, seed ? "" : " ");
        for (size_t i = 0; i < n->spec.ndims && used < len; i++)
            used += (size_t)snprintf(before + used, len - used, seed ? " %d" : "%d ", n->dims[i]);
        if (used < len)
            used += (size_t)snprintf(before + used, len - used, "\n");
    }
    if (used < len)
        snprintf(before + used, len - used, "%sTime took to create topology graph:%.2f us.\n",
                 mark, t * 1e6);
}

size_t coll_nbr_blocks(const struct coll_nbr *n, enum coll_extent e, int nranks, bool most)
{
    switch (e) {
    case COLL_PER_SOURCE: return most ? n->degrees.max_in : n->lists.indegree;
    case COLL_PER_DEST: return most ? n->degrees.max_out : n->lists.outdegree;
    default: return coll_blocks(e, nranks);
    }
}

void coll_nbr_check_count(const struct coll_nbr *n, bool vector, size_t size, size_t count)
{
    size_t peers = n->degrees.max_in > n->degrees.max_out ? n->degrees.max_in
                                                          : n->degrees.max_out;
    if (vector && peers > 1 && count > (size_t)INT_MAX / (peers - 1))
        err_usage("message size %zu bytes with %zu neighbours needs displacements beyond the "
                  "int range of the v-collectives (at most %zu bytes per neighbour); lower -m",
                  size, peers, (size_t)INT_MAX / (peers - 1));
}

void coll_nbr_prepare(struct coll_nbr *n, const struct coll_ctx *c)
{
    size_t in = n->lists.indegree, out = n->lists.outdegree;
    size_t most = in > out ? in : out;
    for (size_t k = 0; k < most; k++) {
        /* The int displacement of the v calls, where it fits (checked for
         * them by coll_nbr_check_count). */
        size_t displ = k * (size_t)c->msg.count;
        int idispl = displ <= (size_t)INT_MAX ? (int)displ : -1;
        MPI_Aint wdispl = (MPI_Aint)(k * c->size);
        if (k < out) {
            n->send_counts[k] = c->msg.count;
            n->send_displs[k] = idispl;
            n->send_wdispls[k] = wdispl;
            n->send_types[k] = c->msg.type;
        }
        if (k < in) {
            n->recv_counts[k] = c->msg.count;
            n->recv_displs[k] = idispl;
            n->recv_wdispls[k] = wdispl;
            n->recv_types[k] = c->msg.type;
        }
    }
}

void coll_nbr_print(const struct coll_nbr *n, int nranks)
{
    const struct nbr_degrees *d = &n->degrees;
    if (n->spec.kind == NBR_CART) {
        char grid[256] = "";
        size_t used = 0;
        for (size_t i = 0; i < n->spec.ndims && used < sizeof grid; i++)
            used += (size_t)snprintf(grid + used, sizeof grid - used, "%s%d", i ? " x " : "",
                                     n->dims[i]);
        out_comment("neighborhood (-N %s): periodic Cartesian grid %s of %d ranks, radius "
                    "%zu: every rank has the same %zu neighbours as sources and destinations",
                    n->arg, grid, nranks, n->spec.radius, d->max_in);
    } else {
        out_comment("neighborhood (-N %s): directed graph of %zu edges over %d ranks: %zu to "
                    "%zu sources, %zu to %zu destinations per rank",
                    n->arg, n->nedges, nranks, d->min_in, d->max_in, d->min_out, d->max_out);
    }
    out_comment("size: bytes of the block a rank sends to each destination and receives "
                "from each source");
}

void coll_nbr_free(struct coll_nbr *n)
{
    if (n->comm != MPI_COMM_NULL)
        MPI_Comm_free(&n->comm);
    nbr_lists_free(&n->lists);
    free(n->send_counts);
    free(n->send_wdispls);
    free(n->send_types);
    n->send_counts = NULL;
    n->send_wdispls = NULL;
    n->send_types = NULL;
}

/* Receive element i: its block k, the source of k, and the index in the
 * source's send buffer of the element that lands there (block sent). */
static bool expect_from(const struct coll_ctx *c, size_t iter, size_t i, bool per_dest,
                        double *want)
{
    size_t k = i / c->count;
    const struct nbr_lists *l = &c->nbr->lists;
    size_t block = per_dest ? (size_t)l->from_block[k] : 0;
    *want = coll_value(c, l->sources[k], iter, block * c->count + i % c->count);
    return true;
}

bool coll_expect_neighbor_allgather(const struct coll_ctx *c, size_t iter, size_t i,
                                    double *want)
{
    return expect_from(c, iter, i, false, want);
}

bool coll_expect_neighbor_alltoall(const struct coll_ctx *c, size_t iter, size_t i,
                                   double *want)
{
    return expect_from(c, iter, i, true, want);
}
