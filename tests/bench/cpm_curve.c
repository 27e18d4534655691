/* cpm_curve: the point-to-point curve of every pair in one launch, against
 * the two straight lines the models draw through it.
 *   cpm_curve [MAX [MAX_REPS]]      (65536, 100; MAX >= 8192)
 * Measures the round trips of every pair at 0, 1, 2, 3, 4 KiB, then
 * doubling sizes from 8 KiB up to MAX (ascending; all pairs at a size
 * before the next, libcpm's cpm_measure_p2p, serial, the default precision
 * but for MAX_REPS), then, in the same launch, the Hockney model fitted
 * over 0, MAX/8, .., MAX (cpm_hockney_estimate_regression: what
 * `model -C Hockney -m 0 -M MAX -S MAX/8` builds). Rank 0 prints per pair
 * and size the measured one-way time (us) and two predictions with their
 * error (prediction / measured - 1): "line", the straight line through the
 * pair's measured 0 and MAX bytes, which is the point-to-point prediction
 * of an LMO model built with -M MAX from these round trips; and Hockney's.
 * Then per size the range over the pairs of the time and of both errors. */
#include <stdio.h>
#include <stdlib.h>

#include "cpm_diag.h"
#include "cpm_hockney.h"
#include "stats.h"

static const char usage[] = "mpirun -n N cpm_curve [MAX [MAX_REPS]], N >= 2, MAX >= 8192, "
                            "MAX_REPS >= 5";

enum { MAX_SIZES = 64 };

/* 0, 1 .. 4 KiB, then doubling from 8 KiB while below max, then max. */
static size_t curve_sizes(size_t max, size_t *sizes)
{
    size_t k = 0;
    for (size_t s = 0; s <= 4096; s += 1024)
        sizes[k++] = s;
    for (size_t s = 8192; s < max; s *= 2)
        sizes[k++] = s;
    sizes[k++] = max;
    return k;
}

/* Per size: the range over pairs of a column (times or errors). */
struct range {
    double lo, hi;
};

static void widen(struct range *r, double v, bool first)
{
    if (first || v < r->lo)
        r->lo = v;
    if (first || v > r->hi)
        r->hi = v;
}

static void print_curves(int n, const size_t *sizes, size_t count, const struct cpm_result *r,
                         const struct cpm_hockney *h)
{
    size_t pairs = cpm_pairs(n), last = count - 1;
    struct range span[MAX_SIZES][3] = {{{0, 0}}};
    printf("# size (bytes), measured one-way (us), line through 0 and %zu bytes (us, error), "
           "Hockney (us, error); error: prediction / measured - 1\n",
           sizes[last]);
    for (size_t q = 0; q < pairs; q++) {
        int i, j;
        cpm_pair_at(n, q, &i, &j);
        printf("# pair %d %d\n", i, j);
        double t0 = r[q].time / 2.0, tmax = r[last * pairs + q].time / 2.0;
        for (size_t s = 0; s < count; s++) {
            double t = r[s * pairs + q].time / 2.0;
            double line = t0 + (tmax - t0) * (double)sizes[s] / (double)sizes[last];
            double hock = cpm_hockney_predict_p2p(&h->predictor, i, j, sizes[s]);
            double v[3] = {t * 1e6, 100.0 * (line / t - 1.0), 100.0 * (hock / t - 1.0)};
            for (int c = 0; c < 3; c++)
                widen(&span[s][c], v[c], q == 0);
            printf("%7zu %9.3f  %9.3f %+7.1f%%  %9.3f %+7.1f%%\n", sizes[s], v[0], line * 1e6, v[1],
                   hock * 1e6, v[2]);
        }
        printf("\n");
    }
    printf("# over the pairs: size, measured one-way (us), line's error, Hockney's error\n");
    for (size_t s = 0; s < count; s++)
        printf("# %7zu  %8.3f .. %8.3f  %+7.1f%% .. %+7.1f%%  %+7.1f%% .. %+7.1f%%\n", sizes[s],
               span[s][0].lo, span[s][0].hi, span[s][1].lo, span[s][1].hi, span[s][2].lo,
               span[s][2].hi);
    if (h->constrained)
        printf("# Hockney: %d pairs' fits held at a >= 0, b >= 0\n", h->constrained);
}

int main(int argc, char **argv)
{
    static const size_t dflt[] = {65536, 100}, least[] = {8192, 5};
    struct cpm_diag_args a;
    cpm_diag_start(&argc, &argv, 2, 2, dflt, least, usage, &a);
    int rank = a.rank, n = a.n;
    size_t max = a.v[0];
    const struct cpm_precision *p = &a.precision;
    size_t sizes[MAX_SIZES], count = curve_sizes(max, sizes), pairs = cpm_pairs(n);
    struct cpm_result *r = calloc(count * pairs, sizeof *r);
    if (!r)
        cpm_diag_usage("cpm_curve: out of memory");
    for (size_t s = 0; s < count; s++)
        cpm_measure_p2p(MPI_COMM_WORLD, sizes[s], false, p, r + s * pairs);
    struct cpm_msgset set = {0, max, max / 8, 0.1, 1024, 100, false};
    struct cpm_hockney *h = cpm_hockney_estimate_regression(MPI_COMM_WORLD, &set, p, false);
    if (rank == 0) {
        printf("# cpm_curve: %d processes, one launch\n", n);
        print_curves(n, sizes, count, r, h);
    }
    cpm_hockney_free(h);
    free(r);
    MPI_Finalize();
    return 0;
}
