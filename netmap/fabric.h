/*
 * fabric: where each endpoint sits in the network, so that a figure is
 * judged against pairs at the same distance (a pair one switch further
 * away is slower without being faulty). Pure parsing, no MPI: the printing
 * rank parses the file and sends the switch and group numbers on.
 *
 * A topology file is one of:
 *  - lines "HOST SWITCH [GROUP]" ('#' starts a comment): the leaf switch
 *    (or router) of each node and its group (a dragonfly group, a fat
 *    tree's pod; without one, every switch is a group of its own);
 *  - Slurm's topology.conf (tree plugin): "SwitchName=S Nodes=HOSTLIST"
 *    places nodes on leaf S, and "SwitchName=P Switches=LIST" makes P the
 *    group of the switches it lists (the first that lists a switch).
 *    Host lists are Slurm's: "node[0-3,7],gpu[01-04]".
 * A host matches its name or its name up to the first '.'; "@E" names
 * endpoint E (a job on one machine, --nodes-by-block).
 *
 * The class of a pair: same switch, same group (other switch), across
 * groups, or unknown (an endpoint the file does not place, or no file).
 */
#ifndef COMMSWEEP_NETMAP_FABRIC_H
#define COMMSWEEP_NETMAP_FABRIC_H

#include <stdbool.h>
#include <stddef.h>

#define FABRIC_NAME_LEN 64

enum fabric_class {
    FABRIC_SAME_SWITCH,
    FABRIC_SAME_GROUP,
    FABRIC_ACROSS_GROUPS,
    FABRIC_UNKNOWN,
    FABRIC_NCLASSES
};
extern const char *const fabric_class_names[FABRIC_NCLASSES];

struct fabric {
    size_t n;          /* endpoints */
    int *sw, *group;   /* per endpoint: switch and group number, -1 unplaced */
    size_t nswitches, ngroups;
    char (*switch_names)[FABRIC_NAME_LEN]; /* on the parsing rank only */
    char (*group_names)[FABRIC_NAME_LEN];
    size_t placed;     /* endpoints the file placed */
};

/* Parses text (a whole topology file) for the n endpoints whose host names
 * are hosts[0..n). Returns 0, or -1 with a one-line reason in err (a
 * malformed line with its number, a host list that does not parse, out of
 * memory). Endpoints the file does not name stay unplaced. */
int fabric_parse(const char *text, const char *const *hosts, size_t n, struct fabric *f,
                 char *err, size_t errlen);

/* The topology in the host names themselves, where they are HPE Cray
 * xnames (x1000c3s5b0n1: cabinet 1000, chassis 3, slot 5, board 0, node
 * 1): the cabinet is the group (a dragonfly group of Slingshot), the
 * chassis the switch (its nodes' NICs reach the switches of their own
 * chassis; which of them is not in the name). Other names stay unplaced;
 * none that is an xname: -1 with the reason in err. */
int fabric_from_xnames(const char *const *hosts, size_t n, struct fabric *f, char *err,
                       size_t errlen);

/* Every endpoint unplaced: pairs all of one class (no topology given). */
int fabric_none(size_t n, struct fabric *f);

/* Numbers only (the other ranks): sw and group of n endpoints, to be filled. */
int fabric_alloc(size_t n, struct fabric *f);

enum fabric_class fabric_class_of(const struct fabric *f, size_t a, size_t b);

void fabric_free(struct fabric *f);

/* Expands a Slurm host list; calls add(name, arg) for each host in order.
 * Returns 0, or -1 on a malformed list or when add returns non-zero. */
int fabric_hostlist(const char *list, int (*add)(const char *name, void *arg), void *arg);

#endif
