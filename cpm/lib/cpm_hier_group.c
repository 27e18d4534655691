/* cpm_hier_group: the seed's grouping of host names into a hierarchy (4.6);
 * see cpm_hier.h. */
#include "cpm_hier.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"

const char *cpm_hier_domain(const char *host)
{
    const char *dot = strchr(host, '.');
    return dot ? dot + 1 : "";
}

size_t cpm_hier_prefix_len(const char *host, const char *const *prefixes, size_t nprefixes)
{
    size_t best = 0;
    for (size_t k = 0; k < nprefixes; k++) {
        size_t len = strlen(prefixes[k]);
        if (len > best && strncmp(host, prefixes[k], len) == 0)
            best = len;
    }
    if (best > 0)
        return best;
    size_t len = strcspn(host, ".");
    return len < 3 ? len : 3;
}

/* The node of that name, or CPM_HIER_NONE (the names of hosts, groups and
 * domains cannot meet: only groups and domains hold '*', and the root a
 * blank). */
static size_t find_node(const struct cpm_hier *h, const char *name)
{
    for (size_t k = 0; k < h->nnodes; k++)
        if (strcmp(h->nodes[k].name, name) == 0)
            return k;
    return CPM_HIER_NONE;
}

static char *joined(const char *a, size_t alen, const char *b, const char *c)
{
    size_t len = alen + strlen(b) + strlen(c) + 1;
    char *s = malloc(len);
    if (!s)
        err_fatal("out of memory for a hierarchy");
    snprintf(s, len, "%.*s%s%s", (int)alen, a, b, c);
    return s;
}

/* The group node of a host under parent, made when new. */
static size_t group_of(struct cpm_hier *h, size_t parent, const char *host,
                       const char *const *prefixes, size_t nprefixes)
{
    const char *domain = cpm_hier_domain(host);
    char *name =
        joined(host, cpm_hier_prefix_len(host, prefixes, nprefixes), *domain ? "*." : "*", domain);
    size_t g = find_node(h, name);
    if (g == CPM_HIER_NONE) {
        char err[200];
        g = cpm_hier_add(h, name, false, "", 0);
        if (cpm_hier_edge(h, parent, g, 0, err, sizeof err) != 0)
            err_fatal("%s", err); /* a fresh node under a group: cannot happen */
    }
    free(name);
    return g;
}

void cpm_hier_group(struct cpm_hier *h, const char *const *hosts, size_t n,
                    const char *const *prefixes, size_t nprefixes)
{
    char err[200];
    cpm_hier_init(h);
    size_t root = cpm_hier_add(h, "all hosts", false, "", 0);
    bool domains = false;
    for (size_t i = 1; i < n && !domains; i++)
        domains = strcmp(cpm_hier_domain(hosts[i]), cpm_hier_domain(hosts[0])) != 0;
    for (size_t i = 0; i < n; i++) {
        size_t parent = root;
        if (domains) {
            const char *d = cpm_hier_domain(hosts[i]);
            char *name = joined("*", 1, *d ? "." : "", d);
            parent = find_node(h, name);
            if (parent == CPM_HIER_NONE) {
                parent = cpm_hier_add(h, name, false, "", 0);
                if (cpm_hier_edge(h, root, parent, 0, err, sizeof err) != 0)
                    err_fatal("%s", err);
            }
            free(name);
        }
        size_t group = group_of(h, parent, hosts[i], prefixes, nprefixes);
        size_t leaf = cpm_hier_add(h, hosts[i], true, hosts[i], 0);
        if (cpm_hier_edge(h, group, leaf, 0, err, sizeof err) != 0)
            err_fatal("%s", err);
    }
    if (cpm_hier_finish(h, err, sizeof err) != 0)
        err_fatal("grouping hosts: %s", err); /* the hosts were not distinct */
}
