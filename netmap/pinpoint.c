/* pinpoint: confirming suspects and narrowing slow routes; see pinpoint.h. */
#include "pinpoint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "stats.h"

static size_t slot(size_t node, int role)
{
    return node * JUDGE_NROLES + (size_t)role;
}

/* Never slow in the screening (tier 0), or at least not a suspect nor
 * named (tier 1): the partners a suspect is measured against. */
static bool good_at(const struct pinpoint *l, size_t e, int tier)
{
    bool measured = false;
    for (int r = 0; r < JUDGE_NROLES; r++) {
        const struct judge_tally *t = &l->tally[slot(e, r)];
        measured |= t->count > 0;
        if (l->named[slot(e, r)] || (tier == 0 ? t->slow > 0 : judge_suspect(t)))
            return false;
    }
    return measured;
}

/* Which partners a test may take. */
struct want {
    int cls;               /* class to x, or -1: any */
    const size_t *avoid;   /* nodes it must not be */
    size_t navoid;
    int sw_not[2];         /* switches it must not be on (-1: none) */
    int group_not[2];      /* groups it must not be in (-1: none) */
};

static bool fits(const struct pinpoint *l, size_t x, size_t g, const struct want *w)
{
    if (g == x)
        return false;
    for (size_t i = 0; i < w->navoid; i++)
        if (g == w->avoid[i])
            return false;
    const struct fabric *f = l->fabric;
    if (w->cls >= 0 && (int)fabric_class_of(f, x, g) != w->cls)
        return false;
    for (int i = 0; i < 2; i++)
        if (w->sw_not[i] >= 0 && f->sw[g] == w->sw_not[i])
            return false;
    for (int i = 0; i < 2; i++)
        if (w->group_not[i] >= 0 && f->group[g] == w->group_not[i])
            return false;
    return true;
}

/* A partner for x as w asks, drawn from the seed; SIZE_MAX: none. A
 * suspect is measured against nodes never slow (tier 0) where there are
 * some; a route's tests take any node not suspect (tier 1): the receivers
 * that share a slow uplink were slow in the screening too, and leaving
 * them out would hide the uplink. */
static size_t pick_from(const struct pinpoint *l, size_t x, const struct want *w, uint64_t salt,
                        int first_tier)
{
    size_t n = l->n, start = (size_t)(plan_hash(l->seed ^ plan_hash(x * 131 + salt)) % (n ? n : 1));
    for (int tier = first_tier; tier < 2; tier++)
        for (size_t k = 0; k < n; k++) {
            size_t g = (start + k) % n;
            if (good_at(l, g, tier) && fits(l, x, g, w))
                return g;
        }
    return SIZE_MAX;
}

static size_t pick(const struct pinpoint *l, size_t x, const struct want *w, uint64_t salt)
{
    return pick_from(l, x, w, salt, 1);
}

static size_t pick_good(const struct pinpoint *l, size_t x, const struct want *w, uint64_t salt)
{
    return pick_from(l, x, w, salt, 0);
}

static bool can_probe(const struct pinpoint *l)
{
    return l->probes < l->max_probes;
}

/* The reference of pairs of a class measured alone: the median of three
 * pairs of good nodes, measured once (pinpoint.h). */
static const struct judge_ref *alone_reference(struct pinpoint *l, int metric, int cls)
{
    struct judge_ref *r = &l->alone[metric][cls];
    if (l->calibrated[metric][cls])
        return r->count ? r : NULL;
    l->calibrated[metric][cls] = true;
    double v[3];
    size_t k = 0, used[6];
    for (size_t tries = 0; k < 3 && tries < 12 && can_probe(l); tries++) {
        struct want any = {-1, used, 2 * k, {-1, -1}, {-1, -1}};
        size_t a = pick_good(l, SIZE_MAX - tries, &any, 31 + tries);
        if (a == SIZE_MAX)
            break;
        used[2 * k] = a;
        struct want w = {cls, used, 2 * k + 1, {-1, -1}, {-1, -1}};
        size_t b = pick_good(l, a, &w, 41 + tries);
        if (b == SIZE_MAX)
            continue;
        used[2 * k + 1] = b;
        double x = l->probe(l->ctx, metric, a, b);
        l->probes++;
        l->calibration++;
        if (!isnan(x))
            v[k++] = x;
    }
    if (k == 0)
        return NULL;
    /* The median of up to three, by hand. */
    double lo = v[0], hi = v[0], sum = 0;
    for (size_t i = 0; i < k; i++) {
        lo = v[i] < lo ? v[i] : lo;
        hi = v[i] > hi ? v[i] : hi;
        sum += v[i];
    }
    *r = (struct judge_ref){k, k == 3 ? sum - lo - hi : k == 2 ? sum / 2 : v[0], 0};
    return r;
}

