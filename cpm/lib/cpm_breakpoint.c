/* cpm_breakpoint: single-break least-squares search with an F test; see
 * cpm_breakpoint.h. */
#include "cpm_breakpoint.h"
#include "cpm_model.h"

#include <gsl/gsl_cdf.h>
#include <math.h>

int cpm_breakpoint_search(const double *x, const double *y, size_t n, size_t min_segment,
                          double alpha, struct cpm_break *out)
{
    if (min_segment < 2)
        min_segment = 2;
    double whole[2];
    double ssr0 = cpm_fit_line(x, y, n, &whole[0], &whole[1]);
    out->found = false;
    out->index = n;
    out->x = n ? x[n - 1] : 0.0;
    out->left[0] = out->right[0] = whole[0];
    out->left[1] = out->right[1] = whole[1];
    out->f = 0.0;
    out->p_value = 1.0;
    if (n < 2 * min_segment || n < 5)
        return -1;

    double best = INFINITY;
    for (size_t k = min_segment; k + min_segment <= n; k++) {
        double l[2], r[2];
        double ssr = cpm_fit_line(x, y, k, &l[0], &l[1]) +
                     cpm_fit_line(x + k, y + k, n - k, &r[0], &r[1]);
        if (ssr < best) {
            best = ssr;
            out->index = k;
            out->left[0] = l[0];
            out->left[1] = l[1];
            out->right[0] = r[0];
            out->right[1] = r[1];
        }
    }
    out->x = x[out->index];
    double dof = (double)(n - 4);
    if (best <= 0.0) {
        /* Two exact lines: a break unless one line was exact too. */
        out->f = ssr0 > 0.0 ? INFINITY : 0.0;
        out->p_value = ssr0 > 0.0 ? 0.0 : 1.0;
    } else {
        out->f = ((ssr0 - best) / 2.0) / (best / dof);
        out->p_value = out->f > 0.0 ? gsl_cdf_fdist_Q(out->f, 2.0, dof) : 1.0;
    }
    out->found = out->p_value < alpha;
    if (!out->found) {
        out->index = n;
        out->x = x[n - 1];
        out->left[0] = out->right[0] = whole[0];
        out->left[1] = out->right[1] = whole[1];
    }
    return 0;
}
