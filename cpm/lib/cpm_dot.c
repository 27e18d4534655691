/* cpm_dot: the grammar of the strict DOT reader and the graph it builds;
 * see cpm_dot.h (tokens: cpm_dot_lex.c). */
#include "cpm_dot.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpm_dot_lex.h"
#include "cpm_escape.h"
#include "infile.h"

/* The graph being built, with a hash of node IDs (open addressing; slots
 * hold node indices, SIZE_MAX when empty) so edges find nodes at once. */
struct build {
    struct cpm_dot_graph *g;
    struct cpm_dot_lexer lx;
    size_t node_cap, edge_cap;
    size_t *slots, nslots; /* a power of two, at least twice the nodes */
};

static int no_memory(struct build *b, int line)
{
    return cpm_dot_lex_fail(&b->lx, line, "out of memory");
}

/* Grows *array of *cap elements of size to hold one more than used. */
static int grow(void **array, size_t *cap, size_t used, size_t size)
{
    if (used < *cap)
        return 0;
    size_t cap2 = *cap ? 2 * *cap : 16;
    void *a = realloc(*array, cap2 * size);
    if (!a)
        return -1;
    *array = a;
    *cap = cap2;
    return 0;
}

static size_t hash(const char *s)
{
    uint64_t h = 1469598103934665603u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return (size_t)h;
}

static size_t slot_of(const struct build *b, const char *id)
{
    size_t i = hash(id) & (b->nslots - 1);
    while (b->slots[i] != SIZE_MAX && strcmp(b->g->nodes[b->slots[i]].id, id) != 0)
        i = (i + 1) & (b->nslots - 1);
    return i;
}

static int rehash(struct build *b)
{
    size_t n = b->nslots ? 2 * b->nslots : 64;
    size_t *s = malloc(n * sizeof *s);
    if (!s)
        return -1;
    free(b->slots);
    b->slots = s;
    b->nslots = n;
    for (size_t i = 0; i < n; i++)
        s[i] = SIZE_MAX;
    for (size_t k = 0; k < b->g->nnodes; k++)
        s[slot_of(b, b->g->nodes[k].id)] = k;
    return 0;
}

/* The node with this ID, added (undeclared) when new. */
static int node_of(struct build *b, const char *id, int line, size_t *index)
{
    struct cpm_dot_graph *g = b->g;
    if (2 * (g->nnodes + 1) > b->nslots && rehash(b) != 0)
        return no_memory(b, line);
    size_t slot = slot_of(b, id);
    if (b->slots[slot] != SIZE_MAX) {
        *index = b->slots[slot];
        return 0;
    }
    if (g->nnodes >= CPM_DOT_MAX_NODES)
        return cpm_dot_lex_fail(&b->lx, line, "more than %zu nodes", CPM_DOT_MAX_NODES);
    if (grow((void **)&g->nodes, &b->node_cap, g->nnodes, sizeof *g->nodes) != 0)
        return no_memory(b, line);
    struct cpm_dot_node *n = &g->nodes[g->nnodes];
    memset(n, 0, sizeof *n);
    n->line = line;
    if (!(n->id = strdup(id)))
        return no_memory(b, line);
    *index = b->slots[slot] = g->nnodes++;
    return 0;
}

static int next(struct build *b, struct cpm_dot_token *t) { return cpm_dot_lex_next(&b->lx, t); }

/* The attribute lists after '[' ... ']' ( '[' ... ']' )*, the first '['
 * already read. With node set, the attributes are the node's; what says
 * the statement's kind (for the defaults) is in what. */
