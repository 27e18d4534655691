/* coll_groups: see coll_groups.h. */
#include "coll_groups.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "host.h"
#include "opt.h"
#include "out.h"
#include "report.h"

#define GROUPS_HOST 64

void coll_groups_options(struct opt_spec *out, struct coll_groups_spec *spec, size_t *block,
                         bool *ladder)
{
    out[0] = (struct opt_spec){
        .long_name = "groups", .kind = OPT_CUSTOM, .dest = spec, .parse = coll_groups_parse,
        .metavar = "node|cross|N|stride:N",
        .help = "concurrent groups, each on its own communicator: one per node, local rank l "
                "of every node, N consecutive ranks, or ranks N apart (N groups); a block per "
                "group and the worst group's"};
    out[1] = (struct opt_spec){
        .long_name = "nodes-by-block", .kind = OPT_SIZE, .dest = block, .metavar = "N",
        .min = 1, .max = INT_MAX,
        .help = "with --groups=node or cross: blocks of N consecutive ranks are the nodes "
                "(default: ranks that share memory)"};
    out[2] = (struct opt_spec){
        .long_name = "np-ladder", .kind = OPT_FLAG, .dest = ladder,
        .help = "the sweep on the first 2, 4, 8, ... ranks in turn, then all; a block each"};
}

const char *coll_groups_check_options(const struct coll_groups_spec *spec, size_t block,
                                      bool ladder)
{
    bool groups = spec->kind != COLL_GROUPS_NONE;
    bool by_node = spec->kind == COLL_GROUPS_NODE || spec->kind == COLL_GROUPS_CROSS;
    if (block && !by_node)
        err_usage("--nodes-by-block applies to --groups=node and --groups=cross");
    if (!groups && !ladder)
        return NULL;
    if (groups && ladder)
        err_usage("--groups and --np-ladder do not go together: give one");
    const char *which = groups ? "--groups" : "--np-ladder";
    if (report_samples())
        err_usage("%s does not take --samples: a group's row comes to the printing rank "
                  "whole, and theirs have no bound", which);
    return which;
}

int coll_groups_parse(const char *arg, void *dest, char *err, size_t errlen)
{
    struct coll_groups_spec *s = dest;
    s->n = 0;
    if (strcmp(arg, "node") == 0) {
        s->kind = COLL_GROUPS_NODE;
        return 0;
    }
    if (strcmp(arg, "cross") == 0) {
        s->kind = COLL_GROUPS_CROSS;
        return 0;
    }
    bool stride = strncmp(arg, "stride:", 7) == 0;
    s->kind = stride ? COLL_GROUPS_STRIDE : COLL_GROUPS_BLOCK;
    if (opt_to_size(stride ? arg + 7 : arg, stride ? "stride" : "group size", 1, INT_MAX, &s->n,
                    err, errlen) == 0)
        return 0;
    if (!stride && arg[0] != '\0' && (arg[0] < '0' || arg[0] > '9'))
        snprintf(err, errlen, "unknown group layout '%s' (node, cross, N or stride:N)", arg);
    return -1;
}

void coll_groups_name(const struct coll_groups_spec *s, char *text, size_t len)
{
    if (s->kind == COLL_GROUPS_BLOCK || s->kind == COLL_GROUPS_STRIDE)
        snprintf(text, len, "%s%zu", s->kind == COLL_GROUPS_STRIDE ? "stride:" : "", s->n);
    else
        snprintf(text, len, "%s", s->kind == COLL_GROUPS_NODE    ? "node"
                                  : s->kind == COLL_GROUPS_CROSS ? "cross"
                                                                 : "none");
}

int coll_groups_key(const struct coll_groups_spec *s, int r, int node, int local)
{
    switch (s->kind) {
    case COLL_GROUPS_NODE:
        return node;
    case COLL_GROUPS_CROSS:
        return local;
    case COLL_GROUPS_BLOCK:
        return r / (int)s->n;
    case COLL_GROUPS_STRIDE:
        return r % (int)s->n;
    default:
        return 0;
    }
}

