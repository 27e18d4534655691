/* fan_nodes: the fan tests' nodes and partners; see fan_nodes.h. */
#include "fan_nodes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* qsort has no context argument: the names being sorted. */
static const char *sort_names;
static size_t sort_len;

static int by_name_then_rank(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    int c = strncmp(sort_names + x * sort_len, sort_names + y * sort_len, sort_len);
    if (c)
        return c;
    return x < y ? -1 : x > y;
}

struct group {
    size_t first, lowest, count; /* position in the sorted list, lowest rank, ranks */
};

static int by_lowest_rank(const void *a, const void *b)
{
    size_t x = ((const struct group *)a)->lowest, y = ((const struct group *)b)->lowest;
    return x < y ? -1 : x > y;
}

static int allocate(struct fan_nodes *f, size_t nranks, char *why, size_t why_len)
{
    memset(f, 0, sizeof *f);
    f->nranks = nranks;
    f->rank_at = malloc(nranks * sizeof *f->rank_at);
    f->node_of = malloc(nranks * sizeof *f->node_of);
    f->local_of = malloc(nranks * sizeof *f->local_of);
    if (f->rank_at && f->node_of && f->local_of)
        return 0;
    fan_nodes_free(f);
    snprintf(why, why_len, "cannot allocate the node table of %zu ranks", nranks);
    return -1;
}

/* Whether the layout has two nodes or more; why not (one_node), when not. */
static int check_nodes(struct fan_nodes *f, const char *one_node, char *why, size_t why_len)
{
    if (f->nodes >= 2)
        return 0;
    snprintf(why, why_len, "%s", one_node);
    fan_nodes_free(f);
    return -1;
}

int fan_nodes_by_name(struct fan_nodes *f, const char *names, size_t name_len, size_t nranks,
                      char *why, size_t why_len)
{
    if (nranks == 0 || name_len == 0) {
        snprintf(why, why_len, "no ranks");
        return -1;
    }
    if (allocate(f, nranks, why, why_len))
        return -1;
    size_t *order = malloc(nranks * sizeof *order);
    struct group *groups = malloc(nranks * sizeof *groups);
    if (!order || !groups) {
        free(order);
        free(groups);
        fan_nodes_free(f);
        snprintf(why, why_len, "cannot allocate the node table of %zu ranks", nranks);
        return -1;
    }
    for (size_t r = 0; r < nranks; r++)
        order[r] = r;
    sort_names = names;
    sort_len = name_len;
    qsort(order, nranks, sizeof *order, by_name_then_rank);
    size_t ngroups = 0;
    for (size_t i = 0; i < nranks; i++) {
        if (i == 0 || strncmp(names + order[i] * name_len, names + order[i - 1] * name_len,
                              name_len) != 0)
            groups[ngroups++] = (struct group){i, order[i], 0};
        groups[ngroups - 1].count++;
    }
    qsort(groups, ngroups, sizeof *groups, by_lowest_rank);
    f->nodes = ngroups;
    f->per_node = groups[0].count;
    int rc = 0;
    for (size_t n = 0; n < ngroups && rc == 0; n++) {
        if (groups[n].count != f->per_node) {
            snprintf(why, why_len,
                     "host %.*s has %zu ranks, host %.*s %zu: the fan tests need as many on "
                     "every node",
                     (int)name_len, names + groups[0].lowest * name_len, f->per_node,
                     (int)name_len, names + groups[n].lowest * name_len, groups[n].count);
            rc = -1;
            break;
        }
        for (size_t l = 0; l < f->per_node; l++) {
            size_t rank = order[groups[n].first + l];
            f->rank_at[n * f->per_node + l] = (int)rank;
            f->node_of[rank] = n;
            f->local_of[rank] = l;
        }
    }
    char one_node[320];
    snprintf(one_node, sizeof one_node,
             "%s on one node (host %.*s): the fan tests need 2 nodes or more "
             "(--ranks-per-node N takes blocks of N consecutive ranks as the nodes)",
             nranks == 1 ? "the only rank runs" : "all ranks run", (int)name_len, names);
    free(order);
    free(groups);
    if (rc) {
        fan_nodes_free(f);
        return -1;
    }
    return check_nodes(f, one_node, why, why_len);
}

int fan_nodes_by_block(struct fan_nodes *f, size_t nranks, size_t per_node, char *why,
                       size_t why_len)
{
    if (per_node == 0 || nranks % per_node) {
        snprintf(why, why_len, "%zu ranks do not split into nodes of %zu (--ranks-per-node)",
                 nranks, per_node);
        return -1;
    }
    if (allocate(f, nranks, why, why_len))
        return -1;
    f->nodes = nranks / per_node;
    f->per_node = per_node;
    for (size_t r = 0; r < nranks; r++) {
        f->rank_at[r] = (int)r;
        f->node_of[r] = r / per_node;
        f->local_of[r] = r % per_node;
    }
    char one_node[160];
    snprintf(one_node, sizeof one_node,
             "%zu rank%s in nodes of %zu (--ranks-per-node) make one node: the fan tests need "
             "2 nodes or more",
             nranks, nranks == 1 ? "" : "s", per_node);
    return check_nodes(f, one_node, why, why_len);
}

void fan_nodes_free(struct fan_nodes *f)
{
    free(f->rank_at);
    free(f->node_of);
    free(f->local_of);
    f->rank_at = NULL;
    f->node_of = f->local_of = NULL;
}

size_t fan_nodes_peers(const struct fan_nodes *f, int rank, int *peers)
{
    size_t node = f->node_of[rank], local = f->local_of[rank];
    if (node != 0) {
        peers[0] = f->rank_at[local];
        return 1;
    }
    for (size_t n = 1; n < f->nodes; n++)
        peers[n - 1] = f->rank_at[n * f->per_node + local];
    return f->nodes - 1;
}