static int attr_lists(struct build *b, struct cpm_dot_node *node, const char *what)
{
    struct cpm_dot_token key, t, value;
    for (;;) {
        if (next(b, &key) != 0)
            return -1;
        if (key.kind == CPM_DOT_RBRACKET) {
            if (next(b, &t) != 0)
                return -1;
            if (t.kind != CPM_DOT_LBRACKET) {
                cpm_dot_lex_unget(&b->lx, &t);
                return 0;
            }
            continue;
        }
        if (key.kind != CPM_DOT_ID)
            return cpm_dot_lex_fail(&b->lx, key.line,
                                    "expected an attribute name or ']' in %s, found '%s'", what,
                                    key.text);
        if (next(b, &t) != 0)
            return -1;
        if (t.kind != CPM_DOT_EQUAL)
            return cpm_dot_lex_fail(&b->lx, key.line,
                                    "attribute '%s' of %s has no value ('%s=...')", key.text, what,
                                    key.text);
        if (next(b, &value) != 0)
            return -1;
        if (value.kind != CPM_DOT_ID)
            return cpm_dot_lex_fail(&b->lx, value.line,
                                    "attribute '%s' of %s: expected a value, found '%s'", key.text,
                                    what, value.text);
        if (!node && (strcmp(key.text, "type") == 0 || strcmp(key.text, "model_data") == 0))
            return cpm_dot_lex_fail(&b->lx, key.line,
                                    "'%s' in %s: type and model_data belong on each node", key.text,
                                    what);
        if (node) {
            if (cpm_dot_attr(node, key.text))
                return cpm_dot_lex_fail(&b->lx, key.line,
                                        "attribute '%s' of node \"%s\" given twice", key.text,
                                        node->id);
            struct cpm_dot_attr *a = realloc(node->attrs, (node->nattrs + 1) * sizeof *a);
            if (!a)
                return no_memory(b, key.line);
            node->attrs = a;
            struct cpm_dot_attr *added = &a[node->nattrs++];
            added->key = strdup(key.text);
            added->value = strdup(value.text);
            if (!added->key || !added->value)
                return no_memory(b, key.line);
        }
        if (next(b, &t) != 0)
            return -1;
        if (t.kind != CPM_DOT_COMMA && t.kind != CPM_DOT_SEMI)
            cpm_dot_lex_unget(&b->lx, &t);
    }
}

/* Optional attribute lists of an edge or a default statement. */
static int maybe_attrs(struct build *b, const char *what)
{
    struct cpm_dot_token t;
    if (next(b, &t) != 0)
        return -1;
    if (t.kind == CPM_DOT_LBRACKET)
        return attr_lists(b, NULL, what);
    cpm_dot_lex_unget(&b->lx, &t);
    return 0;
}

static int add_edge(struct build *b, size_t from, size_t to, int line)
{
    struct cpm_dot_graph *g = b->g;
    if (grow((void **)&g->edges, &b->edge_cap, g->nedges, sizeof *g->edges) != 0)
        return no_memory(b, line);
    g->edges[g->nedges++] = (struct cpm_dot_edge){from, to, line};
    return 0;
}

/* ID -> ID -> ... [attributes], the first ID and the first arrow read. */
static int edge_chain(struct build *b, size_t from)
{
    struct cpm_dot_token t;
    for (;;) {
        if (next(b, &t) != 0)
            return -1;
        if (t.kind == CPM_DOT_LBRACE || cpm_dot_is_keyword(&t, "subgraph"))
            return cpm_dot_lex_fail(&b->lx, t.line, "an edge to a subgraph is not supported");
        if (t.kind != CPM_DOT_ID)
            return cpm_dot_lex_fail(&b->lx, t.line, "expected a node after '->', found '%s'",
                                    t.text);
        size_t to;
        if (node_of(b, t.text, t.line, &to) != 0 || add_edge(b, from, to, t.line) != 0)
            return -1;
        from = to;
        if (next(b, &t) != 0)
            return -1;
        if (t.kind == CPM_DOT_DASHES)
            return cpm_dot_lex_fail(&b->lx, t.line, "'--' is an undirected edge: use '->'");
        if (t.kind != CPM_DOT_ARROW) {
            cpm_dot_lex_unget(&b->lx, &t);
            return maybe_attrs(b, "an edge");
        }
    }
}

