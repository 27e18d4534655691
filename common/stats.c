/* stats: descriptive statistics and Student-t intervals; see stats.h. */
#include "stats.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

double stats_min(const double *x, size_t n)
{
    double m = n ? x[0] : 0.0;
    for (size_t i = 1; i < n; i++)
        if (x[i] < m)
            m = x[i];
    return m;
}

double stats_max(const double *x, size_t n)
{
    double m = n ? x[0] : 0.0;
    for (size_t i = 1; i < n; i++)
        if (x[i] > m)
            m = x[i];
    return m;
}

double stats_mean(const double *x, size_t n)
{
    if (n == 0)
        return 0.0;
    double s = 0.0;
    for (size_t i = 0; i < n; i++)
        s += x[i];
    return s / (double)n;
}

double stats_stddev(const double *x, size_t n)
{
    if (n < 2)
        return 0.0;
    double m = stats_mean(x, n), s = 0.0;
    for (size_t i = 0; i < n; i++)
        s += (x[i] - m) * (x[i] - m);
    return sqrt(s / (double)(n - 1));
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void stats_sort(double *x, size_t n) { qsort(x, n, sizeof *x, cmp_double); }

double stats_percentile_sorted(const double *x, size_t n, double p)
{
    if (n == 0)
        return 0.0;
    if (p <= 0)
        return x[0];
    if (p >= 100)
        return x[n - 1];
    double pos = p / 100.0 * (double)(n - 1);
    size_t lo = (size_t)pos;
    double frac = pos - (double)lo;
    return lo + 1 < n ? x[lo] + frac * (x[lo + 1] - x[lo]) : x[lo];
}

double stats_median(const double *x, size_t n)
{
    if (n == 0)
        return 0.0;
    double *copy = malloc(n * sizeof *copy);
    if (!copy)
        return NAN;
    memcpy(copy, x, n * sizeof *copy);
    stats_sort(copy, n);
    double m = stats_percentile_sorted(copy, n, 50.0);
    free(copy);
    return m;
}

void stats_summarize(const double *x, size_t n, struct stats_summary *s)
{
    s->n = n;
    s->min = stats_min(x, n);
    s->max = stats_max(x, n);
    s->mean = stats_mean(x, n);
    s->stddev = stats_stddev(x, n);
    s->median = stats_median(x, n);
}

void stats_dispersion_sorted(const double *x, size_t n, struct stats_dispersion *d)
{
    d->median = stats_percentile_sorted(x, n, 50.0);
    d->p5 = stats_percentile_sorted(x, n, 5.0);
    d->p95 = stats_percentile_sorted(x, n, 95.0);
    double mean = stats_mean(x, n);
    d->cv = n >= 2 && mean != 0.0 ? stats_stddev(x, n) / mean : NAN;
}

double stats_t_quantile(double p, double dof) { return gsl_cdf_tdist_Pinv(p, dof); }

double stats_t_halfwidth(double sd, size_t n, double cl)
{
    if (n < 2)
        return 0.0;
    return stats_t_quantile(0.5 + cl / 2.0, (double)(n - 1)) * sd / sqrt((double)n);
}

size_t stats_count_outliers(const double *x, size_t n, double k)
{
    double m = stats_mean(x, n), sd = stats_stddev(x, n);
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        if (fabs(x[i] - m) > k * sd)
            count++;
    return count;
}

double stats_mean_without_outliers(const double *x, size_t n, double k)
{
    double m = stats_mean(x, n), sd = stats_stddev(x, n), s = 0.0;
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (fabs(x[i] - m) <= k * sd) {
            s += x[i];
            kept++;
        }
    }
    return kept ? s / (double)kept : m;
}
