/* cpm_hier_fill: a flat model from the models of measured links; see
 * cpm_hier_fill.h. */
#include "cpm_hier_fill.h"

#include <stdio.h>
#include <string.h>

#include "cpm_hockney.h"
#include "cpm_lininterp.h"
#include "cpm_plogp.h"
#include "err.h"

/* What filling needs of a kind: a model of n processes with room for
 * points message sizes, where its sizes are (NULL for a model without
 * them), and the copy of a link model's one pair into pair index k. */
struct fill_ops {
    const struct cpm_model_kind *kind;
    void *(*alloc)(int n, size_t points);
    double *(*sizes)(const void *model, size_t *points);
    void (*copy)(void *model, size_t k, const void *link);
};

static void *hockney_alloc(int n, size_t points)
{
    (void)points;
    return cpm_hockney_alloc(n);
}
static double *no_sizes(const void *model, size_t *points)
{
    (void)model;
    *points = 0;
    return NULL;
}
static void hockney_copy(void *model, size_t k, const void *link)
{
    struct cpm_hockney *m = model;
    const struct cpm_hockney *l = link;
    m->a[k] = l->a[0];
    m->b[k] = l->b[0];
}

static void *lininterp_alloc(int n, size_t points) { return cpm_lininterp_alloc(n, points); }
static double *lininterp_sizes(const void *model, size_t *points)
{
    const struct cpm_lininterp *l = model;
    *points = l->num_points;
    return l->sizes;
}
static void lininterp_copy(void *model, size_t k, const void *link)
{
    struct cpm_lininterp *m = model;
    const struct cpm_lininterp *l = link;
    memcpy(m->times + k * m->num_points, l->times, m->num_points * sizeof *l->times);
}

static void *plogp_alloc(int n, size_t points) { return cpm_plogp_alloc(n, points); }
static double *plogp_sizes(const void *model, size_t *points)
{
    const struct cpm_plogp *p = model;
    *points = p->num_points;
    return p->sizes;
}
static void plogp_copy(void *model, size_t k, const void *link)
{
    struct cpm_plogp *m = model;
    const struct cpm_plogp_pair *from = &((const struct cpm_plogp *)link)->pairs[0];
    struct cpm_plogp_pair *to = &m->pairs[k];
    size_t bytes = m->num_points * sizeof *from->g;
    to->L = from->L;
    memcpy(to->os, from->os, bytes);
    memcpy(to->orecv, from->orecv, bytes);
    memcpy(to->g, from->g, bytes);
}

/* Whether two models were measured at the same message sizes. */
static bool same_sizes(const struct fill_ops *ops, const void *a, const void *b)
{
    size_t na, nb;
    const double *sa = ops->sizes(a, &na), *sb = ops->sizes(b, &nb);
    return na == nb && (na == 0 || memcmp(sa, sb, na * sizeof *sa) == 0);
}

static const struct fill_ops *ops_of(const struct cpm_model_kind *kind)
{
    static const struct fill_ops ops[] = {
        {&cpm_hockney_kind, hockney_alloc, no_sizes, hockney_copy},
        {&cpm_lininterp_kind, lininterp_alloc, lininterp_sizes, lininterp_copy},
        {&cpm_plogp_kind, plogp_alloc, plogp_sizes, plogp_copy},
    };
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
        if (ops[k].kind == kind)
            return &ops[k];
    return NULL;
}

bool cpm_hier_fill_takes(const struct cpm_model_kind *kind) { return ops_of(kind) != NULL; }

int cpm_hier_fill(const struct cpm_model_kind *kind, const struct cpm_hier *h,
                  const struct cpm_hier_plan *p, void *const *links, void **model, char *err,
                  size_t errlen)
{
    const struct fill_ops *ops = ops_of(kind);
    *model = NULL;
    if (!ops || p->nlinks == 0 || h->nleaves > CPM_MAX_PROCESSES) {
        snprintf(err, errlen, "a %s model cannot be filled from %zu links for %zu hosts",
                 kind->name, p->nlinks, h->nleaves);
        return -1;
    }
    for (size_t k = 1; k < p->nlinks; k++)
        if (!same_sizes(ops, links[0], links[k])) {
            snprintf(err, errlen, "links 0 and %zu were measured at other message sizes", k);
            return -1;
        }
    int n = (int)h->nleaves;
    size_t points;
    const double *sizes = ops->sizes(links[0], &points);
    void *m = ops->alloc(n, points);
    if (!m)
        err_fatal("out of memory for a %s model of %d processes", kind->name, n);
    if (points)
        memcpy(ops->sizes(m, &points), sizes, points * sizeof *sizes);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            ops->copy(m, cpm_pair_index(n, i, j),
                      links[cpm_hier_plan_link(h, p, (size_t)i, (size_t)j)]);
    *model = m;
    return 0;
}
