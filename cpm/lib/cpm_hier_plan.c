/* cpm_hier_plan: the links of a hierarchical model; see cpm_hier_plan.h. */
#include "cpm_hier_plan.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"

static void *need(void *p)
{
    if (!p)
        err_fatal("out of memory for a hierarchy's plan");
    return p;
}

/* The first host at or below every node, in one pass: host i is the first
 * of its leaf and of each group it is the first-child chain of. (Walking
 * down from each group instead was quadratic in a deep nesting.) */
static size_t *first_hosts(const struct cpm_hier *h)
{
    size_t *first = need(malloc(h->nnodes * sizeof *first));
    for (size_t i = 0; i < h->nleaves; i++) {
        size_t v = h->leaves[i];
        first[v] = i;
        for (size_t up = h->nodes[v].parent; up != CPM_HIER_NONE && h->nodes[up].children[0] == v;
             v = up, up = h->nodes[v].parent)
            first[up] = i;
    }
    return first;
}

/* The first reachable host of a subgroup (its hosts are numbered
 * consecutively), or CPM_HIER_NONE. */
static size_t first_reachable(const struct cpm_hier *h, const size_t *first_host, size_t v,
                              const bool *reachable)
{
    size_t first = first_host[v];
    for (size_t i = first; i < first + h->nodes[v].size; i++)
        if (!reachable || reachable[i])
            return i;
    return CPM_HIER_NONE;
}

static size_t add_link(struct cpm_hier_plan *p, size_t x, size_t y, size_t group, bool within,
                       size_t pairs)
{
    if ((p->nlinks & (p->nlinks - 1)) == 0)
        p->links = need(realloc(p->links, (p->nlinks ? 2 * p->nlinks : 1) * sizeof *p->links));
    p->links[p->nlinks] =
        (struct cpm_hier_link){x < y ? x : y, x < y ? y : x, group, within, pairs};
    return p->nlinks++;
}

/* The parts of group v, their representatives and links. */
static int plan_group(const struct cpm_hier *h, const size_t *first_host, size_t v,
                      const bool *reachable, struct cpm_hier_plan *p, char *err, size_t errlen)
{
    const struct cpm_hier_node *n = &h->nodes[v];
    struct cpm_hier_parts *pt = &p->parts[v];
    size_t own = 0, own_reached[2] = {CPM_HIER_NONE, CPM_HIER_NONE}, nreached = 0;
    for (size_t c = 0; c < n->nchildren; c++) {
        size_t child = n->children[c], host = h->host_of[child];
        if (!h->nodes[child].leaf)
            continue;
        own++;
        if ((!reachable || reachable[host]) && nreached < 2)
            own_reached[nreached++] = host;
    }
    /* Part x: its node (v itself for the own hosts), representative, size. */
    size_t *node = need(malloc((n->nchildren + 1) * 3 * sizeof *node));
    size_t *rep = node + n->nchildren + 1, *size = rep + n->nchildren + 1;
    pt->own = own > 0;
    pt->nparts = 0;
    if (pt->own) {
        node[0] = v;
        rep[0] = own_reached[0];
        size[pt->nparts++] = own;
    }
    for (size_t c = 0; c < n->nchildren; c++) {
        size_t child = n->children[c];
        p->part_of[child] = h->nodes[child].leaf ? 0 : pt->nparts;
        if (h->nodes[child].leaf)
            continue;
        node[pt->nparts] = child;
        rep[pt->nparts] = first_reachable(h, first_host, child, reachable);
        size[pt->nparts++] = h->nodes[child].size;
    }
    int rc = 0;
    pt->within = CPM_HIER_NONE;
    if (own >= 2 && nreached < 2)
        rc = cpm_hier_fail(err, errlen, n->line,
                           "the links among the %zu hosts directly below \"%s\" are measured "
                           "between two of them, and the run reaches %zu",
                           own, n->name, nreached);
    else if (own >= 2)
        pt->within = add_link(p, own_reached[0], own_reached[1], v, true, own * (own - 1) / 2);
    for (size_t x = 0; x < pt->nparts && rc == 0 && pt->nparts > 1; x++)
        if (rep[x] == CPM_HIER_NONE)
            rc = cpm_hier_fail(err, errlen, h->nodes[node[x]].line,
                               "the run reaches none of the %zu hosts %s \"%s\"", size[x],
                               node[x] == v ? "directly below" : "of", h->nodes[node[x]].name);
    if (rc == 0) {
        pt->between = need(malloc((pt->nparts * pt->nparts + 1) * sizeof *pt->between));
        for (size_t x = 0; x < pt->nparts; x++) {
            pt->between[x * pt->nparts + x] = CPM_HIER_NONE;
            for (size_t y = x + 1; y < pt->nparts; y++)
                pt->between[x * pt->nparts + y] = pt->between[y * pt->nparts + x] =
                    add_link(p, rep[x], rep[y], v, false, size[x] * size[y]);
        }
    }
    free(node);
    return rc;
}