/* Measures one pair alone, judges it against its class alone, and records
 * it as a test of f. */
static bool test(struct pinpoint *l, struct pinpoint_finding *f, const char *what, int metric,
                 size_t a, size_t b)
{
    int cls = (int)fabric_class_of(l->fabric, a, b);
    const struct judge_ref *ref = alone_reference(l, metric, cls);
    double v = l->probe(l->ctx, metric, a, b);
    l->probes++;
    f->rounds++;
    bool slow;
    double median;
    if (ref) {
        struct culprit_rule fraction_only = {0, l->judge->rule.min_worse};
        enum culprit_sense sense = metric == JUDGE_BANDWIDTH ? CULPRIT_HIGHER_BETTER
                                                             : CULPRIT_LOWER_BETTER;
        slow = !isnan(v) && culprit_is_worse(v, ref->median, 0, sense, &fraction_only);
        median = ref->median;
    } else {
        slow = judge_slow(l->judge, metric, cls, v);
        median = l->judge->ref[metric][cls].median;
    }
    if (f->ntests < PINPOINT_MAX_TESTS)
        f->tests[f->ntests++] = (struct pinpoint_test){what, a, b, (uint8_t)metric, (uint8_t)cls, v,
                                                       median, ref ? PINPOINT_REF_ALONE : PINPOINT_REF_SCREENING, slow};
    return slow;
}

static struct pinpoint_finding *add_finding(struct pinpoint *l, const struct pinpoint_finding *f)
{
    struct pinpoint_finding *more = realloc(l->findings, (l->nfindings + 1) * sizeof *more);
    if (!more)
        return NULL;
    l->findings = more;
    more[l->nfindings] = *f;
    return &more[l->nfindings++];
}

static bool in_reach(const struct fabric *fab, enum judge_scope s, size_t ref, size_t x)
{
    switch (s) {
    case JUDGE_NODE:
        return x == ref;
    case JUDGE_SWITCH:
        return fab->sw[ref] >= 0 && fab->sw[x] == fab->sw[ref];
    case JUDGE_GROUP:
        return fab->group[ref] >= 0 && fab->group[x] == fab->group[ref];
    default:
        return true;
    }
}

bool pinpoint_covers(const struct pinpoint *l, const struct pinpoint_finding *f, int metric, size_t a,
                   size_t b)
{
    if (f->metric != metric || f->kind == PINPOINT_CLEARED)
        return false;
    if (f->kind == PINPOINT_NODE)
        return f->role == JUDGE_SEND       ? a == f->a
               : f->role == JUDGE_RECV     ? b == f->a
                                           : a == f->a || b == f->a;
    const struct fabric *fab = l->fabric;
    /* An uplink (or a downlink) of a switch carries only some of its
     * receivers' (senders') traffic: which, the routing decides. Every pair
     * leaving (entering) the switch may be its. */
    if (f->to == JUDGE_NODE && (f->from == JUDGE_SWITCH || f->from == JUDGE_GROUP))
        return in_reach(fab, f->from, f->a, a) && !in_reach(fab, f->from, f->a, b);
    if (f->to == JUDGE_NODE && f->from == JUDGE_ANY)
        return in_reach(fab, JUDGE_SWITCH, f->b, b) && !in_reach(fab, JUDGE_SWITCH, f->b, a);
    return in_reach(fab, f->from, f->a, a) && in_reach(fab, f->to, f->b, b);
}

/* ---------------------------------------------------------------- nodes */

/* The pair a role measures between suspect x and partner g. */
static void oriented(int role, size_t x, size_t g, size_t *a, size_t *b)
{
    *a = role == JUDGE_RECV ? g : x;
    *b = role == JUDGE_RECV ? x : g;
}

