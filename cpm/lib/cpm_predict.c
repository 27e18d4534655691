/* cpm_predict: generic collective predictions; see cpm_predict.h. */
#include "cpm_predict.h"

#include <stdint.h>
#include <stdlib.h>

#include "err.h"

static double flat(const struct cpm_predictor *p, int n, int root, const size_t *sizes,
                   size_t m, int serial)
{
    double sum = 0.0, max = 0.0;
    for (int i = 0; i < n; i++) {
        if (i == root)
            continue;
        double t = cpm_predict_p2p(p, root, i, sizes ? sizes[i] : m);
        sum += t;
        if (t > max)
            max = t;
    }
    return serial ? sum : max;
}

double cpm_predict_flat_sg_serial(const struct cpm_predictor *p, int n, int root, size_t m)
{
    return flat(p, n, root, NULL, m, 1);
}

double cpm_predict_flat_sg_parallel(const struct cpm_predictor *p, int n, int root, size_t m)
{
    return flat(p, n, root, NULL, m, 0);
}

double cpm_predict_flat_sg(const struct cpm_predictor *p, int n, int root, size_t m)
{
    return cpm_predict_flat_sg_serial(p, n, root, m);
}

double cpm_predict_flat_sgv_serial(const struct cpm_predictor *p, int n, int root,
                                   const size_t *sizes)
{
    return flat(p, n, root, sizes, 0, 1);
}

double cpm_predict_flat_sgv_parallel(const struct cpm_predictor *p, int n, int root,
                                     const size_t *sizes)
{
    return flat(p, n, root, sizes, 0, 0);
}

double cpm_predict_flat_sgv(const struct cpm_predictor *p, int n, int root, const size_t *sizes)
{
    return cpm_predict_flat_sgv_serial(p, n, root, sizes);
}

int cpm_bytes_total(int n, size_t m, const size_t *sizes, size_t *total)
{
    size_t sum = 0;
    for (int r = 0; r < n; r++) {
        size_t b = sizes ? sizes[r] : m;
        if (b > SIZE_MAX - sum)
            return -1;
        sum += b;
    }
    *total = sum;
    return 0;
}

/* Bytes on the edge to the subtree of relative ranks [child, child + span). */
static size_t edge_bytes(int n, int root, int child, int span, size_t m, const size_t *sizes,
                         enum cpm_coll_op op)
{
    if (op == CPM_COLL_BCAST || op == CPM_COLL_REDUCE)
        return m;
    size_t bytes = 0;
    for (int v = child; v < child + span && v < n; v++)
        bytes += sizes ? sizes[(v + root) % n] : m;
    return bytes;
}

/* The span of a node's children: masks below the lowest set bit of its
 * relative rank (below the next power of two for the root). */
static int top_mask(int v, int n)
{
    if (v == 0) {
        int mask = 1;
        while (mask < n)
            mask <<= 1;
        return mask;
    }
    return v & -v;
}

static double binomial(const struct cpm_predictor *p, int n, int root, size_t m,
                       const size_t *sizes, enum cpm_coll_op op)
{
    size_t total;
    if (n < 2)
        return 0.0;
    /* An edge of a scatter or gather carries the bytes of its subtree. */
    if ((op == CPM_COLL_SCATTER || op == CPM_COLL_GATHER) &&
        cpm_bytes_total(n, m, sizes, &total) != 0)
        return -1.0;
    double *when = calloc((size_t)n, sizeof *when);
    if (!when)
        err_fatal("out of memory for a binomial tree of %d processes", n);
    double result = 0.0;
    if (op == CPM_COLL_BCAST || op == CPM_COLL_SCATTER) {
        /* Down the tree: a parent (smaller relative rank) is done first. */
        for (int v = 0; v < n; v++) {
            double t = when[v];
            for (int mask = top_mask(v, n) >> 1; mask > 0; mask >>= 1) {
                int child = v + mask;
                if (child >= n)
                    continue;
                t += cpm_predict_p2p(p, (v + root) % n, (child + root) % n,
                                     edge_bytes(n, root, child, mask, m, sizes, op));
                when[child] = t;
                if (t > result)
                    result = t;
            }
        }
    } else {
        /* Up the tree: a node forwards once it has received from all its
         * children, smallest subtree first. */
        for (int v = n - 1; v >= 0; v--) {
            double t = 0.0;
            for (int mask = 1; mask < top_mask(v, n); mask <<= 1) {
                int child = v + mask;
                if (child >= n)
                    break;
                double ready = when[child] > t ? when[child] : t;
                t = ready + cpm_predict_p2p(p, (child + root) % n, (v + root) % n,
                                            edge_bytes(n, root, child, mask, m, sizes, op));
            }
            when[v] = t;
        }
        result = when[0];
    }
    free(when);
    return result;
}

double cpm_predict_brsg(const struct cpm_predictor *p, int n, int root, size_t m,
                        enum cpm_coll_op op)
{
    return binomial(p, n, root, m, NULL, op);
}

double cpm_predict_sgv(const struct cpm_predictor *p, int n, int root, const size_t *sizes,
                       enum cpm_coll_op op)
{
    return binomial(p, n, root, 0, sizes, op == CPM_COLL_GATHER || op == CPM_COLL_REDUCE
                                              ? CPM_COLL_GATHER
                                              : CPM_COLL_SCATTER);
}
