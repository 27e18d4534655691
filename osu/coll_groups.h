/*
 * coll_groups: where the collective benchmarks run when not on the whole
 * world at once: in concurrent groups (--groups=SPEC, IMB's -multi) or on
 * a ladder of the first 2, 4, 8, ... ranks in turn (--np-ladder, IMB's
 * -npmin). It owns the reading of SPEC, the node of each rank (ranks that
 * share memory, or --nodes-by-block's blocks), the communicators of a
 * layout and the '#' lines that say which ranks and hosts each one holds.
 * The sweep itself stays in coll_driver.c.
 *
 * The rules (pure, unit tested): node: one group per node; cross: local
 * rank l of every node in group l; N: groups of N consecutive ranks (the
 * last may be smaller); stride:N: N groups, group g holding the ranks g,
 * g + N, g + 2N, ... (nccl-tests' and IMB's stride). Groups are numbered
 * in the order of their lowest rank.
 */
#ifndef COMMSWEEP_OSU_COLL_GROUPS_H
#define COMMSWEEP_OSU_COLL_GROUPS_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

#include "opt.h"

enum coll_groups_kind {
    COLL_GROUPS_NONE,
    COLL_GROUPS_NODE,
    COLL_GROUPS_CROSS,
    COLL_GROUPS_BLOCK,
    COLL_GROUPS_STRIDE
};

struct coll_groups_spec {
    enum coll_groups_kind kind;
    size_t n; /* BLOCK and STRIDE */
};

/* The --groups option (its parser below) into spec, --nodes-by-block into
 * block and --np-ladder into ladder: COLL_GROUPS_NOPTIONS specs, for the
 * programs that take them. */
#define COLL_GROUPS_NOPTIONS 3
void coll_groups_options(struct opt_spec *out, struct coll_groups_spec *spec, size_t *block,
                         bool *ladder);
/* What every run in groups or on a ladder refuses, with status 2 (every
 * rank reads the same options): --nodes-by-block without --groups=node or
 * cross, --groups with --np-ladder, --samples. Returns the option in
 * force, "--groups" or "--np-ladder", or NULL for neither. */
const char *coll_groups_check_options(const struct coll_groups_spec *spec, size_t block,
                                      bool ladder);
/* The --groups parser (opt_custom_fn): dest is a struct coll_groups_spec. */
int coll_groups_parse(const char *arg, void *dest, char *err, size_t errlen);
/* "node", "cross", "4", "stride:4" into text. */
void coll_groups_name(const struct coll_groups_spec *s, char *text, size_t len);

/* The group key of world rank r of size ranks, on node node as its local
 * rank local (node and cross only read them): equal keys share a group. */
int coll_groups_key(const struct coll_groups_spec *s, int r, int node, int local);

/* Node and local rank of every rank from the lowest rank of each one's
 * node (leader[r]): nodes numbered in the order of their lowest rank,
 * local ranks in rank order. */
void coll_groups_nodes(const int *leader, int size, int *node_of, int *local_of);

/* The rank counts of the ladder: 2, 4, 8, ... below size, then size (1 at
 * one rank). Returns how many (at most cap). */
size_t coll_groups_ladder(int size, int *counts, size_t cap);

/* Ranks as ranges, "0-3", "0,2,4,6", "0-1,4-5" (ranks ascending). */
void coll_groups_ranks_text(const int *ranks, size_t n, char *text, size_t len);

/* A layout: the communicators that run at once. */
struct coll_layout {
    int nsets;        /* groups (one for a ladder step) */
    int *set_of;      /* per world rank: its group, -1 outside every group */
    int *set_size;    /* per group: its ranks */
    int *root_of;     /* per group: its lowest world rank (its rank 0) */
    int world_size;
    MPI_Comm comm;    /* this rank's group, MPI_COMM_NULL outside */
};

/* Collective over world: the groups of spec, nodes by shared memory or,
 * with block > 0, blocks of block consecutive ranks. N or stride:N larger
 * than the world ends the run with status 2 (fewer groups than asked, or
 * one group of all). */
void coll_layout_groups(MPI_Comm world, const struct coll_groups_spec *spec, size_t block,
                        struct coll_layout *l);
/* Collective over world: one group of its first count ranks. */
void coll_layout_first(MPI_Comm world, int count, struct coll_layout *l);
/* Rank 0 of world prints "# <label>: N ranks (world ranks ...)" and
 * "# <label> hosts: h1 (2), h2 (2)" for group set (the host names are
 * gathered by the calls above). Local. */
void coll_layout_describe(const struct coll_layout *l, int set, const char *label);
void coll_layout_free(struct coll_layout *l);

#endif