static int metric_of(int role)
{
    return role == JUDGE_ROUND_TRIP ? JUDGE_LATENCY : JUDGE_BANDWIDTH;
}

/* A queue of route suspects: pairs to measure alone. */
struct pairs {
    struct judge_obs *p;
    size_t n, cap;
};

static int push(struct pairs *q, size_t a, size_t b, int metric, uint32_t round, double value)
{
    if (q->n == q->cap) {
        size_t cap = q->cap ? 2 * q->cap : 16;
        struct judge_obs *more = realloc(q->p, cap * sizeof *more);
        if (!more)
            return -1;
        q->p = more;
        q->cap = cap;
    }
    q->p[q->n++] = (struct judge_obs){(uint32_t)a, (uint32_t)b, (uint8_t)metric, 0, round,
                                      value};
    return 0;
}

/* Confirms suspect x in role against known good nodes, one class after
 * another. Returns -1 when out of memory. */
static int confirm_node(struct pinpoint *l, size_t x, int role, struct pairs *routes)
{
    static const char *const what[FABRIC_NCLASSES] = {
        "a good node of its switch", "a good node of its group", "a good node of another group",
        "a good node"};
    struct pinpoint_finding f = {.kind = PINPOINT_NODE, .metric = metric_of(role), .role = role,
                               .a = x, .b = x};
    size_t chosen[PINPOINT_MAX_TESTS];
    size_t nchosen = 0, slow = 0, slow_beyond = 0, near_ok = 0;
    for (size_t k = 0; nchosen < l->confirmers && k < 4 * l->confirmers + FABRIC_NCLASSES; k++) {
        int cls = (int)(k % FABRIC_NCLASSES);
        struct want w = {cls, chosen, nchosen, {-1, -1}, {-1, -1}};
        size_t g = pick_good(l, x, &w, k);
        if (g == SIZE_MAX || !can_probe(l))
            continue;
        chosen[nchosen++] = g;
        size_t a, b;
        oriented(role, x, g, &a, &b);
        bool s = test(l, &f, what[cls], f.metric, a, b);
        slow += s;
        if (cls == FABRIC_SAME_SWITCH)
            near_ok += !s;
        else
            slow_beyond += s;
    }
    /* Fine with a node of its own switch: not the node's NIC or port,
     * whatever the others say (its traffic beyond is traced below). */
    if (nchosen > 0 && 2 * slow > nchosen && near_ok == 0) {
        l->named[slot(x, role)] = true;
        return add_finding(l, &f) ? 0 : -1;
    }
    l->cleared_nodes++;
    f.kind = PINPOINT_CLEARED;
    f.screened = l->tally[slot(x, role)].count;
    f.screened_slow = l->tally[slot(x, role)].slow;
    if (!add_finding(l, &f))
        return -1;
    /* Fine on its own switch, slow beyond it: past the node's port. */
    if (near_ok > 0 && slow_beyond > 0)
        for (size_t i = 0; i < f.ntests; i++)
            if (f.tests[i].slow && push(routes, f.tests[i].a, f.tests[i].b, f.metric, UINT32_MAX,
                                        f.tests[i].value))
                return -1;
    return 0;
}

/* ---------------------------------------------------------------- routes */

/* How far the slowness of a -> b reaches on the sending side. */
static enum judge_scope reach_from(struct pinpoint *l, struct pinpoint_finding *f, size_t a, size_t b)
{
    const struct fabric *fab = l->fabric;
    size_t avoid[2] = {a, b};
    struct want same_switch = {FABRIC_SAME_SWITCH, avoid, 2, {-1, -1}, {-1, -1}};
    size_t a1 = pick(l, a, &same_switch, 11);
    if (a1 != SIZE_MAX && can_probe(l) &&
        !test(l, f, "another node of the sender's switch to the receiver", f->metric, a1, b))
        return JUDGE_NODE;
    struct want same_group = {FABRIC_SAME_GROUP, avoid, 2, {fab->sw[b], -1}, {-1, -1}};
    size_t a2 = pick(l, a, &same_group, 12);
    enum judge_scope reach = JUDGE_SWITCH;
    if (a2 != SIZE_MAX && can_probe(l)) {
        if (!test(l, f, "a node of the sender's group, on another switch, to the receiver",
                  f->metric, a2, b))
            return JUDGE_SWITCH;
        reach = JUDGE_GROUP;
    }
    /* The receiver's own group, slow from its other switches: from
     * anywhere, as far as this group can tell (a one-group fat tree). */
    if (reach == JUDGE_GROUP && fab->group[a] == fab->group[b])
        return JUDGE_ANY;
    /* Elsewhere: outside the sender's group and the receiver's (a node of
     * the receiver's own group reaches it without the links between). */
    struct want elsewhere = {-1, avoid, 2, {fab->sw[a], fab->sw[b]}, {fab->group[a], fab->group[b]}};
    size_t a3 = pick(l, a, &elsewhere, 13);
    if (a3 != SIZE_MAX && can_probe(l) &&
        test(l, f, "a node elsewhere to the receiver", f->metric, a3, b))
        return JUDGE_ANY;
    return a1 == SIZE_MAX && a2 == SIZE_MAX ? JUDGE_NODE : reach;
}

