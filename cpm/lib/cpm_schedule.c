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

void cpm_pair_at(int n, size_t index, int *i, int *j)
{
    int a = 0;
    while (index >= (size_t)(n - 1 - a)) {
        index -= (size_t)(n - 1 - a);
        a++;
    }
    *i = a;
    *j = a + 1 + (int)index;
}

size_t cpm_triplets(int n)
{
    return n < 3 ? 0 : (size_t)n * (size_t)(n - 1) * (size_t)(n - 2) / 6;
}

size_t cpm_triplet_index(int n, int i, int j, int k)
{
    size_t index = 0;
    for (int a = 0; a < i; a++) /* triplets starting with a: C(n-1-a, 2) */
        index += (size_t)(n - 1 - a) * (size_t)(n - 2 - a) / 2;
    for (int b = i + 1; b < j; b++) /* (i, b, *): n - 1 - b of them */
        index += (size_t)(n - 1 - b);
    return index + (size_t)(k - j - 1);
}

void cpm_triplet_at(int n, size_t index, int *i, int *j, int *k)
{
    int a = 0;
    for (;; a++) {
        size_t here = (size_t)(n - 1 - a) * (size_t)(n - 2 - a) / 2;
        if (index < here)
            break;
        index -= here;
    }
    int b = a + 1;
    for (;; b++) {
        size_t here = (size_t)(n - 1 - b);
        if (index < here)
            break;
        index -= here;
    }
    *i = a;
    *j = b;
    *k = b + 1 + (int)index;
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
