/* culprit: nodes and links named from a network map; see culprit.h. */
#include "culprit.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

const char *const culprit_dir_names[CULPRIT_NDIRS] = {"sender", "receiver"};
const struct culprit_rule culprit_default_rule = {3.0, 0.10};

static const char few_nodes[] = "fewer than 4 nodes with figures";
static const char few_pairs[] = "fewer than 4 measured pairs between nodes not named";

/* Whether the matrix can be addressed at all. */
static bool matrix_ok(const double *m, size_t n)
{
    if (n > 0 && (!m || n > SIZE_MAX / n / sizeof *m)) {
        errno = EINVAL;
        return false;
    }
    return true;
}

/* The measured off-diagonal entries of node's row (send) or column
 * (receive) into out, which has room for n; returns how many. */
static size_t gather(const double *m, size_t n, size_t node, enum culprit_dir dir, double *out)
{
    size_t k = 0;
    for (size_t other = 0; other < n; other++) {
        if (other == node)
            continue;
        double v = dir == CULPRIT_SEND ? m[node * n + other] : m[other * n + node];
        if (!isnan(v))
            out[k++] = v;
    }
    return k;
}

/* Median of x[0..k), k > 0, sorting x in place. stats_median would copy,
 * and its failure to allocate would read as a NaN median. */
static double median_in_place(double *x, size_t k)
{
    stats_sort(x, k);
    return stats_percentile_sorted(x, k, 50.0);
}

/* M and MAD of x[0..k), k > 0; x is used as scratch. */
static void median_mad(double *x, size_t k, double *med, double *mad)
{
    *med = median_in_place(x, k);
    for (size_t i = 0; i < k; i++)
        x[i] = fabs(x[i] - *med);
    *mad = median_in_place(x, k);
}

int culprit_node_stats(const double *m, size_t n, size_t node, enum culprit_dir dir,
                       struct culprit_node_stats *s)
{
    *s = (struct culprit_node_stats){0, NAN, NAN, NAN};
    if (!matrix_ok(m, n))
        return -1;
    if (node >= n || (dir != CULPRIT_SEND && dir != CULPRIT_RECV)) {
        errno = EINVAL;
        return -1;
    }
    double *x = malloc(n * sizeof *x);
    if (!x)
        return -1;
    size_t k = gather(m, n, node, dir, x);
    if (k > 0) {
        s->count = k;
        s->median = median_in_place(x, k);
        s->min = x[0];
        s->max = x[k - 1];
    }
    free(x);
    return 0;
}

bool culprit_is_worse(double x, double ref, double mad, enum culprit_sense sense,
                      const struct culprit_rule *rule)
{
    if (sense == CULPRIT_HIGHER_BETTER)
        return x < ref - rule->mads * mad && x < (1.0 - rule->min_worse) * ref;
    return x > ref + rule->mads * mad && x > (1.0 + rule->min_worse) * ref;
}

double culprit_worse_pct(double x, double ref, enum culprit_sense sense)
{
    return 100.0 * (sense == CULPRIT_HIGHER_BETTER ? ref - x : x - ref) / ref;
}

static void not_judged(struct culprit_verdict *v, size_t count, const char *why)
{
    *v = (struct culprit_verdict){false, why, count, NAN, NAN};
}

/* Median of every node in each direction (NaN: no figure), and the verdict
 * over them. scratch has room for n. */
static void judge_directions(const double *m, size_t n, double *medians[CULPRIT_NDIRS],
                             double *scratch, struct culprit_findings *f)
{
    for (int d = 0; d < CULPRIT_NDIRS; d++) {
        for (size_t i = 0; i < n; i++) {
            size_t k = gather(m, n, i, (enum culprit_dir)d, scratch);
            medians[d][i] = k ? median_in_place(scratch, k) : NAN;
        }
        size_t c = 0;
        for (size_t i = 0; i < n; i++)
            if (!isnan(medians[d][i]))
                scratch[c++] = medians[d][i];
        struct culprit_verdict *v = &f->node_verdict[d];
        if (c < CULPRIT_MIN_JUDGED) {
            not_judged(v, c, few_nodes);
            continue;
        }
        *v = (struct culprit_verdict){true, NULL, c, NAN, NAN};
        median_mad(scratch, c, &v->ref, &v->mad);
    }
}

/* The named nodes, in order, into out (NULL: only counted); marks them in
 * named. Returns how many. */
static size_t name_nodes(double *const medians[CULPRIT_NDIRS], size_t n, enum culprit_sense sense,
                         const struct culprit_rule *rule, struct culprit_findings *f,
                         struct culprit_node *out, bool *named)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        for (int d = 0; d < CULPRIT_NDIRS; d++) {
            const struct culprit_verdict *v = &f->node_verdict[d];
            double x = medians[d][i];
            if (!v->judged || isnan(x) || !culprit_is_worse(x, v->ref, v->mad, sense, rule))
                continue;
            named[i] = true;
            if (out)
                out[k] = (struct culprit_node){i, (enum culprit_dir)d, x, v->ref, v->mad,
                                               culprit_worse_pct(x, v->ref, sense)};
            k++;
        }
    return k;
}