/* How far it reaches on the receiving side: the receiver alone, its switch
 * or its group; and then whether the sender is slow to elsewhere as well,
 * which makes it the sender's side (an uplink shared by the receivers of
 * some switches: a tapered fat tree's leaf has fewer uplinks than nodes). */
static enum judge_scope reach_to(struct pinpoint *l, struct pinpoint_finding *f, size_t a, size_t b)
{
    const struct fabric *fab = l->fabric;
    size_t avoid[4] = {a, b, SIZE_MAX, SIZE_MAX};
    struct want same_switch = {FABRIC_SAME_SWITCH, avoid, 2, {-1, -1}, {-1, -1}};
    size_t b1 = pick(l, b, &same_switch, 21);
    if (b1 == SIZE_MAX || !can_probe(l) ||
        !test(l, f, "the sender to another node of the receiver's switch", f->metric, a, b1))
        return JUDGE_NODE;
    enum judge_scope reach = JUDGE_SWITCH;
    struct want same_group = {FABRIC_SAME_GROUP, avoid, 2, {fab->sw[a], -1}, {-1, -1}};
    size_t b2 = pick(l, b, &same_group, 22);
    if (b2 != SIZE_MAX && can_probe(l) &&
        test(l, f, "the sender to a node of the receiver's group, on another switch", f->metric,
             a, b2))
        reach = JUDGE_GROUP;
    avoid[2] = b1;
    for (uint64_t k = 0; k < 2; k++) {
        struct want other = {-1, avoid, 4, {fab->sw[a], fab->sw[b]},
                             {reach == JUDGE_GROUP ? fab->group[b] : -1, -1}};
        size_t c = pick(l, a, &other, 23 + k);
        avoid[3] = c;
        if (c != SIZE_MAX && can_probe(l) &&
            test(l, f, "the sender to a node elsewhere", f->metric, a, c))
            return JUDGE_NODE;
    }
    return reach;
}

/* A link between two switches or groups covers its other direction too. */
static bool covers_reverse(const struct pinpoint *l, const struct pinpoint_finding *f,
                           const struct judge_obs *s)
{
    enum judge_element el = judge_element_of(f->from, f->to);
    return (el == JUDGE_SWITCH_LINKS || el == JUDGE_GROUP_LINKS) &&
           pinpoint_covers(l, f, s->metric, s->b, s->a);
}

