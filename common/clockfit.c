/* clockfit: offsets, their linear fit and the skew hook's arithmetic; see clockfit.h. */
#include "clockfit.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* How far a point's offset lies from the model's. */
static double residual(const struct clockfit_model *m, const struct clockfit_point *q)
{
    return q->offset - (m->offset + m->drift * (q->local - m->ref));
}

void clockfit_exchange(double sent, double remote, double received, struct clockfit_point *best)
{
    double rtt = received - sent;
    if (rtt >= best->rtt)
        return;
    best->rtt = rtt;
    best->local = sent + rtt / 2;
    best->offset = remote - best->local;
}

/* The least-squares line through the points marked in keep. Unweighted:
 * on shared cores the round trips fall into a fast and a slow group, and
 * the fast group's offsets were seen to scatter more, not less, so a
 * shorter round trip earns no more trust once it passed the filter. */
static void fit_line(const struct clockfit_point *p, size_t n, const unsigned char *keep,
                     bool with_drift, struct clockfit_model *m)
{
    /* Sums relative to the first point: clocks of different hosts can be
     * days apart, and their offsets' microseconds must survive the sums. */
    double x0 = p[0].local, y0 = p[0].offset, sx = 0, sy = 0;
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (keep[i]) {
            sx += p[i].local - x0;
            sy += p[i].offset - y0;
            kept++;
        }
    double mx = sx / (double)kept, my = sy / (double)kept, sxx = 0, sxy = 0;
    for (size_t i = 0; i < n; i++)
        if (keep[i]) {
            double dx = p[i].local - x0 - mx;
            sxx += dx * dx;
            sxy += dx * (p[i].offset - y0 - my);
        }
    m->ref = x0 + mx;
    m->offset = y0 + my;
    m->drift = with_drift && sxx > 0 ? sxy / sxx : 0;
    m->used = kept;
    double ss = 0;
    for (size_t i = 0; i < n; i++)
        if (keep[i]) {
            double e = residual(m, &p[i]);
            ss += e * e;
        }
    size_t params = with_drift ? 2 : 1;
    m->resid_sd = kept > params ? sqrt(ss / (double)(kept - params)) : 0;
}

int clockfit_fit(const struct clockfit_point *p, size_t n, bool with_drift,
                 struct clockfit_model *m)
{
    if (n == 0)
        return -1;
    unsigned char *keep = malloc(n);
    double *dev = malloc(n * sizeof *dev);
    if (!keep || !dev) {
        free(keep);
        free(dev);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        dev[i] = p[i].rtt;
    double limit = CLOCKFIT_RTT_LIMIT * stats_median(dev, n);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        kept += keep[i] = p[i].rtt <= limit;
    if (kept < 2) {
        memset(keep, 1, n);
        kept = n;
    }
    fit_line(p, n, keep, with_drift, m);
    /* A point can be wrong with a fast round trip too (a rank preempted
     * between the clock reading and the send): those far off the line,
     * by the median absolute deviation, are left out of a second fit. */
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (keep[i])
            dev[k++] = fabs(residual(m, &p[i]));
    double cut = fmax(CLOCKFIT_OUTLIER * 1.4826 * stats_median(dev, k), CLOCKFIT_FLOOR);
    size_t left = 0;
    for (size_t i = 0; i < n; i++)
        left += keep[i] && fabs(residual(m, &p[i])) <= cut;
    if (left >= 2 && left < kept) {
        for (size_t i = 0; i < n; i++)
            keep[i] = keep[i] && fabs(residual(m, &p[i])) <= cut;
        fit_line(p, n, keep, with_drift, m);
    }
    free(keep);
    free(dev);
    return 0;
}

double clockfit_map(const struct clockfit_model *m, double local)
{
    return local + m->offset + m->drift * (local - m->ref);
}

/* One signed, finite number of the skew text up to its delimiter. */
static int skew_field(const char **text, char delim, const char *what, double *out, char *err,
                      size_t errlen)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(*text, &end);
    if (end == *text || *end != delim || errno == ERANGE || !isfinite(v)) {
        snprintf(err, errlen, "invalid %s in '%s'", what, *text);
        return -1;
    }
    *out = v;
    *text = delim ? end + 1 : end;
    return 0;
}

int clockfit_parse_skew(const char *text, struct clockfit_skew *s, char *err, size_t errlen)
{
    const char *form = "RANK:OFFSET_US:DRIFT_PPM";
    const char *at = text;
    double rank, offset_us, drift_ppm;
    if (skew_field(&at, ':', "rank", &rank, err, errlen) ||
        skew_field(&at, ':', "offset", &offset_us, err, errlen) ||
        skew_field(&at, '\0', "drift", &drift_ppm, err, errlen)) {
        size_t used = strlen(err);
        snprintf(err + used, errlen > used ? errlen - used : 0, " (want %s)", form);
        return -1;
    }
    if (rank < 0 || rank > 1e9 || rank != floor(rank)) {
        snprintf(err, errlen, "invalid rank in '%s' (want %s)", text, form);
        return -1;
    }
    if (fabs(drift_ppm) > 1e5) {
        snprintf(err, errlen, "drift %g ppm in '%s' is beyond +-100000 ppm", drift_ppm, text);
        return -1;
    }
    s->rank = (int)rank;
    s->offset = offset_us * 1e-6;
    s->drift = drift_ppm * 1e-6;
    return 0;
}

double clockfit_skewed(const struct clockfit_skew *s, double t, double base)
{
    return t + s->offset + s->drift * (t - base);
}