/* A statement that starts with the ID first. */
static int id_statement(struct build *b, const struct cpm_dot_token *first)
{
    struct cpm_dot_token t;
    if (next(b, &t) != 0)
        return -1;
    if (t.kind == CPM_DOT_EQUAL) { /* a graph attribute */
        if (next(b, &t) != 0)
            return -1;
        if (t.kind != CPM_DOT_ID)
            return cpm_dot_lex_fail(&b->lx, t.line, "'%s =' needs a value, found '%s'", first->text,
                                    t.text);
        return 0;
    }
    if (t.kind == CPM_DOT_COLON)
        return cpm_dot_lex_fail(&b->lx, t.line, "ports (\"%s\":...) are not supported",
                                first->text);
    if (t.kind == CPM_DOT_DASHES)
        return cpm_dot_lex_fail(&b->lx, t.line, "'--' is an undirected edge: use '->'");
    size_t index;
    if (node_of(b, first->text, first->line, &index) != 0)
        return -1;
    if (t.kind == CPM_DOT_ARROW)
        return edge_chain(b, index);
    struct cpm_dot_node *n = &b->g->nodes[index];
    if (n->declared)
        return cpm_dot_lex_fail(&b->lx, first->line,
                                "node \"%s\" declared again (first on line %d)", n->id, n->line);
    n->declared = true;
    n->line = first->line;
    if (t.kind == CPM_DOT_LBRACKET)
        return attr_lists(b, n, "a node");
    cpm_dot_lex_unget(&b->lx, &t);
    return 0;
}

/* Statements up to the closing brace. */
static int statements(struct build *b)
{
    struct cpm_dot_token t;
    for (;;) {
        if (next(b, &t) != 0)
            return -1;
        if (t.kind == CPM_DOT_RBRACE) {
            b->g->end_line = t.line;
            return 0;
        }
        if (t.kind == CPM_DOT_EOF)
            return cpm_dot_lex_fail(&b->lx, t.line,
                                    "the file ends before the closing '}' (truncated?)");
        int rc;
        if (cpm_dot_is_keyword(&t, "subgraph") || t.kind == CPM_DOT_LBRACE)
            return cpm_dot_lex_fail(&b->lx, t.line, "subgraphs are not supported");
        if (cpm_dot_is_keyword(&t, "graph") || cpm_dot_is_keyword(&t, "node") ||
            cpm_dot_is_keyword(&t, "edge")) {
            const char *what = cpm_dot_is_keyword(&t, "graph") ? "'graph' defaults"
                               : cpm_dot_is_keyword(&t, "node") ? "'node' defaults"
                                                                : "'edge' defaults";
            struct cpm_dot_token open;
            if (next(b, &open) != 0)
                return -1;
            if (open.kind != CPM_DOT_LBRACKET)
                return cpm_dot_lex_fail(&b->lx, open.line, "'%s' must be followed by '['", t.text);
            rc = attr_lists(b, NULL, what);
        } else if (cpm_dot_is_keyword(&t, "digraph") || cpm_dot_is_keyword(&t, "strict")) {
            return cpm_dot_lex_fail(&b->lx, t.line, "'%s' inside the graph", t.text);
        } else if (t.kind == CPM_DOT_ID) {
            rc = id_statement(b, &t);
        } else {
            return cpm_dot_lex_fail(&b->lx, t.line, "expected a statement, found '%s'", t.text);
        }
        if (rc != 0)
            return -1;
        if (next(b, &t) != 0)
            return -1;
        if (t.kind != CPM_DOT_SEMI)
            cpm_dot_lex_unget(&b->lx, &t);
    }
}