static int trace_route(struct pinpoint *l, const struct judge_obs *s)
{
    for (size_t i = 0; i < l->nfindings; i++) {
        struct pinpoint_finding *f = &l->findings[i];
        if (f->kind != PINPOINT_ROUTE)
            continue;
        bool reverse = !pinpoint_covers(l, f, s->metric, s->a, s->b);
        if (reverse && !covers_reverse(l, f, s))
            continue;
        /* Under load its pairs are slow together, not alone; and once two
         * covered pairs were confirmed alone, the rest are taken as the
         * same fault without a round each. */
        if (f->under_load || f->covered_alone >= PINPOINT_COVER_CHECKS) {
            f->covered++;
            f->both_ways |= reverse;
            return 0;
        }
        /* Covered: one measurement says whether it is the same fault. */
        struct pinpoint_finding scratch = {.metric = s->metric};
        if (test(l, &scratch, "again alone", s->metric, s->a, s->b)) {
            f->covered++;
            f->covered_alone++;
            f->both_ways |= reverse;
        } else {
            l->cleared_pairs++;
        }
        f->rounds += scratch.rounds;
        return 0;
    }
    struct pinpoint_finding f = {.kind = PINPOINT_ROUTE, .metric = s->metric, .a = s->a, .b = s->b};
    /* Twice: a transient (another job's burst, a daemon) rarely lasts. */
    if (!test(l, &f, "again alone", s->metric, s->a, s->b) || !can_probe(l) ||
        !test(l, &f, "again alone, a second time", s->metric, s->a, s->b)) {
        l->cleared_pairs++;
        return 0;
    }
    enum fabric_class cls = fabric_class_of(l->fabric, s->a, s->b);
    if (cls == FABRIC_SAME_SWITCH || cls == FABRIC_UNKNOWN) {
        f.from = f.to = JUDGE_NODE;
    } else {
        f.from = reach_from(l, &f, s->a, s->b);
        f.to = reach_to(l, &f, s->a, s->b);
    }
    return add_finding(l, &f) ? 0 : -1;
}

/* ---------------------------------------------------------------- under load */

/* The unit of a pair for the tests under load: its two groups (across
 * groups) or its two switches (in a group); false for other classes. */
static bool unit_of(const struct pinpoint *l, size_t a, size_t b, long *u1, long *u2)
{
    const struct fabric *f = l->fabric;
    switch (fabric_class_of(f, a, b)) {
    case FABRIC_ACROSS_GROUPS:
        *u1 = f->group[a];
        *u2 = f->group[b];
        return true;
    case FABRIC_SAME_GROUP:
        *u1 = f->sw[a];
        *u2 = f->sw[b];
        return true;
    default:
        return false;
    }
}

/* The pairs of the screening's round with this metric, class and unit, into
 * a and b (room for n); returns how many, and whether any was slow. */
static size_t unit_pairs(const struct pinpoint *l, uint32_t round, int metric, long u1, long u2,
                         size_t *a, size_t *b, bool *any_slow)
{
    size_t k = 0;
    *any_slow = false;
    for (size_t i = 0; i < l->nobs; i++) {
        const struct judge_obs *o = &l->obs[i];
        long v1, v2;
        if (o->round != round || o->metric != metric || !unit_of(l, o->a, o->b, &v1, &v2) ||
            v1 != u1 || v2 != u2)
            continue;
        a[k] = o->a;
        b[k] = o->b;
        k++;
        *any_slow |= judge_slow(l->judge, o->metric, o->cls, o->value);
    }
    return k;
}

static double median_of(double *v, size_t k)
{
    size_t m = 0;
    for (size_t i = 0; i < k; i++)
        if (!isnan(v[i]))
            v[m++] = v[i];
    if (m == 0)
        return NAN;
    stats_sort(v, m);
    return stats_percentile_sorted(v, m, 50.0);
}

/* The control of a bundle: the unit of the same class in the same round
 * with no slow figure and the count nearest the bundle's. */
static size_t control_pairs(const struct pinpoint *l, const struct judge_obs *s, long u1, long u2,
                            size_t want, size_t *a, size_t *b)
{
    size_t best = 0;
    long b1 = 0, b2 = 0;
    for (size_t i = 0; i < l->nobs; i++) {
        const struct judge_obs *o = &l->obs[i];
        long v1, v2;
        if (o->round != s->round || o->metric != s->metric || o->cls != s->cls ||
            !unit_of(l, o->a, o->b, &v1, &v2) || (v1 == u1 && v2 == u2) ||
            (v1 == u2 && v2 == u1))
            continue;
        bool slow;
        size_t k = unit_pairs(l, s->round, s->metric, v1, v2, a, b, &slow);
        size_t gap = k > want ? k - want : want - k, best_gap = best > want ? best - want : want - best;
        if (!slow && (best == 0 || gap < best_gap)) {
            best = k;
            b1 = v1;
            b2 = v2;
        }
        if (best == want)
            break;
    }
    bool slow;
    return best ? unit_pairs(l, s->round, s->metric, b1, b2, a, b, &slow) : 0;
}

/* Tests the bundle of suspect s (its unit's pairs in its round) under load
 * against a control. Returns 1 when it named or cleared the bundle (its
 * suspects marked in done), 0 when there was nothing to test, -1 when out
 * of memory. */
