/*
 * culprit: turns a network map (one figure per ordered node pair) into
 * findings: the nodes that send or receive worse than the rest, and the
 * links that are worse than the rest although neither of their nodes is.
 * Pure arithmetic, no MPI; the findings it returns are the caller's to
 * release with culprit_free.
 *
 * The matrix: n x n doubles, row-major; m[i * n + j] is the figure from
 * node i (the sender, or the initiator of a round trip) to node j. The
 * diagonal is ignored and NaN means not measured.
 *
 * The rule, with k = rule.mads and f = rule.min_worse:
 *  - Node medians: the send median of node i is the median of row i's
 *    measured off-diagonal entries, the receive median of node j that of
 *    column j's. A node with no entry in a direction is not judged in it.
 *  - Over the judged nodes' medians in one direction: M is their median and
 *    MAD the median of |x - M| (not scaled). A node is named in that
 *    direction when its median x is worse than M by more than k MADs and by
 *    more than the fraction f of M:
 *      higher better: x < M - k * MAD and x < (1 - f) * M;
 *      lower better:  x > M + k * MAD and x > (1 + f) * M.
 *    With all medians equal (MAD 0) nothing is named; with MAD 0 and one
 *    node 50% worse, that node is named (the fraction alone decides then).
 *  - A direction needs at least CULPRIT_MIN_JUDGED (4) nodes with figures,
 *    or it is not judged (a reason is given): with 2 or 3 nodes a median
 *    rests on one or two pairs. A direction not judged names nobody.
 *  - Pairs: over the measured entries (i, j), i != j, where neither i nor j
 *    was named (in either direction), M and MAD of those entries; an entry
 *    is named by the same rule. A pair whose node is named is never named
 *    itself: the node explains it. At least CULPRIT_MIN_JUDGED such entries
 *    are needed, or pairs are not judged.
 *  - How much worse, in percent: 100 (M - x) / M for higher better,
 *    100 (x - M) / M for lower better.
 *  - Order: nodes by index, the sender before the receiver; pairs by from,
 *    then to. The same matrix always gives the same findings.
 *
 * With classes of pairs (culprit_find_classed: same switch, same group,
 * across groups...), a pair one switch further away is not worse for that:
 * every entry is first divided by the median of its class's entries, and
 * the rule above runs on those ratios (a node's median is its median
 * ratio; M, MAD and the pairs' figures are ratios too). On a fabric without
 * noise, where each class's entries are all equal, every ratio is 1 and
 * nothing is named.
 */
#ifndef COMMSWEEP_NETMAP_CULPRIT_H
#define COMMSWEEP_NETMAP_CULPRIT_H

#include <stdbool.h>
#include <stddef.h>

#define CULPRIT_MIN_JUDGED 4

/* Which way is better: bandwidth (higher) or latency (lower). */
enum culprit_sense { CULPRIT_HIGHER_BETTER, CULPRIT_LOWER_BETTER };

/* A node as sender (its row) or as receiver (its column). */
enum culprit_dir { CULPRIT_SEND, CULPRIT_RECV, CULPRIT_NDIRS };
extern const char *const culprit_dir_names[CULPRIT_NDIRS]; /* "sender", "receiver" */

struct culprit_rule {
    double mads;      /* k: how many MADs worse than M; >= 0 */
    double min_worse; /* f: worse by more than this fraction of M; in [0, 1) */
};
/* k = 3, f = 0.10. */
extern const struct culprit_rule culprit_default_rule;

/* The rule for one figure x against M = ref and MAD = mad: whether x is
 * worse by more than rule->mads MADs and the fraction rule->min_worse. */
bool culprit_is_worse(double x, double ref, double mad, enum culprit_sense sense,
                      const struct culprit_rule *rule);
/* How much worse than ref x is, in percent (negative: better). */
double culprit_worse_pct(double x, double ref, enum culprit_sense sense);

/* One node in one direction, over its measured off-diagonal entries.
 * count 0: no figure, and min, median and max are NaN. */
struct culprit_node_stats {
    size_t count;
    double min, median, max;
};

/* Returns 0, or -1 with errno ENOMEM (out of memory) or EINVAL (node not
 * below n, m NULL, or n * n beyond size_t). */
int culprit_node_stats(const double *m, size_t n, size_t node, enum culprit_dir dir,
                       struct culprit_node_stats *s);

struct culprit_node {
    size_t node;
    enum culprit_dir dir;
    double median;    /* this node's median in dir */
    double ref, mad;  /* M and MAD of all judged nodes' medians in dir */
    double worse_pct; /* how much worse than M, in percent */
};

struct culprit_pair {
    size_t from, to;
    double value;
    double ref, mad;  /* M and MAD of the entries between nodes not named */
    double worse_pct;
};

/* Whether a group (the nodes in one direction, or the pairs) was judged,
 * over how many figures, and against what. */
struct culprit_verdict {
    bool judged;
    const char *why_not; /* a static phrase when not judged; NULL otherwise */
    size_t count;        /* nodes with figures, or entries weighed */
    double ref, mad;     /* M and MAD; NaN when not judged */
};

#define CULPRIT_MAX_CLASSES 8

struct culprit_findings {
    bool classed;         /* figures are ratios to their class's median */
    size_t nclasses;
    double class_ref[CULPRIT_MAX_CLASSES]; /* each class's median (NaN: no entry) */
    size_t class_count[CULPRIT_MAX_CLASSES];
    struct culprit_verdict node_verdict[CULPRIT_NDIRS];
    struct culprit_verdict pair_verdict;
    struct culprit_node *nodes; /* n_nodes of them, NULL when none */
    size_t n_nodes;
    struct culprit_pair *pairs; /* n_pairs of them, NULL when none */
    size_t n_pairs;
};

/* Applies the rule above to the n x n matrix m. rule NULL: the default.
 * Returns 0 with f filled, or -1 with f empty and errno ENOMEM (out of
 * memory) or EINVAL (m NULL with n > 0, n * n beyond size_t, or a rule
 * outside the bounds above). f may be released by culprit_free either way. */
int culprit_find(const double *m, size_t n, enum culprit_sense sense,
                 const struct culprit_rule *rule, struct culprit_findings *f);

/* The class of the pair (a, b), below nclasses. */
typedef unsigned (*culprit_class_fn)(size_t a, size_t b, const void *ctx);

/* culprit_find on the ratios of each entry to its class's median; nclasses
 * at most CULPRIT_MAX_CLASSES. Returns as culprit_find. */
int culprit_find_classed(const double *m, size_t n, enum culprit_sense sense,
                         const struct culprit_rule *rule, culprit_class_fn class_of,
                         const void *ctx, size_t nclasses, struct culprit_findings *f);

void culprit_free(struct culprit_findings *f);

#endif