static int graph(struct build *b)
{
    struct cpm_dot_token t;
    if (next(b, &t) != 0)
        return -1;
    if (cpm_dot_is_keyword(&t, "strict") && next(b, &t) != 0)
        return -1;
    if (cpm_dot_is_keyword(&t, "graph"))
        return cpm_dot_lex_fail(&b->lx, t.line, "an undirected graph: a hierarchy is a digraph");
    if (!cpm_dot_is_keyword(&t, "digraph"))
        return cpm_dot_lex_fail(&b->lx, t.line, "expected 'digraph', found '%s'",
                                t.kind == CPM_DOT_EOF ? "the end of the file" : t.text);
    if (next(b, &t) != 0)
        return -1;
    if (t.kind == CPM_DOT_ID) {
        if (!(b->g->name = strdup(t.text)))
            return no_memory(b, t.line);
        if (next(b, &t) != 0)
            return -1;
    }
    if (t.kind != CPM_DOT_LBRACE)
        return cpm_dot_lex_fail(&b->lx, t.line, "expected '{', found '%s'", t.text);
    if (statements(b) != 0 || next(b, &t) != 0)
        return -1;
    if (t.kind != CPM_DOT_EOF)
        return cpm_dot_lex_fail(&b->lx, t.line, "'%s' after the closing '}'", t.text);
    return 0;
}

int cpm_dot_parse(const char *text, size_t len, struct cpm_dot_graph *g, char *err, size_t errlen)
{
    memset(g, 0, sizeof *g);
    struct build b = {.g = g};
    cpm_dot_lex_init(&b.lx, text, len, err, errlen);
    int rc = len > CPM_DOT_MAX_BYTES
                 ? cpm_dot_lex_fail(&b.lx, 1, "more than %zu bytes", CPM_DOT_MAX_BYTES)
                 : graph(&b);
    free(b.slots);
    if (rc != 0)
        cpm_dot_free(g);
    return rc;
}

void cpm_dot_free(struct cpm_dot_graph *g)
{
    for (size_t k = 0; k < g->nnodes; k++) {
        for (size_t a = 0; a < g->nodes[k].nattrs; a++) {
            free(g->nodes[k].attrs[a].key);
            free(g->nodes[k].attrs[a].value);
        }
        free(g->nodes[k].attrs);
        free(g->nodes[k].id);
    }
    free(g->nodes);
    free(g->edges);
    free(g->name);
    memset(g, 0, sizeof *g);
}

const char *cpm_dot_attr(const struct cpm_dot_node *n, const char *key)
{
    for (size_t a = 0; a < n->nattrs; a++)
        if (n->attrs[a].key && strcmp(n->attrs[a].key, key) == 0)
            return n->attrs[a].value;
    return NULL;
}

int cpm_dot_slurp(const char *path, char **text, size_t *len, char *err, size_t errlen)
{
    *text = NULL;
    *len = 0;
    char why[160];
    FILE *f = infile_open(path, why, sizeof why);
    if (!f) {
        snprintf(err, errlen, "cannot open %s: %s", path, why);
        cpm_escape_controls(err);
        return -1;
    }
    size_t cap = 0, n = 0;
    char *buf = NULL;
    int rc = 0;
    for (;;) {
        if (n + 1 >= cap) {
            size_t cap2 = cap ? 2 * cap : 4096;
            char *b2 = n > CPM_DOT_MAX_BYTES ? NULL : realloc(buf, cap2);
            if (!b2) {
                snprintf(err, errlen, "%s: %s", path,
                         n > CPM_DOT_MAX_BYTES ? "larger than the limit of 64 MiB"
                                               : "out of memory");
                rc = -1;
                break;
            }
            buf = b2;
            cap = cap2;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0) {
            if (ferror(f)) {
                snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
                rc = -1;
            }
            break;
        }
    }
    fclose(f);
    if (rc != 0) {
        free(buf);
        return -1;
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return 0;
}

int cpm_dot_quote(const char *s, char *out, size_t outlen)
{
    size_t n = 0;
    if (outlen < 3)
        return -1;
    out[n++] = '"';
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\\' || c < 0x20 || c == 0x7f || n + 4 > outlen)
            return -1;
        if (c == '"')
            out[n++] = '\\';
        out[n++] = (char)c;
    }
    out[n++] = '"';
    out[n] = '\0';
    return 0;
}