static int test_bundle(struct pinpoint *l, const struct judge_obs *s, struct pairs *routes,
                       bool *done)
{
    long u1, u2;
    /* Latency does not depend on how wide a link is: only bandwidth. */
    if (!l->probe_set || s->metric != JUDGE_BANDWIDTH || s->round == UINT32_MAX ||
        !unit_of(l, s->a, s->b, &u1, &u2))
        return 0;
    size_t slow_here = 0;
    for (size_t i = 0; i < routes->n; i++) {
        const struct judge_obs *o = &routes->p[i];
        long v1, v2;
        slow_here += !done[i] && o->round == s->round && o->metric == s->metric &&
                     unit_of(l, o->a, o->b, &v1, &v2) && v1 == u1 && v2 == u2;
    }
    if (slow_here < 3 || l->probes + 2 > l->max_probes)
        return 0;
    size_t n = l->n;
    size_t *a = malloc(4 * (n ? n : 1) * sizeof *a), *b = a ? a + n : NULL;
    size_t *ca = a ? a + 2 * n : NULL, *cb = a ? a + 3 * n : NULL;
    double *v = malloc(2 * (n ? n : 1) * sizeof *v);
    if (!a || !v) {
        free(a);
        free(v);
        return -1;
    }
    bool any;
    size_t k = unit_pairs(l, s->round, s->metric, u1, u2, a, b, &any);
    size_t kc = k ? control_pairs(l, s, u1, u2, k, ca, cb) : 0;
    int rc = 0;
    if (kc > 0) {
        l->probe_set(l->ctx, s->metric, a, b, k, v);
        l->probe_set(l->ctx, s->metric, ca, cb, kc, v + n);
        l->probes += 2;
        double here = median_of(v, k), there = median_of(v + n, kc);
        enum culprit_sense sense = s->metric == JUDGE_BANDWIDTH ? CULPRIT_HIGHER_BETTER
                                                                : CULPRIT_LOWER_BETTER;
        struct culprit_rule fraction_only = {0, l->judge->rule.min_worse};
        bool slow = !isnan(here) && !isnan(there) &&
                    culprit_is_worse(here, there, 0, sense, &fraction_only);
        struct pinpoint_finding f = {.kind = PINPOINT_ROUTE, .metric = s->metric, .a = s->a,
                                     .b = s->b, .under_load = true, .bundle = k, .rounds = 2};
        enum fabric_class cls = fabric_class_of(l->fabric, s->a, s->b);
        f.from = f.to = cls == FABRIC_ACROSS_GROUPS ? JUDGE_GROUP : JUDGE_SWITCH;
        f.tests[f.ntests++] = (struct pinpoint_test){"its pairs of the round, all at once", s->a,
                                                     s->b, (uint8_t)s->metric, (uint8_t)cls,
                                                     here, there, PINPOINT_REF_CONTROL, slow};
        f.tests[f.ntests++] = (struct pinpoint_test){"the control: other pairs of the class, all at once",
                                                     ca[0], cb[0], (uint8_t)s->metric, (uint8_t)cls,
                                                     there, there, PINPOINT_REF_CONTROL, false};
        struct pinpoint_finding *mirror = NULL;
        for (size_t i = 0; slow && i < l->nfindings; i++) {
            struct pinpoint_finding *g = &l->findings[i];
            if (g->under_load && g->metric == s->metric &&
                pinpoint_covers(l, g, s->metric, s->b, s->a))
                mirror = g;
        }
        if (mirror) {
            mirror->both_ways = true;
            mirror->rounds += 2;
        } else if (slow && !add_finding(l, &f)) {
            rc = -1;
        }
        for (size_t i = 0; i < routes->n; i++) {
            const struct judge_obs *o = &routes->p[i];
            long v1, v2;
            if (done[i] || o->round != s->round || o->metric != s->metric ||
                !unit_of(l, o->a, o->b, &v1, &v2) || v1 != u1 || v2 != u2)
                continue;
            done[i] = true;
            if (!slow)
                l->cleared_pairs++;
            else if (!(o->a == s->a && o->b == s->b))
                (mirror ? mirror : &l->findings[l->nfindings - 1])->covered++;
        }
        rc = rc ? rc : 1;
    }
    free(a);
    free(v);
    return rc;
}

