/*
 * judge: netmap/locate's arithmetic, without MPI, so the unit tests can
 * check it: each measurement against the references of its class of
 * distance (same switch, same group, across groups), the tallies that make
 * a node a suspect, and the places a slow route can be narrowed to.
 *
 * A measurement is one pair's figure in one round: bandwidth from a to b
 * (MB/s, higher better) or the latency between a and b (us, lower better).
 * The reference of a class is the median and MAD of that class's figures
 * in the screening; a figure is slow when it is worse than its class's
 * median by more than k MADs and by more than the fraction f (culprit.h's
 * rule, per class): on a fabric without noise (MAD 0) the fraction alone
 * decides, and a pair is never slow for being further away.
 */
#ifndef COMMSWEEP_NETMAP_JUDGE_H
#define COMMSWEEP_NETMAP_JUDGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "culprit.h"
#include "fabric.h"

enum judge_metric { JUDGE_BANDWIDTH, JUDGE_LATENCY, JUDGE_NMETRICS };
extern const char *const judge_metric_names[JUDGE_NMETRICS]; /* "bandwidth", "latency" */
extern const char *const judge_metric_units[JUDGE_NMETRICS]; /* "MB/s", "us" */

struct judge_obs {
    uint32_t a, b;      /* bandwidth: from a to b; latency: a started the round trips */
    uint8_t metric;     /* enum judge_metric */
    uint8_t cls;        /* enum fabric_class of (a, b) */
    uint32_t round;     /* the screening round (0-based) */
    double value;
};

struct judge_ref {
    size_t count;       /* figures of the class; 0: no reference */
    double median, mad;
};

struct judge {
    struct culprit_rule rule;
    struct judge_ref ref[JUDGE_NMETRICS][FABRIC_NCLASSES];
};

/* The references of every metric and class over the screening's figures
 * (NaN values are left out). Returns 0, or -1 when out of memory. */
int judge_references(struct judge *j, const struct judge_obs *obs, size_t n);

/* Whether value is slow for its metric and class; false where the class
 * has no reference. */
bool judge_slow(const struct judge *j, int metric, int cls, double value);
/* How much worse than its class's median, in percent (NaN: no reference). */
double judge_worse_pct(const struct judge *j, int metric, int cls, double value);

/* A node's roles: sending bandwidth, receiving it, in round trips. */
enum judge_role { JUDGE_SEND, JUDGE_RECV, JUDGE_ROUND_TRIP, JUDGE_NROLES };
extern const char *const judge_role_names[JUDGE_NROLES]; /* "sender", "receiver", "round trips" */

struct judge_tally {
    uint32_t count, slow;                  /* all its figures in the role */
    uint32_t class_count[FABRIC_NCLASSES]; /* and by class of distance */
    uint32_t class_slow[FABRIC_NCLASSES];
};

/* Counts, for each of nodes endpoints and role, its figures and the slow
 * ones; tally has nodes * JUDGE_NROLES entries (node * JUDGE_NROLES + role). */
void judge_tally(const struct judge *j, const struct judge_obs *obs, size_t n, size_t nodes,
                 struct judge_tally *tally);

/* A suspect: slow with most of its partners in that role (more than half of
 * at least 3 figures), or with most of those of one class (at least 2): a
 * slow NIC may hide among pairs that share a congested uplink, whose
 * reference is as slow, and show only in its own switch. */
bool judge_suspect(const struct judge_tally *t);

/* How far a slow route reaches on each side, from the single-pair tests:
 * only the node itself, the others of its switch, of its group, or every
 * node (the far side alone explains it). */
enum judge_scope { JUDGE_NODE, JUDGE_SWITCH, JUDGE_GROUP, JUDGE_ANY, JUDGE_NSCOPES };
extern const char *const judge_scope_names[JUDGE_NSCOPES]; /* "node", "switch", "group", "any" */

/* What a slow route reaching from scope `from` (around sender a) to scope
 * `to` (around receiver b) most likely is: an uplink of a's switch (its
 * other senders are slow to b, the rest of the fabric is not), a downlink
 * of b's switch (everyone is slow to b, a is not slow to b's neighbours),
 * an uplink out of a's group (its group is slow to b, the rest is not),
 * the links between two switches or two groups, the pair's own route, or
 * links somewhere between the two reaches. */
enum judge_element {
    JUDGE_UPLINK, JUDGE_GROUP_UPLINK, JUDGE_DOWNLINK, JUDGE_SWITCH_LINKS, JUDGE_GROUP_LINKS,
    JUDGE_PAIR_ROUTE, JUDGE_LINKS, JUDGE_NELEMENTS
};
/* "uplink", "group-uplink", "downlink", "switch-links", "group-links",
 * "route", "links" */
extern const char *const judge_element_names[JUDGE_NELEMENTS];
enum judge_element judge_element_of(enum judge_scope from, enum judge_scope to);

#endif
