/*
 * cpm_hier_plan: which links a hierarchical model measures, and which
 * measured link stands for each pair of hosts. It owns the plan; the
 * hierarchy is cpm_hier's.
 *
 * At every group, the hosts directly below it form one part ("its own
 * hosts") and every subgroup another. One link between two of its own hosts
 * stands for every pair of them (the within link), and one link between a
 * host of each of two parts stands for every pair across those parts (a
 * between link). A pair of hosts is thus measured at the lowest group that
 * holds both. A part is represented by its first host (depth first) that
 * the run can reach, so the same few hosts serve every level.
 */
#ifndef COMMSWEEP_CPM_HIER_PLAN_H
#define COMMSWEEP_CPM_HIER_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "cpm_hier.h"

struct cpm_hier_link {
    size_t a, b;  /* the hosts measured, a < b */
    size_t group; /* the node whose pairs it stands for */
    bool within;  /* between two of the group's own hosts */
    size_t pairs; /* host pairs it stands for */
};

/* Per group: its parts and their links. */
struct cpm_hier_parts {
    size_t nparts;   /* own hosts (when any) first, then each subgroup */
    bool own;        /* whether part 0 is the group's own hosts */
    size_t within;   /* link index, or CPM_HIER_NONE */
    size_t *between; /* nparts x nparts link indices (CPM_HIER_NONE on the diagonal) */
};

struct cpm_hier_plan {
    struct cpm_hier_link *links; /* groups depth first; within, then between */
    size_t nlinks;
    struct cpm_hier_parts *parts; /* per node (empty for leaves) */
    size_t *part_of;              /* per node: its part in its parent */
    size_t nnodes;
};

/* The plan for h. reachable[host] says which hosts the run has a process
 * on (NULL: all). 0, or -1 with a message naming the group whose links no
 * reachable host can measure. */
int cpm_hier_plan_make(const struct cpm_hier *h, const bool *reachable, struct cpm_hier_plan *p,
                       char *err, size_t errlen);
void cpm_hier_plan_free(struct cpm_hier_plan *p);
/* The link that stands for hosts i != j. */
size_t cpm_hier_plan_link(const struct cpm_hier *h, const struct cpm_hier_plan *p, size_t i,
                          size_t j);
/* The distinct hosts the links measure, ascending, into hosts (room for
 * every host); returns how many. */
size_t cpm_hier_plan_hosts(const struct cpm_hier *h, const struct cpm_hier_plan *p, size_t *hosts);

#endif
