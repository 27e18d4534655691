/* cpm_schedule: numbering of pairs and triplets and the round-robin
 * schedule of parallel experiments; see cpm_measure.h. */
#include "cpm_measure.h"

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
