/*
 * signif: whether two samples differ, at a given level: Welch's t test
 * (unequal variances, Welch-Satterthwaite degrees of freedom, GSL's t
 * distribution) on two estimates with their spreads and counts, the
 * spread that makes a median's standard error from its 5th and 95th
 * percentiles, and a bootstrap of the difference of two medians over the
 * values themselves, reproducible from a seed (GSL's MT19937). Pure, no
 * MPI, no output.
 */
#ifndef COMMSWEEP_SIGNIF_H
#define COMMSWEEP_SIGNIF_H

#include <stddef.h>

struct signif_welch {
    double t;   /* (m2 - m1) / sqrt(s1^2/n1 + s2^2/n2) */
    double dof; /* Welch-Satterthwaite */
    double p;   /* two-sided */
};

/* Welch's test of m1 against m2, each an estimate with spread s (its
 * standard error is s / sqrt(n)) from n values. -1 when it is undefined:
 * n < 2, a spread negative or not finite. Two spreads of 0 leave no
 * distribution: t is then 0 (p 1) when m1 == m2 and infinite (p 0)
 * otherwise, dof NaN. */
int signif_welch(double m1, double s1, size_t n1, double m2, double s2, size_t n2,
                 struct signif_welch *w);

/* The spread s for signif_welch that makes s / sqrt(n) the standard error
 * of a median, from the 5th and 95th percentiles: (p95 - p5) / (2 z) is the
 * standard deviation of a normal distribution with those percentiles (z the
 * normal 95% quantile, 1.6449), and the median of n normal values has
 * standard error sqrt(pi / 2) sd / sqrt(n). */
double signif_median_spread(double p5, double p95);

struct signif_boot {
    double diff;   /* median(b) - median(a) of the values given */
    double lo, hi; /* percentile interval of the resampled differences at the level */
    double p;      /* two-sided: twice the smaller share of resampled differences <= 0, >= 0 */
};

/* Bootstrap of median(b) - median(a): draws a and b again with
 * replacement, resamples times, from an MT19937 seeded with seed (the
 * same seed, the same numbers). a and b are not changed; medians as in
 * stats.h. level is the interval's, 0.95 for 95%. -1 for an empty sample,
 * no resamples or no memory. */
int signif_bootstrap_median(const double *a, size_t na, const double *b, size_t nb,
                            size_t resamples, unsigned long seed, double level,
                            struct signif_boot *out);

#endif
