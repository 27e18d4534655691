/* signif: Welch's test and a bootstrap of medians; see signif.h. */
#include "signif.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

int signif_welch(double m1, double s1, size_t n1, double m2, double s2, size_t n2,
                 struct signif_welch *w)
{
    if (n1 < 2 || n2 < 2 || !(s1 >= 0 && s2 >= 0) || !isfinite(s1) || !isfinite(s2) ||
        !isfinite(m1) || !isfinite(m2))
        return -1;
    double v1 = s1 * s1 / (double)n1, v2 = s2 * s2 / (double)n2;
    if (v1 + v2 == 0.0) {
        w->t = m1 == m2 ? 0.0 : copysign(INFINITY, m2 - m1);
        w->dof = NAN;
        w->p = m1 == m2 ? 1.0 : 0.0;
        return 0;
    }
    w->t = (m2 - m1) / sqrt(v1 + v2);
    w->dof = (v1 + v2) * (v1 + v2) / (v1 * v1 / (double)(n1 - 1) + v2 * v2 / (double)(n2 - 1));
    w->p = 2.0 * gsl_cdf_tdist_Q(fabs(w->t), w->dof);
    if (w->p > 1.0)
        w->p = 1.0;
    return 0;
}

double signif_median_spread(double p5, double p95)
{
    if (!(p95 >= p5))
        return NAN;
    double z = gsl_cdf_ugaussian_Pinv(0.95);
    return sqrt(M_PI / 2.0) * (p95 - p5) / (2.0 * z);
}

/* The sample median of one resample, given how often each of the sorted
 * values x[0..n-1] was drawn: the order statistics (n - 1) / 2 and n / 2
 * (one and the same for odd n), averaged, as stats_percentile_sorted's 50%. */
static double counted_median(const double *x, const uint32_t *count, size_t n)
{
    size_t lo = (n - 1) / 2, hi = n / 2, seen = 0;
    double vlo = NAN;
    for (size_t i = 0; i < n; i++) {
        seen += count[i];
        if (isnan(vlo) && seen > lo)
            vlo = x[i];
        if (seen > hi)
            return (vlo + x[i]) / 2.0;
    }
    return vlo; /* not reached: the counts add up to n */
}

/* Draws n of the sorted x with replacement and returns their median. */
static double resampled_median(gsl_rng *rng, const double *x, uint32_t *count, size_t n)
{
    memset(count, 0, n * sizeof *count);
    for (size_t i = 0; i < n; i++)
        count[gsl_rng_uniform_int(rng, n)]++;
    return counted_median(x, count, n);
}

int signif_bootstrap_median(const double *a, size_t na, const double *b, size_t nb,
                            size_t resamples, unsigned long seed, double level,
                            struct signif_boot *out)
{
    if (na == 0 || nb == 0 || resamples == 0 || na > UINT32_MAX || nb > UINT32_MAX)
        return -1;
    size_t nmax = na > nb ? na : nb;
    double *sa = malloc(na * sizeof *sa), *sb = malloc(nb * sizeof *sb);
    double *diff = malloc(resamples * sizeof *diff);
    uint32_t *count = malloc(nmax * sizeof *count);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    int rc = -1;
    if (!sa || !sb || !diff || !count || !rng)
        goto done;
    memcpy(sa, a, na * sizeof *sa);
    memcpy(sb, b, nb * sizeof *sb);
    stats_sort(sa, na);
    stats_sort(sb, nb);
    gsl_rng_set(rng, seed);
    size_t at_most_0 = 0, at_least_0 = 0;
    for (size_t r = 0; r < resamples; r++) {
        double ma = resampled_median(rng, sa, count, na);
        double mb = resampled_median(rng, sb, count, nb);
        diff[r] = mb - ma;
        at_most_0 += diff[r] <= 0.0;
        at_least_0 += diff[r] >= 0.0;
    }
    stats_sort(diff, resamples);
    out->diff = stats_percentile_sorted(sb, nb, 50.0) - stats_percentile_sorted(sa, na, 50.0);
    out->lo = stats_percentile_sorted(diff, resamples, 50.0 * (1.0 - level));
    out->hi = stats_percentile_sorted(diff, resamples, 50.0 * (1.0 + level));
    size_t fewer = at_most_0 < at_least_0 ? at_most_0 : at_least_0;
    out->p = 2.0 * (double)fewer / (double)resamples;
    if (out->p > 1.0)
        out->p = 1.0;
    rc = 0;
done:
    gsl_rng_free(rng);
    free(sa);
    free(sb);
    free(diff);
    free(count);
    return rc;
}
