/* cpm_schedule: numbering of pairs and triplets and the round-robin
 * schedule of parallel experiments; see cpm_measure.h. */
#include "cpm_measure.h"

#include <stdlib.h>
#include <string.h>

size_t cpm_pairs(int n) { return n < 2 ? 0 : (size_t)n * (size_t)(n - 1) / 2; }

size_t cpm_pair_index(int n, int i, int j)
{
    if (i > j) {
        int t = i;
        i = j;
        j = t;
    }
    /* Pairs before row i: (n-1) + (n-2) + ... + (n-i). */
    return (size_t)i * (size_t)n - (size_t)i * (size_t)(i + 1) / 2 + (size_t)(j - i - 1);
}

/* Pairs before row i (those whose first is below i). */
static size_t pairs_before(int n, int i)
{
    return (size_t)i * (size_t)n - (size_t)i * (size_t)(i + 1) / 2;
}

/* The largest a in [lo, hi] with before(n, a) <= index, before increasing
 * in a: a binary search, where a walk over the rows made a pair's lookup
 * O(n) and the all-pairs loops O(n^3). */
static int last_row_at_or_below(int n, size_t index, int lo, int hi,
                                size_t (*before)(int n, int a))
{
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (before(n, mid) <= index)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

void cpm_pair_at(int n, size_t index, int *i, int *j)
{
    int a = last_row_at_or_below(n, index, 0, n - 2, pairs_before);
    *i = a;
    *j = a + 1 + (int)(index - pairs_before(n, a));
}

size_t cpm_triplets(int n)
{
    return n < 3 ? 0 : (size_t)n * (size_t)(n - 1) * (size_t)(n - 2) / 6;
}

static size_t choose3(int m) { return m < 3 ? 0 : (size_t)m * (size_t)(m - 1) * (size_t)(m - 2) / 6; }

/* Triplets before row a (those whose first is below a). */
static size_t triplets_before(int n, int a) { return choose3(n) - choose3(n - a); }

size_t cpm_triplet_index(int n, int i, int j, int k)
{
    /* (i, b, *) for i < b < j: n - 1 - b each, from n - 2 - i down to n - j. */
    size_t middle = (size_t)(j - i - 1) * (size_t)(2 * n - 2 - i - j) / 2;
    return triplets_before(n, i) + middle + (size_t)(k - j - 1);
}

void cpm_triplet_at(int n, size_t index, int *i, int *j, int *k)
{
    int a = last_row_at_or_below(n, index, 0, n - 3, triplets_before);
    /* The rest numbers the pairs of the n - 1 - a processes after a. */
    int b, c;
    cpm_pair_at(n - 1 - a, index - triplets_before(n, a), &b, &c);
    *i = a;
    *j = a + 1 + b;
    *k = a + 1 + c;
}

/* Circle method on N = n (even) or n + 1 (odd, the extra one is the bye):
 * in round r, players a != b below N - 1 meet when a + b = r (mod N - 1);
 * the one with 2a = r (mod N - 1) meets player N - 1. */
int cpm_schedule_rounds(int n) { return n < 2 ? 0 : (n % 2 ? n : n - 1); }

int cpm_schedule_partner(int n, int round, int rank)
{
    int N = n % 2 ? n + 1 : n, m = N - 1, partner;
    if (rank == m)
        partner = (int)((long)round * (N / 2) % m);
    else {
        partner = ((round - rank) % m + m) % m;
        if (partner == rank)
            partner = m;
    }
    return partner >= n ? -1 : partner;
}

int cpm_triplet_rounds_init(struct cpm_triplet_rounds *s, int n, bool parallel)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    s->parallel = parallel;
    s->count = cpm_triplets(n);
    if (!parallel)
        return 0;
    s->done = calloc(s->count / 8 + 1, 1);
    s->busy = calloc((size_t)n + 1, 1);
    if (!s->done || !s->busy) {
        cpm_triplet_rounds_free(s);
        return -1;
    }
    return 0;
}

void cpm_triplet_rounds_free(struct cpm_triplet_rounds *s)
{
    free(s->done);
    free(s->busy);
    s->done = s->busy = NULL;
}

static bool is_done(const struct cpm_triplet_rounds *s, size_t t)
{
    return s->done[t / 8] & (1u << (t % 8));
}

/* The index of triplet (i, j, j + 1) or, when there is none, of the first
 * triplet of the next row (i + 1, i + 2, i + 3); count past the last. */
static size_t next_from(const struct cpm_triplet_rounds *s, int i, int j)
{
    int n = s->n;
    if (j + 1 < n)
        return cpm_triplet_index(n, i, j, j + 1);
    if (i + 3 < n)
        return cpm_triplet_index(n, i + 1, i + 2, i + 3);
    return s->count;
}

size_t cpm_triplet_round(struct cpm_triplet_rounds *s, size_t *round)
{
    if (s->first >= s->count)
        return 0;
    if (!s->parallel) {
        round[0] = s->first++;
        return 1;
    }
    int n = s->n, free_procs = n;
    memset(s->busy, 0, (size_t)n);
    size_t taken = 0, t = s->first;
    while (t < s->count && free_procs >= 3) {
        int i, j, k;
        cpm_triplet_at(n, t, &i, &j, &k);
        /* Whole runs are skipped at once: the rest of row i when i is busy,
         * the rest of (i, j, *) when j is. */
        if (s->busy[i]) {
            t = next_from(s, i, n - 1);
            continue;
        }
        if (s->busy[j]) {
            t = next_from(s, i, j + 1);
            continue;
        }
        /* Along k; past the last k, t is the next triplet in order. */
        for (; k < n; k++, t++) {
            if (s->busy[k] || is_done(s, t))
                continue;
            s->done[t / 8] |= (unsigned char)(1u << (t % 8));
            s->busy[i] = s->busy[j] = s->busy[k] = 1;
            free_procs -= 3;
            round[taken++] = t;
            t = next_from(s, i, n - 1); /* i is busy now */
            break;
        }
    }
    while (s->first < s->count && is_done(s, s->first))
        s->first++;
    return taken;
}
