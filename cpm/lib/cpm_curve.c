/* cpm_curve: fitted lines (Hockney, the breakpoint search) and the
 * piecewise-linear curves of the LinInterp and PLogP models; see cpm_model.h. */
#include "cpm_model.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_interp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "err.h"

double cpm_fit_line(const double *x, const double *y, size_t n, double *a, double *b)
{
    double cov00, cov01, cov11, ssr = 0.0;
    if (n < 2) {
        *a = n ? y[0] : 0.0;
        *b = 0.0;
        return 0.0;
    }
    gsl_fit_linear(x, 1, y, 1, n, a, b, &cov00, &cov01, &cov11, &ssr);
    return ssr;
}

static double residual(const double *x, const double *y, size_t n, double a, double b)
{
    double ssr = 0.0;
    for (size_t k = 0; k < n; k++) {
        double d = y[k] - (a + b * x[k]);
        ssr += d * d;
    }
    return ssr;
}

double cpm_fit_line_nonneg(const double *x, const double *y, size_t n, double *a, double *b,
                           bool *constrained)
{
    double ssr = cpm_fit_line(x, y, n, a, b);
    *constrained = false;
    if (*a >= 0.0 && *b >= 0.0)
        return ssr;
    /* The objective is convex, so the constrained optimum lies on a bound:
     * the best line through the origin (a = 0) or the best flat one (b = 0),
     * each clamped at 0, whichever fits better. */
    double sxy = 0.0, sxx = 0.0, sy = 0.0;
    for (size_t k = 0; k < n; k++) {
        sxy += x[k] * y[k];
        sxx += x[k] * x[k];
        sy += y[k];
    }
    double slope = sxx > 0.0 && sxy > 0.0 ? sxy / sxx : 0.0;
    double level = n > 0 && sy > 0.0 ? sy / (double)n : 0.0;
    double through_origin = residual(x, y, n, 0.0, slope);
    double flat = residual(x, y, n, level, 0.0);
    *constrained = true;
    if (through_origin <= flat) {
        *a = 0.0;
        *b = slope;
        return through_origin;
    }
    *a = level;
    *b = 0.0;
    return flat;
}

/* The sum of the absolute relative residuals |y - a - b x| / y. */
static double relative_cost(const double *x, const double *y, size_t n, double a, double b)
{
    double sum = 0.0;
    for (size_t k = 0; k < n; k++)
        sum += fabs(y[k] - a - b * x[k]) / y[k];
    return sum;
}

/* Keeps (a, b) as the best so far where it costs less (ties: the first). */
static void consider(const double *x, const double *y, size_t n, double a, double b,
                     double *best, double *best_a, double *best_b)
{
    double c = relative_cost(x, y, n, a, b);
    if (c < *best) {
        *best = c;
        *best_a = a;
        *best_b = b;
    }
}

/* The objective is convex and piecewise linear in (a, b), so its minimum
 * lies where two of its kinks cross: a line through two points, or, held
 * at a bound, through one point and the origin (a = 0) or flat through one
 * point (b = 0). All of them are tried: n is a message set's few sizes. */
static double fit_relative_l1(const double *x, const double *y, size_t n, bool bounded,
                              double *a, double *b)
{
    double best = HUGE_VAL;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            if (x[i] == x[j])
                continue;
            double slope = (y[j] - y[i]) / (x[j] - x[i]), level = y[i] - slope * x[i];
            if (!bounded || (slope >= 0.0 && level >= 0.0))
                consider(x, y, n, level, slope, &best, a, b);
        }
    for (size_t i = 0; bounded && i < n; i++) {
        if (x[i] > 0.0)
            consider(x, y, n, 0.0, y[i] / x[i], &best, a, b);
        consider(x, y, n, y[i], 0.0, &best, a, b);
    }
    return best;
}

