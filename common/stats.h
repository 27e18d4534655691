/*
 * stats: descriptive statistics over arrays of samples (times, usually),
 * Student-t confidence intervals (GSL) and the outlier rule. Pure functions,
 * no MPI; inputs are never modified unless the name says sort.
 */
#ifndef COMMSWEEP_STATS_H
#define COMMSWEEP_STATS_H

#include <stddef.h>

struct stats_summary {
    size_t n;
    double min, max, mean;
    double stddev; /* sample standard deviation (n - 1); 0 when n < 2 */
    double median;
};

double stats_min(const double *x, size_t n);
double stats_max(const double *x, size_t n);
double stats_mean(const double *x, size_t n);
double stats_stddev(const double *x, size_t n);
void stats_sort(double *x, size_t n);
/* p in [0, 100], linear interpolation between closest ranks; x sorted.
 * The rule (Hyndman and Fan's type 7, the default of R and NumPy): with
 * h = (n - 1) p / 100, the value is x[floor h] + (h - floor h) (x[floor h + 1]
 * - x[floor h]); P0 is the smallest sample, P100 the largest. */
double stats_percentile_sorted(const double *x, size_t n, double p);
double stats_median(const double *x, size_t n);
void stats_summarize(const double *x, size_t n, struct stats_summary *s);

/* The spread of a row's per-iteration values (--stats): median, 5th and
 * 95th percentiles by the rule above, and the coefficient of variation,
 * sample standard deviation (n - 1) over mean. The coefficient is NaN, not
 * a number, where it has no meaning: fewer than 2 values, or a mean of 0. */
struct stats_dispersion {
    double median, p5, p95, cv;
};
/* x sorted ascending, n >= 1. */
void stats_dispersion_sorted(const double *x, size_t n, struct stats_dispersion *d);

/* Half-width of the two-sided Student-t confidence interval of the mean at
 * level cl (0.95) for n samples with sample standard deviation sd. 0 for n < 2. */
double stats_t_halfwidth(double sd, size_t n, double cl);
/* Quantile of Student's t with dof degrees of freedom. */
double stats_t_quantile(double p, double dof);

/* Outlier rule: a sample farther than k standard deviations from the mean.
 * Counts them; stats_mean_without_outliers gives the mean of the rest. */
size_t stats_count_outliers(const double *x, size_t n, double k);
double stats_mean_without_outliers(const double *x, size_t n, double k);

#endif
