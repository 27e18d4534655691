/* plan: pairings and orders of the network-map programs; see plan.h. */
#include "plan.h"

#include <math.h>
#include <stdlib.h>

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

uint64_t plan_hash(uint64_t x)
{
    return splitmix64(&x);
}

void plan_permutation(uint64_t seed, uint64_t stream, size_t n, size_t *out)
{
    uint64_t state = seed * 0x2545f4914f6cdd1du + stream * 0x9e3779b97f4a7c15u + 1;
    for (size_t i = 0; i < n; i++)
        out[i] = i;
    for (size_t i = n; i > 1; i--) {
        /* Rejection keeps the draw uniform over [0, i). */
        uint64_t limit = UINT64_MAX - UINT64_MAX % i, r;
        do
            r = splitmix64(&state);
        while (r >= limit);
        size_t j = (size_t)(r % i), t = out[i - 1];
        out[i - 1] = out[j];
        out[j] = t;
    }
}

void plan_ring_neighbours(const size_t *order, size_t n, size_t me, size_t *left, size_t *right)
{
    for (size_t i = 0; i < n; i++) {
        if (order[i] != me)
            continue;
        *left = order[(i + n - 1) % n];
        *right = order[(i + 1) % n];
        return;
    }
    *left = *right = me;
}

bool plan_bisection_partner(const size_t *order, size_t n, size_t me, size_t *partner)
{
    size_t half = n / 2;
    for (size_t i = 0; i < 2 * half; i++) {
        if (order[i] != me)
            continue;
        *partner = i < half ? order[i + half] : order[i - half];
        return true;
    }
    return false;
}

bool plan_is_victim(size_t n, size_t nvictims, size_t endpoint)
{
    for (size_t i = 0; i < nvictims; i++)
        if (i * n / nvictims == endpoint)
            return true;
    return false;
}

size_t plan_victim_count(size_t n, double percent)
{
    if (n < 4)
        return 0;
    size_t v = (size_t)ceil((double)n * percent / 100.0 - 1e-9);
    if (v < 2)
        v = 2;
    if (v > n - 2)
        v = n - 2;
    return v;
}

/* A sort key per endpoint: its group, switch (or a draw for the unknown),
 * and its own draw of the round. */
struct place {
    long group, sw;
    uint64_t own;
    size_t endpoint;
};

static int place_cmp(const void *a, const void *b)
{
    const struct place *x = a, *y = b;
    if (x->group != y->group)
        return x->group < y->group ? -1 : 1;
    if (x->sw != y->sw)
        return x->sw < y->sw ? -1 : 1;
    if (x->own != y->own)
        return x->own < y->own ? -1 : 1;
    return x->endpoint < y->endpoint ? -1 : x->endpoint > y->endpoint;
}

static uint64_t draw_of(uint64_t seed, uint64_t round, uint64_t salt, long id)
{
    uint64_t state = seed * 0x2545f4914f6cdd1du ^ (round + 1) * 0x9e3779b97f4a7c15u ^
                     (salt << 56) ^ (uint64_t)(id + 1) * 0xbf58476d1ce4e5b9u;
    return splitmix64(&state);
}

static void pair_up(size_t *partner, size_t a, size_t b)
{
    partner[a] = b;
    partner[b] = a;
}

size_t plan_circle_partner(size_t m, size_t t, size_t i)
{
    if (m % 2)
        m++;
    if (m < 2 || i >= m)
        return i;
    t %= m - 1;
    if (i == m - 1)
        return t;
    if (i == t)
        return m - 1;
    return (2 * t + (m - 1) - i) % (m - 1);
}

/* Ranges of a sorted array: [start[k], start[k + 1]) for k < count. */
struct ranges {
    size_t *start;
    size_t count;
};

/* Pairs the members of `count` units (ranges of p, in their draw order)
 * by the circle method's round t, unit order fixed by seed and salt (so
 * that over the rounds every two units meet once); the left over go to
 * pool. */
static void match_units(const struct place *p, const struct ranges *u, uint64_t seed,
                        uint64_t salt, uint64_t t, size_t *partner, size_t *pool, size_t *npool,
                        struct place *order)
{
    size_t m = u->count;
    /* The units in an order drawn once per seed: order[k].endpoint = unit. */
    for (size_t k = 0; k < m; k++)
        order[k] = (struct place){0, 0, draw_of(seed, 0, salt, p[u->start[k]].sw * 1000003 +
                                                          p[u->start[k]].group), k};
    qsort(order, m, sizeof *order, place_cmp);
    for (size_t pos = 0; pos < m; pos++) {
        size_t other = plan_circle_partner(m, t, pos);
        size_t a = order[pos].endpoint;
        if (other < pos)
            continue;
        size_t a0 = u->start[a], a1 = u->start[a + 1];
        if (other >= m || other == pos) { /* the bye, or a single unit */
            for (size_t i = a0; i < a1; i++)
                pool[(*npool)++] = p[i].endpoint;
            continue;
        }
        size_t b = order[other].endpoint, b0 = u->start[b], b1 = u->start[b + 1];
        /* The second unit turned by the round: still a block of
         * consecutive nodes (no colliding flows), but each node meets
         * another offset, and so another uplink, every round. */
        size_t nb = b1 - b0, turn = (size_t)(t % nb);
        size_t k = 0;
        for (; a0 + k < a1 && k < nb; k++)
            pair_up(partner, p[a0 + k].endpoint, p[b0 + (k + turn) % nb].endpoint);
        for (size_t i = a0 + k; i < a1; i++)
            pool[(*npool)++] = p[i].endpoint;
        for (size_t i = k; i < nb; i++)
            pool[(*npool)++] = p[b0 + (i + turn) % nb].endpoint;
    }
}