double cpm_fit_line_relative(const double *x, const double *y, size_t n, double *a, double *b,
                             bool *constrained)
{
    bool positive = true, sizes_differ = false;
    for (size_t k = 0; k < n; k++) {
        positive = positive && y[k] > 0.0;
        sizes_differ = sizes_differ || x[k] != x[0];
    }
    /* A time of 0 has no relative residual, and one size no slope: the
     * plain fit then. */
    if (!positive || !sizes_differ)
        return cpm_fit_line_nonneg(x, y, n, a, b, constrained);
    double cost = fit_relative_l1(x, y, n, false, a, b);
    *constrained = !(*a >= 0.0 && *b >= 0.0);
    if (*constrained)
        cost = fit_relative_l1(x, y, n, true, a, b);
    return cost;
}

static double segment(const double *x, const double *y, size_t a, double at)
{
    return y[a] + (y[a + 1] - y[a]) * (at - x[a]) / (x[a + 1] - x[a]);
}

static double interpolate(const double *x, const double *y, size_t n, double at)
{
    if (n == 0)
        return 0.0;
    if (n == 1)
        return y[0];
    /* GSL refuses points outside the data: the end segments extend it. */
    if (at <= x[0])
        return segment(x, y, 0, at);
    if (at >= x[n - 1])
        return segment(x, y, n - 2, at);
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    double v = 0.0;
    gsl_interp *in = gsl_interp_alloc(gsl_interp_linear, n);
    if (in && gsl_interp_init(in, x, y, n) == GSL_SUCCESS &&
        gsl_interp_eval_e(in, x, y, at, NULL, &v) == GSL_SUCCESS) {
        gsl_interp_free(in);
        gsl_set_error_handler(old);
        return v;
    }
    if (in)
        gsl_interp_free(in);
    gsl_set_error_handler(old);
    /* Not strictly increasing x (a hand-edited file): search directly. */
    size_t a = 0;
    while (a + 2 < n && x[a + 1] < at)
        a++;
    return x[a + 1] > x[a] ? segment(x, y, a, at) : y[a];
}

double cpm_curve_eval(const double *x, const double *y, size_t n, double at)
{
    /* Extending the first segment below x[0] can cross 0. */
    double v = interpolate(x, y, n, at);
    return v > 0.0 ? v : 0.0;
}

bool cpm_make_nondecreasing(double *y, size_t n)
{
    if (n < 2)
        return false;
    double *sum = malloc(n * sizeof *sum);
    size_t *count = malloc(n * sizeof *count), blocks = 0;
    if (!sum || !count)
        err_fatal("out of memory for a curve of %zu points", n);
    for (size_t k = 0; k < n; k++) {
        sum[blocks] = y[k];
        count[blocks++] = 1;
        /* Pool the last block into the one before while its mean is lower. */
        while (blocks > 1 && sum[blocks - 1] * (double)count[blocks - 2] <
                                 sum[blocks - 2] * (double)count[blocks - 1]) {
            sum[blocks - 2] += sum[blocks - 1];
            count[blocks - 2] += count[blocks - 1];
            blocks--;
        }
    }
    bool changed = blocks < n;
    size_t k = 0;
    for (size_t b = 0; b < blocks; b++)
        for (size_t c = 0; c < count[b]; c++, k++) {
            y[k] = sum[b] / (double)count[b];
            /* The means rise; a division must not make one an ulp lower. */
            if (k > 0 && y[k] < y[k - 1])
                y[k] = y[k - 1];
        }
    free(sum);
    free(count);
    return changed;
}

void cpm_note_monotone(const char *model, const char *what, int adjusted, size_t pairs,
                       cpm_note_fn note, void *ctx)
{
    if (!adjusted)
        return;
    char text[400];
    snprintf(text, sizeof text,
             "%s warning: for %d of %zu pairs %s; those curves were replaced by the closest "
             "ones that never fall (falling runs pooled to their mean): measure with a "
             "tighter precision or more repetitions",
             model, adjusted, pairs, what);
    note(text, ctx);
}
