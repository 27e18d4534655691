/* cpm_hier_fill: a flat model from the models of measured links; see
 * cpm_hier_fill.h. */
#include "cpm_hier_fill.h"

#include <stdio.h>
#include <string.h>

#include "cpm_hockney.h"
#include "cpm_lininterp.h"
#include "cpm_plogp.h"
#include "err.h"

/* What filling needs of a kind: a model of n processes shaped like a link
 * model (its message sizes), whether a link model has that shape, and the
 * copy of a link model's one pair into pair index k. */
struct fill_ops {
    const struct cpm_model_kind *kind;
    void *(*alloc)(int n, const void *like);
    bool (*same_shape)(const void *a, const void *b);
    void (*copy)(void *model, size_t k, const void *link);
};

static void *hockney_alloc(int n, const void *like)
{
    (void)like;
    return cpm_hockney_alloc(n);
}
static bool any_shape(const void *a, const void *b)
{
    (void)a;
    (void)b;
    return true;
}
static void hockney_copy(void *model, size_t k, const void *link)
{
    struct cpm_hockney *m = model;
    const struct cpm_hockney *l = link;
    m->a[k] = l->a[0];
    m->b[k] = l->b[0];
}

static bool same_sizes(const double *a, size_t na, const double *b, size_t nb)
{
    return na == nb && memcmp(a, b, na * sizeof *a) == 0;
}

static void *lininterp_alloc(int n, const void *like)
{
    const struct cpm_lininterp *l = like;
    struct cpm_lininterp *m = cpm_lininterp_alloc(n, l->num_points);
    if (m)
        memcpy(m->sizes, l->sizes, l->num_points * sizeof *l->sizes);
    return m;
}
static bool lininterp_shape(const void *a, const void *b)
{
    const struct cpm_lininterp *x = a, *y = b;
    return same_sizes(x->sizes, x->num_points, y->sizes, y->num_points);
}
static void lininterp_copy(void *model, size_t k, const void *link)
{
    struct cpm_lininterp *m = model;
    const struct cpm_lininterp *l = link;
    memcpy(m->times + k * m->num_points, l->times, m->num_points * sizeof *l->times);
}

static void *plogp_alloc(int n, const void *like)
{
    const struct cpm_plogp *l = like;
    struct cpm_plogp *m = cpm_plogp_alloc(n, l->num_points);
    if (m)
        memcpy(m->sizes, l->sizes, l->num_points * sizeof *l->sizes);
    return m;
}
static bool plogp_shape(const void *a, const void *b)
{
    const struct cpm_plogp *x = a, *y = b;
    return same_sizes(x->sizes, x->num_points, y->sizes, y->num_points);
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

static const struct fill_ops *ops_of(const struct cpm_model_kind *kind)
{
    static const struct fill_ops ops[] = {
        {&cpm_hockney_kind, hockney_alloc, any_shape, hockney_copy},
        {&cpm_lininterp_kind, lininterp_alloc, lininterp_shape, lininterp_copy},
        {&cpm_plogp_kind, plogp_alloc, plogp_shape, plogp_copy},
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
        if (!ops->same_shape(links[0], links[k])) {
            snprintf(err, errlen, "links 0 and %zu were measured at other message sizes", k);
            return -1;
        }
    int n = (int)h->nleaves;
    void *m = ops->alloc(n, links[0]);
    if (!m)
        err_fatal("out of memory for a %s model of %d processes", kind->name, n);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            ops->copy(m, cpm_pair_index(n, i, j),
                      links[cpm_hier_plan_link(h, p, (size_t)i, (size_t)j)]);
    *model = m;
    return 0;
}