/* The ranges of equal keys (group, or group and switch) of sorted p[lo, hi). */
static void split(const struct place *p, size_t lo, size_t hi, bool by_switch, struct ranges *r)
{
    r->count = 0;
    for (size_t i = lo; i < hi; i++)
        if (i == lo || p[i].group != p[i - 1].group || (by_switch && p[i].sw != p[i - 1].sw))
            r->start[r->count++] = i;
    r->start[r->count] = hi;
}

void plan_matching(uint64_t seed, uint64_t round, enum plan_aim aim, size_t n, const int *sw,
                   const int *group, size_t *partner, size_t *scratch)
{
    struct place *p = malloc((n ? n : 1) * sizeof *p), *order = malloc((n ? n : 1) * sizeof *order);
    size_t *pool = scratch, npool = 0;
    struct ranges units = {scratch + n, 0}, inner = {scratch + 2 * n + 1, 0};
    for (size_t e = 0; e < n; e++)
        partner[e] = SIZE_MAX;
    if (!p || !order) { /* no room to draw: the natural order, halves paired */
        for (size_t i = 0; i < n / 2; i++)
            pair_up(partner, i, i + n / 2);
        free(p);
        free(order);
        return;
    }
    size_t known = 0;
    for (size_t e = 0; e < n; e++) {
        long g = group && group[e] >= 0 ? group[e] : -1, s = sw && sw[e] >= 0 ? sw[e] : -1;
        /* Whole units meet in node order, as a job's ranks do: on a fat
         * tree routed by destination (d-mod-k) the blocks of consecutive
         * nodes take distinct uplinks, so a round crosses the fabric
         * without colliding flows and a slow link stands out. */
        uint64_t own = aim == PLAN_ACROSS_GROUPS || aim == PLAN_SAME_GROUP
                           ? (uint64_t)e
                           : draw_of(seed, round * 4 + (uint64_t)aim, 3, (long)e);
        if (aim == PLAN_RANDOM || s < 0 || g < 0)
            g = s = -1; /* unknown endpoints go to the pool */
        if (aim == PLAN_ACROSS_GROUPS)
            s = 0; /* a group's endpoints in a drawn order, whatever their switch */
        p[e] = (struct place){g, s, own, e};
        known += g >= 0;
    }
    qsort(p, n, sizeof *p, place_cmp);
    size_t first = n - known; /* the unknown sort first (group -1) */
    for (size_t i = 0; i < first; i++)
        pool[npool++] = p[i].endpoint;
    if (aim == PLAN_ACROSS_GROUPS) {
        split(p, first, n, false, &units);
        match_units(p, &units, seed, 1, round, partner, pool, &npool, order);
    } else if (aim == PLAN_SAME_GROUP) {
        split(p, first, n, false, &units);
        for (size_t g = 0; g < units.count; g++) {
            size_t before = npool;
            split(p, units.start[g], units.start[g + 1], true, &inner);
            match_units(p, &inner, seed, 2, round, partner, pool, &npool, order);
            /* What a group left pairs inside the group first. */
            size_t left = npool - before;
            for (size_t i = 0; i + 1 < left; i += 2)
                pair_up(partner, pool[before + i], pool[before + i + 1]);
            if (left % 2) {
                pool[before] = pool[npool - 1];
                npool = before + 1;
            } else {
                npool = before;
            }
        }
    } else if (aim == PLAN_SAME_SWITCH) {
        split(p, first, n, true, &units);
        for (size_t u = 0; u < units.count; u++) {
            size_t a = units.start[u], b = units.start[u + 1];
            for (; a + 1 < b; a += 2)
                pair_up(partner, p[a].endpoint, p[a + 1].endpoint);
            if (a < b)
                pool[npool++] = p[a].endpoint;
        }
    }
    /* The pool, in a drawn order: halves paired. With no topology at all
     * the order is drawn once per seed and the circle method pairs it, so
     * that no two endpoints meet twice before every two have met: in N - 1
     * rounds every pair, a route that one pair alone takes included. */
    bool tournament = aim == PLAN_RANDOM;
    for (size_t i = 0; i < npool; i++) {
        size_t e = pool[i];
        uint64_t stream = tournament ? (uint64_t)aim : round * 4 + (uint64_t)aim;
        order[i] = (struct place){0, 0, draw_of(seed, stream, 5, (long)e), e};
    }
    qsort(order, npool, sizeof *order, place_cmp);
    size_t m = npool + npool % 2;
    for (size_t i = 0; tournament && m > 1 && i < npool; i++) {
        size_t j = plan_circle_partner(npool, round % (m - 1), i);
        if (j > i && j < npool)
            pair_up(partner, order[i].endpoint, order[j].endpoint);
    }
    for (size_t i = 0; !tournament && i < npool / 2; i++)
        pair_up(partner, order[i].endpoint, order[i + npool / 2].endpoint);
    free(p);
    free(order);
}
