/*
 * cpm_breakpoint: one change of slope in a curve y(x). Every split of the
 * points into two runs (each at least min_segment long) gets its own
 * least-squares line on each side; the split with the smallest total
 * residual sum of squares wins, and an F test against the single line
 * (2 extra parameters, n - 4 residual degrees of freedom) decides whether
 * the break is real. This stands in for the Bai-Perron procedure the
 * original LMO estimation took from R. Pure, no MPI.
 */
#ifndef COMMSWEEP_CPM_BREAKPOINT_H
#define COMMSWEEP_CPM_BREAKPOINT_H

#include <stdbool.h>
#include <stddef.h>

struct cpm_break {
    bool found;         /* significant at the level asked for */
    size_t index;       /* first point of the second run */
    double x;           /* x[index]: where the second regime starts */
    double left[2];     /* intercept, slope before the break (whole line if none) */
    double right[2];    /* after the break (whole line if none) */
    double f, p_value;  /* the F statistic and its p-value */
};

/* x increasing, n points; alpha the significance level (0.05). Returns 0,
 * or -1 when there are too few points to test (the result then holds the
 * single line and found = false). */
int cpm_breakpoint_search(const double *x, const double *y, size_t n, size_t min_segment,
                          double alpha, struct cpm_break *out);

#endif
