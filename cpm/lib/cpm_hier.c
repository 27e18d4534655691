/* cpm_hier: the hierarchy of hosts, its rules, reading and writing; see
 * cpm_hier.h. */
#include "cpm_hier.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cpm_escape.h"
#include "err.h"

static void *need(void *p)
{
    if (!p)
        err_fatal("out of memory for a hierarchy");
    return p;
}

int cpm_hier_fail(char *err, size_t errlen, int line, const char *fmt, ...)
{
    char text[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    /* Host names and IDs come from the file or the run's hosts. */
    cpm_escape_controls(text);
    if (line > 0)
        snprintf(err, errlen, "line %d: %s", line, text);
    else
        snprintf(err, errlen, "%s", text);
    return -1;
}

void cpm_hier_init(struct cpm_hier *h)
{
    memset(h, 0, sizeof *h);
    h->root = CPM_HIER_NONE;
}

size_t cpm_hier_add(struct cpm_hier *h, const char *name, bool leaf, const char *model_data,
                    int line)
{
    /* Doubling: the count is a power of two whenever it fills up. */
    if ((h->nnodes & (h->nnodes - 1)) == 0)
        h->nodes = need(realloc(h->nodes, (h->nnodes ? 2 * h->nnodes : 1) * sizeof *h->nodes));
    struct cpm_hier_node *n = &h->nodes[h->nnodes];
    memset(n, 0, sizeof *n);
    n->name = need(strdup(name));
    n->leaf = leaf;
    n->model_data = need(strdup(model_data));
    n->parent = CPM_HIER_NONE;
    n->line = line;
    return h->nnodes++;
}

int cpm_hier_edge(struct cpm_hier *h, size_t parent, size_t child, int line, char *err,
                  size_t errlen)
{
    struct cpm_hier_node *p = &h->nodes[parent], *c = &h->nodes[child];
    if (parent == child)
        return cpm_hier_fail(err, errlen, line,
                             "edge \"%s\" -> \"%s\": a node cannot be its own parent", p->name,
                             c->name);
    if (p->leaf)
        return cpm_hier_fail(err, errlen, line, "leaf \"%s\" (type 0) has a child \"%s\"", p->name,
                             c->name);
    if (c->parent != CPM_HIER_NONE)
        return cpm_hier_fail(err, errlen, line,
                             "node \"%s\" has a second parent \"%s\" (the first is \"%s\")",
                             c->name, p->name, h->nodes[c->parent].name);
    if ((p->nchildren & (p->nchildren - 1)) == 0)
        p->children =
            need(realloc(p->children, (p->nchildren ? 2 * p->nchildren : 1) * sizeof *p->children));
    p->children[p->nchildren++] = child;
    c->parent = parent;
    return 0;
}

/* Depth first from the root: depths, hosts in order, sizes. Returns how
 * many nodes it reached. */
static size_t number_hosts(struct cpm_hier *h)
{
    size_t *stack = need(malloc(h->nnodes * sizeof *stack)), top = 0, reached = 0;
    h->leaves = need(malloc((h->nnodes + 1) * sizeof *h->leaves));
    h->host_of = need(malloc(h->nnodes * sizeof *h->host_of));
    h->nleaves = 0;
    for (size_t k = 0; k < h->nnodes; k++)
        h->host_of[k] = CPM_HIER_NONE;
    stack[top++] = h->root;
    h->nodes[h->root].depth = 0;
    while (top > 0) {
        size_t v = stack[--top];
        struct cpm_hier_node *n = &h->nodes[v];
        reached++;
        n->size = n->leaf;
        if (n->leaf) {
            h->host_of[v] = h->nleaves;
            h->leaves[h->nleaves++] = v;
        }
        for (size_t c = n->nchildren; c-- > 0;) { /* the first child on top */
            h->nodes[n->children[c]].depth = n->depth + 1;
            stack[top++] = n->children[c];
        }
    }
    free(stack);
    /* Each host counts once in every group above it. */
    for (size_t i = 0; i < h->nleaves; i++)
        for (size_t v = h->nodes[h->leaves[i]].parent; v != CPM_HIER_NONE; v = h->nodes[v].parent)
            h->nodes[v].size++;
    return reached;
}

static int by_host(const void *a, const void *b)
{
    const struct cpm_hier_node *const *x = a, *const *y = b;
    int c = strcmp((*x)->model_data, (*y)->model_data);
    return c ? c : ((*x)->line > (*y)->line) - ((*x)->line < (*y)->line);
}

/* Leaves name distinct hosts (sorted, so that a large hierarchy is quick). */
static int distinct_hosts(const struct cpm_hier *h, char *err, size_t errlen)
{
    const struct cpm_hier_node **by = need(malloc((h->nleaves + 1) * sizeof *by));
    for (size_t i = 0; i < h->nleaves; i++)
        by[i] = &h->nodes[h->leaves[i]];
    qsort(by, h->nleaves, sizeof *by, by_host);
    int rc = 0;
    for (size_t i = 1; i < h->nleaves && rc == 0; i++)
        if (strcmp(by[i]->model_data, by[i - 1]->model_data) == 0)
            rc = cpm_hier_fail(err, errlen, by[i]->line,
                               "host \"%s\" is the model_data of \"%s\" and of \"%s\" (line %d)",
                               by[i]->model_data, by[i]->name, by[i - 1]->name, by[i - 1]->line);
    free(by);
    return rc;
}

int cpm_hier_finish(struct cpm_hier *h, char *err, size_t errlen)
{
    if (h->nnodes == 0)
        return cpm_hier_fail(err, errlen, 0, "the hierarchy has no elements");
    for (size_t k = 0; k < h->nnodes; k++)
        if (!h->nodes[k].leaf && h->nodes[k].nchildren == 0)
            return cpm_hier_fail(err, errlen, h->nodes[k].line,
                                 "\"%s\" is not a leaf (type 1) but has no children",
                                 h->nodes[k].name);
    for (size_t k = 0; k < h->nnodes; k++) {
        const struct cpm_hier_node *n = &h->nodes[k];
        if (n->parent != CPM_HIER_NONE)
            continue;
        if (h->root != CPM_HIER_NONE)
            return cpm_hier_fail(
                err, errlen, n->line,
                "a second root \"%s\": a hierarchy has one root, and \"%s\" (line %d) is one",
                n->name, h->nodes[h->root].name, h->nodes[h->root].line);
        h->root = k;
    }
    if (h->root == CPM_HIER_NONE)
        return cpm_hier_fail(err, errlen, h->nodes[0].line,
                             "no root: every element has a parent, so the edges make a cycle");
    /* Every node reached from the root has a leaf at or below it. */
    if (number_hosts(h) < h->nnodes)
        for (size_t k = 0; k < h->nnodes; k++)
            if (h->nodes[k].size == 0)
                return cpm_hier_fail(
                    err, errlen, h->nodes[k].line,
                    "\"%s\" is not below the root \"%s\": the edges above it make a cycle",
                    h->nodes[k].name, h->nodes[h->root].name);
    return distinct_hosts(h, err, errlen);
}

void cpm_hier_free(struct cpm_hier *h)
{
    for (size_t k = 0; k < h->nnodes; k++) {
        free(h->nodes[k].name);
        free(h->nodes[k].model_data);
        free(h->nodes[k].children);
    }
    free(h->nodes);
    free(h->leaves);
    free(h->host_of);
    cpm_hier_init(h);
}

const char *cpm_hier_bad_host(const char *name)
{
    if (!*name)
        return "it is empty";
    for (const unsigned char *c = (const unsigned char *)name; *c; c++) {
        if (*c <= ' ' || *c == 0x7f)
            return "it holds a blank or a control character";
        if (*c == '"' || *c == '\\' || *c == '*')
            return "it holds a quote, a backslash or '*'";
    }
    return NULL;
}

size_t cpm_hier_find_host(const struct cpm_hier *h, const char *host)
{
    for (size_t i = 0; i < h->nleaves; i++)
        if (strcmp(h->nodes[h->leaves[i]].model_data, host) == 0)
            return i;
    return CPM_HIER_NONE;
}

/* A node's type and model_data, checked. */
static int node_fields(const struct cpm_dot_node *d, bool *leaf, const char **data, char *err,
                       size_t errlen)
{
    if (!d->declared)
        return cpm_hier_fail(err, errlen, d->line,
                             "\"%s\" is in an edge but never declared with its type and model_data",
                             d->id);
    const char *type = cpm_dot_attr(d, "type");
    *data = cpm_dot_attr(d, "model_data");
    if (!type)
        return cpm_hier_fail(err, errlen, d->line,
                             "\"%s\" has no type (0 for a leaf, 1 for a group)", d->id);
    if (strcmp(type, "0") != 0 && strcmp(type, "1") != 0)
        return cpm_hier_fail(err, errlen, d->line,
                             "\"%s\": type is '%s', not 0 (leaf) or 1 (group)", d->id, type);
    if (!*data)
        return cpm_hier_fail(err, errlen, d->line,
                             "\"%s\" has no model_data (a leaf's host name, or \"\")", d->id);
    *leaf = type[0] == '0';
    const char *why = *leaf ? cpm_hier_bad_host(*data) : NULL;
    if (why)
        return cpm_hier_fail(err, errlen, d->line,
                             "leaf \"%s\": model_data \"%s\" is not a host name: %s", d->id, *data,
                             why);
    return 0;
}

int cpm_hier_from_dot(const struct cpm_dot_graph *g, struct cpm_hier *h, char *err, size_t errlen)
{
    cpm_hier_init(h);
    int rc = 0;
    for (size_t k = 0; k < g->nnodes && rc == 0; k++) {
        bool leaf = false;
        const char *data = NULL;
        rc = node_fields(&g->nodes[k], &leaf, &data, err, errlen);
        if (rc == 0)
            cpm_hier_add(h, g->nodes[k].id, leaf, data, g->nodes[k].line);
    }
    if (rc == 0 && g->nnodes == 0)
        rc = cpm_hier_fail(err, errlen, g->end_line, "the graph has no elements");
    for (size_t e = 0; e < g->nedges && rc == 0; e++)
        rc = cpm_hier_edge(h, g->edges[e].from, g->edges[e].to, g->edges[e].line, err, errlen);
    if (rc == 0)
        rc = cpm_hier_finish(h, err, errlen);
    if (rc != 0)
        cpm_hier_free(h);
    return rc;
}

int cpm_hier_parse(const char *text, size_t len, struct cpm_hier *h, char *err, size_t errlen)
{
    struct cpm_dot_graph g;
    cpm_hier_init(h);
    if (cpm_dot_parse(text, len, &g, err, errlen) != 0)
        return -1;
    int rc = cpm_hier_from_dot(&g, h, err, errlen);
    cpm_dot_free(&g);
    return rc;
}

int cpm_hier_read_file(const char *path, struct cpm_hier *h, char *err, size_t errlen)
{
    char *text, inner[500];
    size_t len;
    cpm_hier_init(h);
    if (cpm_dot_slurp(path, &text, &len, err, errlen) != 0)
        return -1;
    int rc = cpm_hier_parse(text, len, h, inner, sizeof inner);
    free(text);
    if (rc != 0) {
        snprintf(err, errlen, "hierarchy file %s, %s", path, inner);
        cpm_escape_controls(err);
    }
    return rc;
}

/* Writes one line "prefix QUOTED(a) middle QUOTED(b) suffix" (b may be
 * NULL) through put. */
static int put_line(void (*put)(const char *, void *), void *ctx, const char *prefix, const char *a,
                    const char *middle, const char *b, const char *suffix)
{
    size_t la = 2 * strlen(a) + 3, lb = b ? 2 * strlen(b) + 3 : 1;
    char *qa = need(malloc(la)), *qb = need(malloc(lb));
    qb[0] = '\0';
    int rc = cpm_dot_quote(a, qa, la) != 0 || (b && cpm_dot_quote(b, qb, lb) != 0) ? -1 : 0;
    if (rc == 0) {
        size_t len = strlen(prefix) + la + strlen(middle) + lb + strlen(suffix) + 1;
        char *line = need(malloc(len));
        snprintf(line, len, "%s%s%s%s%s", prefix, qa, middle, qb, suffix);
        put(line, ctx);
        free(line);
    }
    free(qa);
    free(qb);
    return rc;
}

int cpm_hier_write(const struct cpm_hier *h, void (*put)(const char *line, void *ctx), void *ctx)
{
    size_t *order = need(malloc(h->nnodes * sizeof *order)),
           *stack = need(malloc(h->nnodes * sizeof *stack));
    size_t count = 0, top = 0;
    stack[top++] = h->root;
    while (top > 0) {
        size_t v = order[count++] = stack[--top];
        for (size_t c = h->nodes[v].nchildren; c-- > 0;)
            stack[top++] = h->nodes[v].children[c];
    }
    int rc = 0;
    put("digraph hierarchy {", ctx);
    for (size_t k = 0; k < count && rc == 0; k++) {
        const struct cpm_hier_node *n = &h->nodes[order[k]];
        rc = put_line(put, ctx, "    ", n->name,
                      n->leaf ? " [type=0, model_data=" : " [type=1, model_data=", n->model_data,
                      "];");
    }
    for (size_t k = 1; k < count && rc == 0; k++) /* every node but the root, by its edge */
        rc = put_line(put, ctx, "    ", h->nodes[h->nodes[order[k]].parent].name, " -> ",
                      h->nodes[order[k]].name, ";");
    put("}", ctx);
    free(order);
    free(stack);
    return rc;
}
