/* plan: pairings and orders of the network-map programs; see plan.h. */
#include "plan.h"

#include <math.h>

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
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
