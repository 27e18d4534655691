/* cmp_test: one pair of rows compared; see cmp_test.h. */
#include "cmp_test.h"

#include <math.h>
#include <stdio.h>

#include "signif.h"

const char *cmp_method_name(enum cmp_method m)
{
    return m == CMP_WELCH ? "welch" : m == CMP_BOOTSTRAP ? "bootstrap" : "none";
}

static void untested(struct cmp_outcome *o, const char *why)
{
    o->method = CMP_UNTESTED;
    o->significant = -1;
    o->p = NAN;
    snprintf(o->verdict, sizeof o->verdict, "%s", why);
}

/* Why a pair with both values cannot be tested; NULL when it can. */
static const char *why_untested(const struct cmp_row *a, const struct cmp_row *b)
{
    if (a->nsamples >= CMP_MIN_ITERATIONS && b->nsamples >= CMP_MIN_ITERATIONS)
        return NULL;
    if (!a->has_spread || !b->has_spread)
        return a->averages_only || b->averages_only ? "averages only: not tested"
                                                    : "no spread: not tested";
    if (!a->iterations || !b->iterations)
        return "no iteration count: not tested";
    if (a->iterations < CMP_MIN_ITERATIONS || b->iterations < CMP_MIN_ITERATIONS)
        return "too few iterations: not tested";
    if (!(a->p95 >= a->p5 && b->p95 >= b->p5))
        return "P95 below P5: not tested";
    return NULL;
}

int cmp_test_pair(const struct cmp_pair *p, const struct cmp_table *t,
                  const struct cmp_settings *s, struct cmp_outcome *o)
{
    const struct cmp_row *a = p->a, *b = p->b;
    o->medians = a && b && a->has_spread && b->has_spread;
    o->a = !a ? NAN : o->medians ? a->median : a->main;
    o->b = !b ? NAN : o->medians ? b->median : b->main;
    o->ratio = o->b / o->a;
    if (!a || !b) {
        untested(o, a ? "only in A" : "only in B");
        return 0;
    }
    if (!isfinite(o->a) || !isfinite(o->b)) {
        untested(o, "no value: not tested");
        return 0;
    }
    const char *why = why_untested(a, b);
    if (why) {
        untested(o, why);
        return 0;
    }
    double diff;
    if (a->nsamples >= CMP_MIN_ITERATIONS && b->nsamples >= CMP_MIN_ITERATIONS &&
        a->nsamples + b->nsamples <= CMP_BOOTSTRAP_MAX_VALUES) {
        struct signif_boot boot;
        if (signif_bootstrap_median(a->samples, a->nsamples, b->samples, b->nsamples,
                                    CMP_RESAMPLES, s->seed, s->level, &boot) != 0)
            return -1;
        o->method = CMP_BOOTSTRAP;
        o->p = boot.p;
        diff = boot.diff;
    } else {
        struct signif_welch w;
        if (signif_welch(a->median, signif_median_spread(a->p5, a->p95), a->iterations,
                         b->median, signif_median_spread(b->p5, b->p95), b->iterations,
                         &w) != 0) {
            untested(o, "no spread: not tested");
            return 0;
        }
        o->method = CMP_WELCH;
        o->p = w.p;
        diff = b->median - a->median;
    }
    o->significant = o->p < 1.0 - s->level;
    if (!o->significant)
        snprintf(o->verdict, sizeof o->verdict, "not significant");
    else if (t->better == CMP_NOT_RANKED)
        snprintf(o->verdict, sizeof o->verdict, "significant");
    else
        snprintf(o->verdict, sizeof o->verdict, "significant: B %s",
                 (diff < 0) == (t->better == CMP_LOWER_BETTER) ? "better" : "worse");
    return 0;
}