/* ---------------------------------------------------------------- the search */

static const struct pinpoint *sort_ctx;

/* Worst first: the most telling suspects are examined while probes last. */
static int by_worse(const void *x, const void *y)
{
    const struct judge_obs *a = x, *b = y;
    double wa = judge_worse_pct(sort_ctx->judge, a->metric, a->cls, a->value);
    double wb = judge_worse_pct(sort_ctx->judge, b->metric, b->cls, b->value);
    if (wa != wb)
        return wa > wb ? -1 : 1;
    if (a->a != b->a)
        return a->a < b->a ? -1 : 1;
    return a->b < b->b ? -1 : a->b > b->b;
}

static bool covered_by_node(const struct pinpoint *l, const struct judge_obs *o)
{
    if (o->metric == JUDGE_BANDWIDTH)
        return l->named[slot(o->a, JUDGE_SEND)] || l->named[slot(o->b, JUDGE_RECV)];
    return l->named[slot(o->a, JUDGE_ROUND_TRIP)] || l->named[slot(o->b, JUDGE_ROUND_TRIP)];
}

/* What each finding explains of the screening. */
static void count_screening(struct pinpoint *l)
{
    for (size_t i = 0; i < l->nfindings; i++) {
        struct pinpoint_finding *f = &l->findings[i];
        for (size_t k = 0; k < l->nobs; k++) {
            const struct judge_obs *o = &l->obs[k];
            if (isnan(o->value) || !pinpoint_covers(l, f, o->metric, o->a, o->b))
                continue;
            f->screened++;
            f->screened_slow += judge_slow(l->judge, o->metric, o->cls, o->value);
        }
    }
}

int pinpoint_run(struct pinpoint *l)
{
    size_t n = l->n;
    l->tally = malloc((n ? n : 1) * JUDGE_NROLES * sizeof *l->tally);
    l->named = calloc((n ? n : 1) * JUDGE_NROLES, sizeof *l->named);
    struct pairs routes = {NULL, 0, 0};
    bool *done = NULL;
    if (!l->tally || !l->named)
        goto oom;
    judge_tally(l->judge, l->obs, l->nobs, n, l->tally);
    for (size_t x = 0; x < n; x++)
        for (int r = 0; r < JUDGE_NROLES; r++)
            if (judge_suspect(&l->tally[slot(x, r)])) {
                l->suspects++;
                if (confirm_node(l, x, r, &routes))
                    goto oom;
            }
    for (size_t k = 0; k < l->nobs; k++) {
        const struct judge_obs *o = &l->obs[k];
        if (judge_slow(l->judge, o->metric, o->cls, o->value) && !covered_by_node(l, o) &&
            push(&routes, o->a, o->b, o->metric, o->round, o->value))
            goto oom;
    }
    for (size_t i = 0; i < routes.n; i++)
        routes.p[i].cls = (uint8_t)fabric_class_of(l->fabric, routes.p[i].a, routes.p[i].b);
    sort_ctx = l;
    if (routes.n > 1)
        qsort(routes.p, routes.n, sizeof *routes.p, by_worse);
    l->slow_pairs = routes.n;
    done = calloc(routes.n ? routes.n : 1, sizeof *done);
    if (!done)
        goto oom;
    for (size_t i = 0; i < routes.n; i++) {
        if (done[i])
            continue;
        if (covered_by_node(l, &routes.p[i])) {
            l->slow_pairs--;
            continue;
        }
        if (!can_probe(l)) {
            for (size_t j = i; j < routes.n; j++)
                l->unexamined += !done[j];
            break;
        }
        int tested = test_bundle(l, &routes.p[i], &routes, done);
        if (tested < 0 || (tested == 0 && trace_route(l, &routes.p[i])))
            goto oom;
        done[i] = true;
    }
    count_screening(l);
    free(routes.p);
    free(done);
    return 0;
oom:
    free(routes.p);
    free(done);
    return -1;
}

void pinpoint_free(struct pinpoint *l)
{
    free(l->tally);
    free(l->named);
    free(l->findings);
    l->tally = NULL;
    l->named = NULL;
    l->findings = NULL;
    l->nfindings = 0;
}
