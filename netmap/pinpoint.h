/*
 * pinpoint: netmap/locate's adaptive part, after the screening rounds: which
 * suspects are confirmed, and how far a slow route reaches. It runs on the
 * printing rank and measures through a callback (one pair alone, every
 * other endpoint waiting), so that the unit tests can run it on a made-up
 * fabric without MPI.
 *
 * Nodes. A node slow with most of its screening partners in one role
 * (sending, receiving, round trips) is measured again, one pair at a time,
 * against `confirmers` nodes that were never slow in the screening (known
 * good), one of each class of distance in turn. It is named when most of
 * those are slow and its own switch's node is not fine with it; when the
 * one of its own switch is fine and others beyond are slow, the fault is
 * past its port and is traced as a route (below); otherwise it is cleared
 * (the screening's slowness was contention or noise).
 *
 * Routes. A slow screening pair whose nodes are not named is measured
 * again alone, twice; slow both times, it is narrowed by single-pair tests: another
 * node of the sender's switch to the receiver, one of the sender's group,
 * one from elsewhere (how far the slowness reaches on the sending side);
 * the sender to another node of the receiver's switch and group (on the
 * receiving side). The two reaches name the element: an uplink of the
 * sender's switch, the downlink to the receiver, the links between two
 * switches or two groups, or the pair's own route. A later slow pair that
 * a finding already covers costs one measurement, not a new search; once
 * PINPOINT_COVER_CHECKS of them were confirmed, none (a link crossed by a
 * thousand slow pairs is one fault, not a thousand rounds).
 *
 * A pair measured alone is judged against pairs of its class measured
 * alone (the screening's references hold the contention of a whole round:
 * on an oversubscribed fabric every pair between switches got half its
 * rate there): the first test of a class measures three pairs of known
 * good nodes of that class alone, and their median is the reference; a
 * figure is slow alone when it is worse than that by more than the rule's
 * fraction. Without two good nodes of a class, the screening's reference
 * serves.
 *
 * Under load (bandwidth). A link wider than one NIC (between two groups of a
 * dragonfly) may be slow for the pairs that crossed it together in a round
 * and fine for each alone. Where one round has three or more slow pairs
 * between the same two groups (or switches of a group), those pairs of
 * the round are measured again all at once, and so are the pairs between
 * two other groups (switches) of that round, whose figures were not slow:
 * the link is named when its bundle is worse than the control bundle by
 * the rule's fraction (two rounds), and its pairs are cleared otherwise.
 *
 * Every measurement counts as an extra round; the search stops at
 * max_probes and says what it left unexamined.
 */
#ifndef COMMSWEEP_NETMAP_PINPOINT_H
#define COMMSWEEP_NETMAP_PINPOINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fabric.h"
#include "judge.h"

/* One pair measured alone: bandwidth from a to b, or the latency of round
 * trips a starts with b. NaN: the measurement failed. */
typedef double (*pinpoint_probe_fn)(void *ctx, int metric, size_t a, size_t b);
/* count disjoint pairs measured at once, a[i] to b[i], into value[i]. */
typedef void (*pinpoint_set_fn)(void *ctx, int metric, const size_t *a, const size_t *b,
                                size_t count, double *value);

#define PINPOINT_MAX_TESTS 8
#define PINPOINT_COVER_CHECKS 2

struct pinpoint_test {
    const char *what; /* "again alone", "another node of the sender's switch" ... */
    size_t a, b;
    uint8_t metric, cls;
    double value;
    double reference; /* the median it was judged against */
    uint8_t ref_kind; /* PINPOINT_REF_*: what that median is of */
    bool slow;
};

/* A named node, a named route, or a suspect node the measurements alone
 * cleared (kept for its evidence). */
/* A test's reference: the screening's class median, the class's pairs
 * measured alone, or a control bundle measured at once. */
enum { PINPOINT_REF_SCREENING, PINPOINT_REF_ALONE, PINPOINT_REF_CONTROL };

enum pinpoint_kind { PINPOINT_NODE, PINPOINT_ROUTE, PINPOINT_CLEARED };

struct pinpoint_finding {
    enum pinpoint_kind kind;
    int metric;
    int role;                 /* PINPOINT_NODE: enum judge_role */
    size_t a, b;              /* the node (a); a route's first slow pair, from a to b */
    enum judge_scope from, to; /* PINPOINT_ROUTE: how far it reaches on each side */
    size_t screened, screened_slow; /* the screening figures it explains, and the slow ones */
    size_t covered;           /* later slow pairs taken as its */
    size_t covered_alone;     /* of those, confirmed alone (PINPOINT_COVER_CHECKS at most) */
    bool under_load;          /* found by a bundle of pairs at once (tests[0] the bundle) */
    bool both_ways;           /* a link found slow in the other direction too */
    size_t bundle;            /* under_load: the pairs measured at once */
    size_t rounds;            /* measurements it took */
    struct pinpoint_test tests[PINPOINT_MAX_TESTS];
    size_t ntests;
};

struct pinpoint {
    /* In: */
    const struct fabric *fabric;
    const struct judge *judge;
    const struct judge_obs *obs;   /* the screening's figures */
    size_t nobs, n;
    size_t confirmers, max_probes;
    uint64_t seed;
    pinpoint_probe_fn probe;
    pinpoint_set_fn probe_set;     /* NULL: no tests under load */
    void *ctx;
    /* Out: */
    struct judge_tally *tally;     /* n * JUDGE_NROLES, the screening's */
    struct judge_ref alone[JUDGE_NMETRICS][FABRIC_NCLASSES]; /* count 0: not measured */
    bool calibrated[JUDGE_NMETRICS][FABRIC_NCLASSES];
    size_t calibration;            /* of the probes, those for the references */
    bool *named;                   /* n * JUDGE_NROLES: the node is named in that role */
    struct pinpoint_finding *findings;
    size_t nfindings;
    size_t probes;                 /* measurements made */
    size_t suspects, cleared_nodes; /* node suspects (node and role), cleared */
    size_t slow_pairs, cleared_pairs, unexamined; /* route suspects, cleared, left */
};

/* Runs the search. Returns 0, or -1 when out of memory. */
int pinpoint_run(struct pinpoint *l);
void pinpoint_free(struct pinpoint *l);

/* Whether finding f covers the pair from a to b in metric: a named node in
 * the role the pair uses; an uplink of a switch (or group), every pair
 * leaving it; the downlink of a switch to a node, every pair entering that
 * switch; other
 * routes, the pairs whose ends lie in their reaches. */
bool pinpoint_covers(const struct pinpoint *l, const struct pinpoint_finding *f, int metric, size_t a,
                   size_t b);

#endif
