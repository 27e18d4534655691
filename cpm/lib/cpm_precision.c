/* cpm_precision: the stopping rule of repeated experiments; see cpm_measure.h. */
#include "cpm_measure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "stats.h"

void cpm_result_pack(const struct cpm_result *r, double *d)
{
    d[0] = (double)r->size;
    d[1] = r->time;
    d[2] = (double)r->reps;
    d[3] = r->ci;
    d[4] = r->above_wtick;
    d[5] = r->max_time;
    d[6] = r->median;
    d[7] = r->p5;
    d[8] = r->p95;
    d[9] = r->cv;
}

void cpm_result_unpack(const double *d, struct cpm_result *r)
{
    r->size = (size_t)d[0];
    r->time = d[1];
    r->reps = (size_t)d[2];
    r->ci = d[3];
    r->above_wtick = d[4] != 0.0;
    r->max_time = d[5];
    r->median = d[6];
    r->p5 = d[7];
    r->p95 = d[8];
    r->cv = d[9];
}

double cpm_wtick(void)
{
    int initialized = 0, finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    return initialized && !finalized ? MPI_Wtick() : 0.0;
}

void cpm_sampler_init(struct cpm_sampler *s, const struct cpm_precision *p)
{
    s->precision = *p;
    s->n = 0;
    s->samples = malloc((p->max_reps ? p->max_reps : 1) * sizeof *s->samples);
    if (!s->samples)
        err_fatal("out of memory for %zu samples", p->max_reps);
}

void cpm_sampler_free(struct cpm_sampler *s)
{
    free(s->samples);
    s->samples = NULL;
}

bool cpm_precision_reached(const struct cpm_precision *p, const double *x, size_t n)
{
    if (n >= p->max_reps)
        return true;
    if (n < p->min_reps || n < 2)
        return false;
    double mean = stats_mean(x, n);
    double half = stats_t_halfwidth(stats_stddev(x, n), n, p->cl);
    return half <= p->eps * fabs(mean);
}

bool cpm_sampler_add(struct cpm_sampler *s, double t)
{
    if (s->n < s->precision.max_reps)
        s->samples[s->n++] = t;
    return cpm_precision_reached(&s->precision, s->samples, s->n);
}

void cpm_sampler_result(const struct cpm_sampler *s, size_t size, struct cpm_result *r)
{
    r->size = size;
    r->reps = s->n;
    r->time = s->n ? stats_mean(s->samples, s->n) : 0.0;
    r->ci = stats_t_halfwidth(stats_stddev(s->samples, s->n), s->n, s->precision.cl);
    r->above_wtick = r->time > cpm_wtick();
    r->max_time = s->n ? stats_max(s->samples, s->n) : 0.0;
    struct stats_dispersion d = {0.0, 0.0, 0.0, NAN};
    double *sorted = s->n ? malloc(s->n * sizeof *sorted) : NULL;
    if (s->n && !sorted)
        err_fatal("out of memory for %zu samples", s->n);
    if (sorted) {
        memcpy(sorted, s->samples, s->n * sizeof *sorted);
        stats_sort(sorted, s->n);
        stats_dispersion_sorted(sorted, s->n, &d);
    }
    free(sorted);
    r->median = d.median;
    r->p5 = d.p5;
    r->p95 = d.p95;
    r->cv = d.cv;
}

int cpm_precision_check(const struct cpm_precision *p, char *err, size_t errlen)
{
    if (p->min_reps < 1)
        snprintf(err, errlen, "minimum repetitions must be at least 1");
    else if (p->max_reps < p->min_reps)
        snprintf(err, errlen, "maximum repetitions (%zu) below minimum (%zu)", p->max_reps,
                 p->min_reps);
    else if (!(p->cl > 0.0 && p->cl < 1.0))
        snprintf(err, errlen, "confidence level %g is not in (0, 1)", p->cl);
    else if (!(p->eps > 0.0 && p->eps < 1.0))
        snprintf(err, errlen, "relative error %g is not in (0, 1)", p->eps);
    else
        return 0;
    return -1;
}