void coll_groups_nodes(const int *leader, int size, int *node_of, int *local_of)
{
    /* A node's lowest rank comes first, so its number is set before the
     * node's other ranks look it up: one pass, not a search per rank. */
    int *ranks_seen = calloc((size_t)size + 1, sizeof *ranks_seen);
    if (!ranks_seen)
        err_fatal("cannot allocate the nodes of %d ranks", size);
    int nodes = 0;
    for (int r = 0; r < size; r++) {
        int l = leader[r];
        if (l < 0 || l > r)
            err_fatal("rank %d: %d is not the lowest rank of its node", r, l);
        if (l == r)
            node_of[r] = nodes++;
        else
            node_of[r] = node_of[l];
        local_of[r] = ranks_seen[node_of[r]]++;
    }
    free(ranks_seen);
}

size_t coll_groups_ladder(int size, int *counts, size_t cap)
{
    size_t n = 0;
    for (int k = 2; k < size && n < cap; k *= 2)
        counts[n++] = k;
    if (n < cap)
        counts[n++] = size;
    return n;
}

void coll_groups_ranks_text(const int *ranks, size_t n, char *text, size_t len)
{
    size_t used = 0;
    text[0] = '\0';
    for (size_t i = 0; i < n && used < len;) {
        size_t j = i;
        while (j + 1 < n && ranks[j + 1] == ranks[j] + 1)
            j++;
        const char *sep = i ? "," : "";
        int w = j == i ? snprintf(text + used, len - used, "%s%d", sep, ranks[i])
                       : snprintf(text + used, len - used, "%s%d-%d", sep, ranks[i], ranks[j]);
        used += (size_t)w;
        i = j + 1;
    }
}

/* Every rank's host name, gathered once on rank 0 for its '#' lines. */
static char *hosts;
static bool hosts_gathered;

static void gather_hosts(MPI_Comm world, int size)
{
    if (hosts_gathered)
        return;
    hosts_gathered = true;
    int rank;
    MPI_CHECK(MPI_Comm_rank(world, &rank));
    char mine[GROUPS_HOST] = "";
    snprintf(mine, sizeof mine, "%s", host_name());
    if (rank == 0)
        hosts = malloc((size_t)size * GROUPS_HOST);
    err_any(world, rank == 0 && hosts == NULL, ERR_STATUS_FAIL,
            "cannot allocate the host names of %d ranks", size);
    MPI_CHECK(MPI_Gather(mine, GROUPS_HOST, MPI_CHAR, hosts, GROUPS_HOST, MPI_CHAR, 0, world));
}

/* Sets, sizes and roots from each rank's key (keys numbered in the order
 * of their lowest rank; -1: outside), and this rank's communicator. */
static void make_layout(MPI_Comm world, const int *key, struct coll_layout *l)
{
    int rank, size;
    MPI_CHECK(MPI_Comm_rank(world, &rank));
    MPI_CHECK(MPI_Comm_size(world, &size));
    gather_hosts(world, size);
    l->set_of = malloc(3 * (size_t)size * sizeof(int));
    err_any(world, l->set_of == NULL, ERR_STATUS_FAIL, "cannot allocate the groups of %d ranks",
            size);
    l->set_size = l->set_of + size;
    l->root_of = l->set_of + 2 * size;
    l->nsets = 0;
    l->world_size = size;
    /* Keys are below size (nodes, local ranks, blocks, strides of ranks):
     * each key's group is looked up, not searched for. root_of serves as
     * that table until the groups are known, as no group has a root yet. */
    int *set_of_key = l->root_of;
    for (int k = 0; k < size; k++)
        set_of_key[k] = -1;
    for (int r = 0; r < size; r++) {
        l->set_of[r] = -1;
        if (key[r] < 0)
            continue;
        if (key[r] >= size)
            err_fatal("group key %d of rank %d is not below %d", key[r], r, size);
        int *set = &set_of_key[key[r]];
        if (*set < 0) {
            *set = l->nsets;
            l->set_size[l->nsets++] = 0;
        }
        l->set_of[r] = *set;
        l->set_size[*set]++;
    }
    /* A group's root is its lowest rank: the first met in rank order. */
    for (int s = 0; s < l->nsets; s++)
        l->root_of[s] = -1;
    for (int r = size - 1; r >= 0; r--)
        if (l->set_of[r] >= 0)
            l->root_of[l->set_of[r]] = r;
    int color = l->set_of[rank] < 0 ? MPI_UNDEFINED : l->set_of[rank];
    MPI_CHECK(MPI_Comm_split(world, color, rank, &l->comm));
}

