/* matmul_part: rows in proportion to speeds; see matmul_part.h. */
#include "matmul_part.h"

#include <math.h>
#include <stdlib.h>

#include "err.h"

struct share {
    double remainder, speed;
    int rank;
};

/* Larger remainders first, then faster processes, then lower ranks. */
static int by_remainder(const void *a, const void *b)
{
    const struct share *x = a, *y = b;
    if (x->remainder != y->remainder)
        return x->remainder < y->remainder ? 1 : -1;
    if (x->speed != y->speed)
        return x->speed < y->speed ? 1 : -1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

void matmul_rows(const double *speed, int p, size_t n, size_t *rows)
{
    double total = 0;
    for (int r = 0; r < p; r++)
        total += speed[r];
    struct share *s = malloc((size_t)p * sizeof *s);
    if (!s)
        err_fatal("out of memory for %d shares", p);
    size_t given = 0;
    for (int r = 0; r < p; r++) {
        double quota = (double)n * (speed[r] / total);
        rows[r] = (size_t)floor(quota);
        if (rows[r] > n - given) /* rounding of the quotients: never more than n */
            rows[r] = n - given;
        given += rows[r];
        s[r] = (struct share){quota - (double)rows[r], speed[r], r};
    }
    qsort(s, (size_t)p, sizeof *s, by_remainder);
    for (int k = 0; given < n; k = (k + 1) % p, given++)
        rows[s[k].rank]++;
    free(s);
}