int cpm_hier_plan_make(const struct cpm_hier *h, const bool *reachable, struct cpm_hier_plan *p,
                       char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->parts = need(calloc(h->nnodes, sizeof *p->parts));
    p->part_of = need(malloc(h->nnodes * sizeof *p->part_of));
    size_t *stack = need(malloc(h->nnodes * sizeof *stack)), top = 0, *first = first_hosts(h);
    p->part_of[h->root] = CPM_HIER_NONE;
    stack[top++] = h->root;
    int rc = 0;
    while (top > 0 && rc == 0) { /* groups depth first, the first child first */
        size_t v = stack[--top];
        if (h->nodes[v].leaf)
            continue;
        rc = plan_group(h, first, v, reachable, p, err, errlen);
        for (size_t c = h->nodes[v].nchildren; c-- > 0;)
            stack[top++] = h->nodes[v].children[c];
    }
    free(stack);
    free(first);
    p->nnodes = h->nnodes;
    if (rc != 0)
        cpm_hier_plan_free(p);
    return rc;
}

void cpm_hier_plan_free(struct cpm_hier_plan *p)
{
    for (size_t k = 0; p->parts && k < p->nnodes; k++)
        free(p->parts[k].between);
    free(p->parts);
    free(p->part_of);
    free(p->links);
    memset(p, 0, sizeof *p);
}

size_t cpm_hier_plan_link(const struct cpm_hier *h, const struct cpm_hier_plan *p, size_t i,
                          size_t j)
{
    /* Up to the lowest common group, remembering the child on each side. */
    size_t a = h->leaves[i], b = h->leaves[j], ca = a, cb = b;
    while (h->nodes[a].depth > h->nodes[b].depth) {
        ca = a;
        a = h->nodes[a].parent;
    }
    while (h->nodes[b].depth > h->nodes[a].depth) {
        cb = b;
        b = h->nodes[b].parent;
    }
    while (a != b) {
        ca = a;
        a = h->nodes[a].parent;
        cb = b;
        b = h->nodes[b].parent;
    }
    const struct cpm_hier_parts *pt = &p->parts[a];
    size_t x = p->part_of[ca], y = p->part_of[cb];
    return x == y ? pt->within : pt->between[x * pt->nparts + y];
}

size_t cpm_hier_plan_hosts(const struct cpm_hier *h, const struct cpm_hier_plan *p, size_t *hosts)
{
    bool *used = need(calloc(h->nleaves + 1, sizeof *used));
    for (size_t k = 0; k < p->nlinks; k++)
        used[p->links[k].a] = used[p->links[k].b] = true;
    size_t n = 0;
    for (size_t i = 0; i < h->nleaves; i++)
        if (used[i])
            hosts[n++] = i;
    free(used);
    return n;
}