void coll_layout_groups(MPI_Comm world, const struct coll_groups_spec *spec, size_t block,
                        struct coll_layout *l)
{
    int rank, size, leader;
    MPI_CHECK(MPI_Comm_rank(world, &rank));
    MPI_CHECK(MPI_Comm_size(world, &size));
    /* Every rank knows the size: each refuses alike. More groups than
     * ranks, or a group larger than the job, is a layout the run cannot
     * give: it would run fewer groups than asked, or the plain run under
     * the name of groups. */
    if (spec->kind == COLL_GROUPS_STRIDE && spec->n > (size_t)size)
        err_usage("--groups=stride:%zu asks for %zu groups; this job has %d rank%s", spec->n,
                  spec->n, size, size == 1 ? "" : "s");
    if (spec->kind == COLL_GROUPS_BLOCK && spec->n > (size_t)size)
        err_usage("--groups=%zu asks for groups of %zu ranks; this job has %d", spec->n, spec->n,
                  size);
    if (block) {
        leader = rank - rank % (int)block;
    } else {
        MPI_Comm node;
        MPI_CHECK(MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node));
        MPI_CHECK(MPI_Allreduce(&rank, &leader, 1, MPI_INT, MPI_MIN, node));
        MPI_CHECK(MPI_Comm_free(&node));
    }
    int *all = malloc(4 * (size_t)size * sizeof(int));
    err_any(world, all == NULL, ERR_STATUS_FAIL, "cannot allocate the nodes of %d ranks", size);
    int *node_of = all + size, *local_of = all + 2 * size, *key = all + 3 * size;
    MPI_CHECK(MPI_Allgather(&leader, 1, MPI_INT, all, 1, MPI_INT, world));
    coll_groups_nodes(all, size, node_of, local_of);
    for (int r = 0; r < size; r++)
        key[r] = coll_groups_key(spec, r, node_of[r], local_of[r]);
    make_layout(world, key, l);
    free(all);
}

void coll_layout_first(MPI_Comm world, int count, struct coll_layout *l)
{
    int size;
    MPI_CHECK(MPI_Comm_size(world, &size));
    int *key = malloc((size_t)size * sizeof(int));
    err_any(world, key == NULL, ERR_STATUS_FAIL, "cannot allocate the ranks of a step");
    for (int r = 0; r < size; r++)
        key[r] = r < count ? 0 : -1;
    make_layout(world, key, l);
    free(key);
}

void coll_layout_describe(const struct coll_layout *l, int set, const char *label)
{
    if (!out_is_printer())
        return;
    int size = l->world_size, n = l->set_size[set];
    int *ranks = calloc((size_t)n + 1, sizeof(int));
    char *seen = calloc((size_t)n + 1, GROUPS_HOST);
    int *count = calloc((size_t)n + 1, sizeof(int));
    if (!ranks || !seen || !count)
        err_fatal("cannot allocate the description of a group of %d ranks", n);
    int k = 0, nhosts = 0;
    for (int r = 0; r < size; r++) {
        if (l->set_of[r] != set)
            continue;
        ranks[k++] = r;
        const char *h = hosts + (size_t)r * GROUPS_HOST;
        int i = 0;
        while (i < nhosts && strncmp(seen + (size_t)i * GROUPS_HOST, h, GROUPS_HOST) != 0)
            i++;
        if (i == nhosts)
            memcpy(seen + (size_t)nhosts++ * GROUPS_HOST, h, GROUPS_HOST);
        count[i]++;
    }
    char text[1024], where[1024];
    coll_groups_ranks_text(ranks, (size_t)k, text, sizeof text);
    size_t used = 0;
    where[0] = '\0';
    for (int i = 0; i < nhosts && used < sizeof where; i++)
        used += (size_t)snprintf(where + used, sizeof where - used, "%s%.*s (%d)",
                                 i ? ", " : "", GROUPS_HOST - 1, seen + (size_t)i * GROUPS_HOST,
                                 count[i]);
    out_comment("%s: %d rank%s (world rank%s %s)", label, k, k == 1 ? "" : "s",
                k == 1 ? "" : "s", text);
    out_comment("%s hosts: %s", label, where);
    free(ranks);
    free(seen);
    free(count);
}

void coll_layout_free(struct coll_layout *l)
{
    if (l->comm != MPI_COMM_NULL)
        MPI_CHECK(MPI_Comm_free(&l->comm));
    free(l->set_of);
    l->set_of = NULL;
}
