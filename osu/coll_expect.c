/* coll_expect: what each collective leaves in a receive buffer, shared by its
 * blocking and non-blocking programs; see coll.h. Receive element i is
 * traced back to the rank that sent it and its index in that rank's send
 * buffer, whose value coll_value recomputes. */
#include <limits.h>

#include "coll.h"
#include "coll_data.h"

bool coll_expect_allgather(const struct coll_ctx *c, size_t iter, size_t i, double *want)
{
    int from = (int)(i / c->count);
    *want = coll_value(c, from, iter, i % c->count);
    return true;
}

bool coll_expect_gather(const struct coll_ctx *c, size_t iter, size_t i, double *want)
{
    return c->rank == c->root && coll_expect_allgather(c, iter, i, want);
}

bool coll_expect_alltoall(const struct coll_ctx *c, size_t iter, size_t i, double *want)
{
    int from = (int)(i / c->count);
    *want = coll_value(c, from, iter, (size_t)c->rank * c->count + i % c->count);
    return true;
}

bool coll_expect_scatter(const struct coll_ctx *c, size_t iter, size_t i, double *want)
{
    *want = coll_value(c, c->root, iter, (size_t)c->rank * c->count + i);
    return true;
}

bool coll_expect_bcast(const struct coll_ctx *c, size_t iter, size_t i, double *want)
{
    *want = coll_value(c, c->root, iter, i);
    return true;
}

/* The values (h + r) mod m of ranks r = 0..n-1: n / m whole turns of 0 ..
 * m - 1, then the n mod m left from h up, wrapping at m. */
static double sum_over_ranks(const struct coll_ctx *c, size_t iter, size_t index)
{
    unsigned long long m = c->value_max + 1ull, n = (unsigned long long)c->nranks;
    unsigned long long h = (unsigned long long)coll_value(c, 0, iter, index);
    unsigned long long left = n % m, upper = left < m - h ? left : m - h, lower = left - upper;
    unsigned long long sum = n / m * (m * (m - 1) / 2) + upper * h + upper * (upper - 1) / 2 +
                             lower * (lower - 1) / 2;
    return (double)sum;
}

bool coll_expect_allreduce(const struct coll_ctx *c, size_t iter, size_t i, double *want)
{
    *want = sum_over_ranks(c, iter, i);
    return true;
}

bool coll_expect_reduce(const struct coll_ctx *c, size_t iter, size_t i, double *want)
{
    return c->rank == c->root && coll_expect_allreduce(c, iter, i, want);
}

bool coll_expect_reduce_scatter(const struct coll_ctx *c, size_t iter, size_t i, double *want)
{
    if (i >= (size_t)c->counts[c->rank])
        return false;
    *want = sum_over_ranks(c, iter, (size_t)c->displs[c->rank] + i);
    return true;
}

void coll_fill_bcast(struct coll_ctx *c, size_t iter)
{
    if (c->rank == c->root)
        coll_fill_values(c, &c->recv, c->root, iter);
    else
        coll_fill_zero(&c->recv);
}

void coll_prepare_reduce_scatter(struct coll_ctx *c)
{
    coll_split(c->count, c->nranks, c->counts, c->displs);
}

void coll_prepare_reduce_scatter_block(struct coll_ctx *c)
{
    int portion = (int)(c->count / (size_t)c->nranks);
    for (int i = 0; i < c->nranks; i++) {
        c->counts[i] = portion;
        c->displs[i] = i * portion;
    }
}

void coll_prepare_alltoallw(struct coll_ctx *c)
{
    /* The driver's vector counts are in messages; MPI_Alltoallw places its
     * blocks in bytes, each block the count elements of the message (the
     * size's whole elements), which must stay within an int. */
    size_t block = c->count * c->elem_size;
    if (block > (size_t)INT_MAX / (size_t)c->nranks)
        err_usage("message size %zu at %d ranks needs byte displacements beyond the int range "
                  "of MPI_Alltoallw (at most %zu bytes per rank); lower -m",
                  c->size, c->nranks, (size_t)INT_MAX / (size_t)c->nranks);
    for (int i = 0; i < c->nranks; i++) {
        c->displs[i] = (int)((size_t)i * block);
        c->types[i] = c->msg.type;
    }
}
