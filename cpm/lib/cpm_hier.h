/*
 * cpm_hier: the hierarchy of hosts a hierarchical model is built on (the
 * seed's hierarchy file, 4.6-4.7): a tree with one root whose leaves
 * (type 0) are hosts, each named by its model_data, and whose other
 * elements (type 1) are groups of what lies below them. It owns the tree,
 * its reading from a DOT graph with every rule of a hierarchy checked (the
 * syntax is cpm_dot's), its writing as DOT, and the grouping of host names
 * by the seed's rules (cpm_hier_group.c).
 *
 * The leaves, depth first with children in the order of their edges,
 * number the hosts: host i is process i of a model built from the
 * hierarchy, and of the runs that use that model.
 */
#ifndef COMMSWEEP_CPM_HIER_H
#define COMMSWEEP_CPM_HIER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cpm_dot.h"

#define CPM_HIER_NONE SIZE_MAX

struct cpm_hier_node {
    char *name;       /* the DOT ID */
    bool leaf;        /* type 0 */
    char *model_data; /* a leaf's host name; a group's text (kept, unused) */
    size_t parent;    /* CPM_HIER_NONE for the root */
    size_t *children; /* in the order of the edges */
    size_t nchildren;
    size_t size; /* leaves at or below this node */
    size_t depth;
    int line; /* where the file declares it (0 when built) */
};

struct cpm_hier {
    struct cpm_hier_node *nodes;
    size_t nnodes;
    size_t root;
    size_t *leaves; /* node of host i, depth first */
    size_t nleaves;
    size_t *host_of; /* per node: its host number, CPM_HIER_NONE for groups */
};

/* Building: nodes and edges, then cpm_hier_finish. The names and texts are
 * copied. cpm_hier_add returns the new node's index. */
void cpm_hier_init(struct cpm_hier *h);
size_t cpm_hier_add(struct cpm_hier *h, const char *name, bool leaf, const char *model_data,
                    int line);
/* Makes child a child of parent; -1 with a message (naming line) when that
 * breaks a rule: a leaf parent, a node its own parent, a second parent. */
int cpm_hier_edge(struct cpm_hier *h, size_t parent, size_t child, int line, char *err,
                  size_t errlen);
/* Checks what needs the whole tree (one root, no cycle, every group with
 * children, leaves naming distinct hosts) and numbers the hosts; 0, or -1
 * with a message naming the line of the node at fault. */
int cpm_hier_finish(struct cpm_hier *h, char *err, size_t errlen);
void cpm_hier_free(struct cpm_hier *h);

/* From a parsed DOT graph: every node declared with type 0 or 1 and a
 * model_data (a leaf's a host name), edges parent -> child. */
int cpm_hier_from_dot(const struct cpm_dot_graph *g, struct cpm_hier *h, char *err, size_t errlen);
/* DOT text, or a file, to a hierarchy: 0, or -1 with "line N: why". */
int cpm_hier_parse(const char *text, size_t len, struct cpm_hier *h, char *err, size_t errlen);
int cpm_hier_read_file(const char *path, struct cpm_hier *h, char *err, size_t errlen);
/* Writes the hierarchy as DOT (nodes depth first, then the edges), one
 * line at a time through put; -1 when a name cannot be quoted. */
int cpm_hier_write(const struct cpm_hier *h, void (*put)(const char *line, void *ctx), void *ctx);

/* "line N: why" (just "why" for line 0) into err; returns -1. For the
 * hierarchy modules. */
int cpm_hier_fail(char *err, size_t errlen, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The host number of a host name, or CPM_HIER_NONE. */
size_t cpm_hier_find_host(const struct cpm_hier *h, const char *host);
/* Why name cannot be a host name in a hierarchy (empty, blanks, control
 * characters, quotes, backslashes or '*'), or NULL when it can. */
const char *cpm_hier_bad_host(const char *name);

/* The seed's grouping (4.6) of n distinct host names: hosts whose names
 * start with the same prefix share a parent, the prefix being the longest
 * of prefixes[] the name starts with, else its first three characters;
 * those groups hang below one node per domain (the text after the first
 * '.') when there are two domains or more, and all below the root
 * "all hosts". Groups are named "PREFIX*.DOMAIN" ("PREFIX*" without a
 * domain), domains "*.DOMAIN" ("*" for names without one); hosts, groups
 * and domains keep the order in which they first appear. */
void cpm_hier_group(struct cpm_hier *h, const char *const *hosts, size_t n,
                    const char *const *prefixes, size_t nprefixes);
/* The domain of a host name: after its first '.', or "". */
const char *cpm_hier_domain(const char *host);
/* Length of the group prefix of a host name, by the rule above. */
size_t cpm_hier_prefix_len(const char *host, const char *const *prefixes, size_t nprefixes);

#endif
