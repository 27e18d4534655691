/*
 * cpm_dot: a strict reader of the part of Graphviz's DOT language that the
 * hierarchy files are written in, and the quoting the writers use. It owns
 * the parsed graph: nodes with their attributes, edges, every string copied.
 *
 * Accepted: "[strict] digraph [ID] { ... }" with node statements
 * ID [a=b, ...], edge chains ID -> ID -> ... [attributes], graph attributes
 * ID = ID, and graph/node/edge [attribute] defaults; IDs unquoted
 * (letters, digits, '_'), numerals or "quoted" (\" is a quote, a backslash
 * before a newline joins lines); comments //, / * * / and lines starting
 * with '#' (so the '#' header of the suite's output stays in the file).
 * Refused, with the line and why: undirected graphs and '--', subgraphs,
 * ports, HTML strings, '+' concatenation, an attribute without a value or
 * given twice, a node declared twice, type or model_data as defaults,
 * anything after the closing brace, NUL bytes, unterminated strings and
 * comments, and files or IDs beyond the limits below. A node met first in
 * an edge exists (declared false) until its own statement.
 */
#ifndef COMMSWEEP_CPM_DOT_H
#define COMMSWEEP_CPM_DOT_H

#include <stdbool.h>
#include <stddef.h>

#define CPM_DOT_MAX_BYTES ((size_t)64 << 20) /* of a file */
#define CPM_DOT_MAX_ID 4096                  /* bytes of one ID */
#define CPM_DOT_MAX_NODES ((size_t)1 << 20)

struct cpm_dot_attr {
    char *key, *value;
};

struct cpm_dot_node {
    char *id;
    int line;      /* of its statement, or of its first edge while undeclared */
    bool declared; /* has a node statement */
    struct cpm_dot_attr *attrs;
    size_t nattrs;
};

struct cpm_dot_edge {
    size_t from, to; /* node indices */
    int line;
};

struct cpm_dot_graph {
    char *name; /* NULL when the graph has none */
    struct cpm_dot_node *nodes;
    size_t nnodes;
    struct cpm_dot_edge *edges; /* in file order */
    size_t nedges;
    int end_line; /* of the closing brace */
};

/* Parses len bytes of text; 0, or -1 with "line N: why" in err (g then
 * holds nothing). */
int cpm_dot_parse(const char *text, size_t len, struct cpm_dot_graph *g, char *err, size_t errlen);
void cpm_dot_free(struct cpm_dot_graph *g);
/* The value of attribute key of a node, or NULL. */
const char *cpm_dot_attr(const struct cpm_dot_node *n, const char *key);

/* Reads a whole file (at most CPM_DOT_MAX_BYTES) into *text (malloc'ed,
 * NUL-terminated); 0, or -1 with a message. */
int cpm_dot_slurp(const char *path, char **text, size_t *len, char *err, size_t errlen);

/* s as a quoted DOT ID into out; -1 when s holds a backslash or a control
 * character (which a quoted ID cannot carry back unchanged) or out is too
 * small. */
int cpm_dot_quote(const char *s, char *out, size_t outlen);

#endif