/* The entries between nodes not named, the pair verdict over them, and the
 * named pairs. Returns 0 or -1 (out of memory). */
static int judge_pairs(const double *m, size_t n, enum culprit_sense sense,
                       const struct culprit_rule *rule, const bool *named,
                       struct culprit_findings *f)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            c += i != j && !named[i] && !named[j] && !isnan(m[i * n + j]);
    struct culprit_verdict *v = &f->pair_verdict;
    if (c < CULPRIT_MIN_JUDGED) {
        not_judged(v, c, few_pairs);
        return 0;
    }
    double *x = malloc(c * sizeof *x);
    if (!x)
        return -1;
    c = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            if (i != j && !named[i] && !named[j] && !isnan(m[i * n + j]))
                x[c++] = m[i * n + j];
    *v = (struct culprit_verdict){true, NULL, c, NAN, NAN};
    median_mad(x, c, &v->ref, &v->mad);
    free(x);

    size_t k = 0;
    for (int pass = 0; pass < 2; pass++) {
        k = 0;
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++) {
                double e = m[i * n + j];
                if (i == j || named[i] || named[j] || isnan(e) ||
                    !culprit_is_worse(e, v->ref, v->mad, sense, rule))
                    continue;
                if (pass == 1)
                    f->pairs[k] = (struct culprit_pair){i, j, e, v->ref, v->mad,
                                                        culprit_worse_pct(e, v->ref, sense)};
                k++;
            }
        if (pass == 0) {
            if (k == 0)
                break;
            f->pairs = malloc(k * sizeof *f->pairs);
            if (!f->pairs)
                return -1;
        }
    }
    f->n_pairs = k;
    return 0;
}

static bool rule_ok(const struct culprit_rule *r)
{
    return r->mads >= 0 && r->min_worse >= 0 && r->min_worse < 1;
}

int culprit_find(const double *m, size_t n, enum culprit_sense sense,
                 const struct culprit_rule *rule, struct culprit_findings *f)
{
    memset(f, 0, sizeof *f);
    if (!rule)
        rule = &culprit_default_rule;
    if (!matrix_ok(m, n))
        return -1;
    if (!rule_ok(rule) || (sense != CULPRIT_HIGHER_BETTER && sense != CULPRIT_LOWER_BETTER)) {
        errno = EINVAL;
        return -1;
    }
    /* One block: both directions' medians, a scratch row, the named marks. */
    size_t slots = n ? n : 1;
    double *block = malloc(3 * slots * sizeof *block);
    bool *named = calloc(slots, sizeof *named);
    int rc = -1;
    if (!block || !named)
        goto out;
    double *medians[CULPRIT_NDIRS] = {block, block + slots};
    judge_directions(m, n, medians, block + 2 * slots, f);
    size_t k = name_nodes(medians, n, sense, rule, f, NULL, named);
    if (k > 0) {
        f->nodes = malloc(k * sizeof *f->nodes);
        if (!f->nodes)
            goto out;
        f->n_nodes = name_nodes(medians, n, sense, rule, f, f->nodes, named);
    }
    rc = judge_pairs(m, n, sense, rule, named, f);
out:
    free(block);
    free(named);
    if (rc != 0) {
        culprit_free(f);
        errno = ENOMEM;
    }
    return rc;
}

int culprit_find_classed(const double *m, size_t n, enum culprit_sense sense,
                         const struct culprit_rule *rule, culprit_class_fn class_of,
                         const void *ctx, size_t nclasses, struct culprit_findings *f)
{
    memset(f, 0, sizeof *f);
    if (!matrix_ok(m, n))
        return -1;
    if (!class_of || nclasses == 0 || nclasses > CULPRIT_MAX_CLASSES) {
        errno = EINVAL;
        return -1;
    }
    size_t cells = n ? n * n : 1;
    double *ratio = malloc(cells * sizeof *ratio), *x = malloc(cells * sizeof *x);
    double ref[CULPRIT_MAX_CLASSES];
    size_t count[CULPRIT_MAX_CLASSES];
    int rc = -1;
    if (!ratio || !x)
        goto out;
    for (size_t c = 0; c < nclasses; c++) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++)
                if (i != j && !isnan(m[i * n + j]) && class_of(i, j, ctx) == c)
                    x[k++] = m[i * n + j];
        count[c] = k;
        ref[c] = k ? median_in_place(x, k) : NAN;
    }
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            double v = m[i * n + j];
            unsigned c = i == j ? 0 : class_of(i, j, ctx);
            ratio[i * n + j] = i == j || isnan(v) || c >= nclasses || !(ref[c] > 0) ? NAN
                                                                                  : v / ref[c];
        }
    rc = culprit_find(ratio, n, sense, rule, f);
    if (rc == 0) {
        f->classed = true;
        f->nclasses = nclasses;
        for (size_t c = 0; c < nclasses; c++) {
            f->class_ref[c] = ref[c];
            f->class_count[c] = count[c];
        }
    }
out:
    free(ratio);
    free(x);
    if (rc != 0 && errno != EINVAL)
        errno = ENOMEM;
    return rc;
}

void culprit_free(struct culprit_findings *f)
{
    free(f->nodes);
    free(f->pairs);
    memset(f, 0, sizeof *f);
}
