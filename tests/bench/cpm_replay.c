/* cpm_replay: the predictions cpm_lmo_replay compares; see cpm_replay.h. */
#include "cpm_replay.h"

#include <math.h>
#include <stdlib.h>

#include "cpm_lmo.h"

const char *const cpm_replay_names[CPM_REPLAY_KINDS] = {"medians", "means", "seed", "p2p"};

static double sizes_of(const struct cpm_dump *d, int s) { return s ? (double)d->m : 1024.0; }

/* The value of triplet t's round trip k (1, 2: to the root's next and the
 * one after; + 3 at M) as root q timed it. */
static double rt_from(const struct cpm_dump_round *r, size_t t, int q, int other, bool full)
{
    int k = other == (q + 1) % 3 ? 1 : 2;
    return r->r[k + (full ? 3 : 0)][3 * t + (size_t)q].time;
}

static bool predict_medians(const struct cpm_dump *d, const struct cpm_dump_round *r, double *pred)
{
    struct cpm_result *rt0[2] = {r->r[1], r->r[2]}, *rtm[2] = {r->r[4], r->r[5]};
    struct cpm_lmo_data data = {d->m, NULL, NULL, r->r[0], r->r[3], rt0, rtm};
    struct cpm_lmo *l = cpm_lmo_alloc(d->n, false);
    char err[300];
    bool ok = l && cpm_lmo_solve(l, &data, 0.95, err, sizeof err) == 0;
    for (size_t k = 0; ok && k < cpm_pairs(d->n); k++) {
        int i, j;
        cpm_pair_at(d->n, k, &i, &j);
        for (int s = 0; s < 2; s++)
            pred[2 * k + (size_t)s] =
                cpm_lmo_predict_p2p(&l->predictor, i, j, (size_t)sizes_of(d, s));
    }
    cpm_lmo_free(l);
    return ok;
}

static bool predict_means(const struct cpm_dump *d, const struct cpm_dump_round *r, double *pred)
{
    size_t pairs = cpm_pairs(d->n);
    double *sum = calloc(2 * pairs, sizeof *sum);
    if (!sum)
        return false;
    for (size_t t = 0; t < cpm_triplets(d->n); t++) {
        int v[3];
        cpm_triplet_at(d->n, t, &v[0], &v[1], &v[2]);
        for (int q = 0; q < 3; q++)
            for (int o = 1; o <= 2; o++) {
                size_t k = cpm_pair_index(d->n, v[q], v[(q + o) % 3]);
                sum[2 * k] += rt_from(r, t, q, (q + o) % 3, false);
                sum[2 * k + 1] += rt_from(r, t, q, (q + o) % 3, true);
            }
    }
    double each = 2.0 * (d->n - 2), m = (double)d->m;
    for (size_t k = 0; k < pairs; k++) {
        double t0 = sum[2 * k] / each, tm = sum[2 * k + 1] / each;
        for (int s = 0; s < 2; s++)
            pred[2 * k + (size_t)s] = t0 / 2.0 + sizes_of(d, s) * fmax(tm - t0, 0.0) / (2.0 * m);
    }
    free(sum);
    return true;
}

/* Round trip between positions a and b of triplet t, both directions
 * averaged, at 0 or M bytes. */
static double rt_both(const struct cpm_dump_round *r, size_t t, int a, int b, bool full)
{
    return (rt_from(r, t, a, b, full) + rt_from(r, t, b, a, full)) / 2.0;
}

/* The seed's order, with the equations of cpm_lmo_estimate.c: sums of C,
 * t and their count per process (proc) and of L, 1/beta and their count
 * per pair (link) over the triplets, then their means. */
static bool predict_seed(const struct cpm_dump *d, const struct cpm_dump_round *r, double *pred)
{
    int n = d->n;
    size_t pairs = cpm_pairs(n);
    double m = (double)d->m, *proc = calloc(3 * (size_t)n, sizeof *proc);
    double *link = calloc(3 * pairs, sizeof *link);
    if (!proc || !link) {
        free(proc);
        free(link);
        return false;
    }
    for (size_t t = 0; t < cpm_triplets(n); t++) {
        int v[3];
        double c[3], tv[3];
        cpm_triplet_at(n, t, &v[0], &v[1], &v[2]);
        for (int q = 0; q < 3; q++) {
            int x = (q + 1) % 3, y = (q + 2) % 3;
            c[q] = (r->r[0][3 * t + (size_t)q].time -
                    fmax(rt_both(r, t, q, x, false), rt_both(r, t, q, y, false))) /
                   2.0;
            double both_x = (rt_both(r, t, q, x, false) + rt_both(r, t, q, x, true)) / 2.0;
            double both_y = (rt_both(r, t, q, y, false) + rt_both(r, t, q, y, true)) / 2.0;
            tv[q] = (r->r[3][3 * t + (size_t)q].time - fmax(both_x, both_y) - 2.0 * c[q]) / m;
            double *p = proc + 3 * (size_t)v[q];
            p[0] += c[q], p[1] += tv[q], p[2] += 1.0;
        }
        for (int q = 0; q < 3; q++) {
            int o = (q + 1) % 3;
            double t0 = rt_both(r, t, q, o, false), tm = rt_both(r, t, q, o, true);
            double *l = link + 3 * cpm_pair_index(n, v[q], v[o]);
            l[0] += t0 / 2.0 - c[q] - c[o];
            l[1] += (tm - t0) / (2.0 * m) - tv[q] - tv[o];
            l[2] += 1.0;
        }
    }
    for (size_t k = 0; k < pairs; k++) {
        int i, j;
        cpm_pair_at(n, k, &i, &j);
        const double *a = proc + 3 * (size_t)i, *b = proc + 3 * (size_t)j, *l = link + 3 * k;
        double fixed = a[0] / a[2] + b[0] / b[2] + l[0] / l[2];
        double per_byte = a[1] / a[2] + b[1] / b[2] + l[1] / l[2];
        for (int s = 0; s < 2; s++)
            pred[2 * k + (size_t)s] = fixed + sizes_of(d, s) * per_byte;
    }
    free(proc);
    free(link);
    return true;
}

/* The p2p block's one-way times at 1024 and M, as predictions. */
static bool predict_p2p(const struct cpm_dump *d, const struct cpm_dump_round *r, double *pred)
{
    for (size_t k = 0; k < cpm_pairs(d->n); k++)
        for (int s = 0; s < 2; s++)
            pred[2 * k + (size_t)s] = r->p2p[3 * k + 1 + (size_t)s] / 2.0;
    return true;
}

bool cpm_replay_predict(enum cpm_replay_kind kind, const struct cpm_dump *d,
                        const struct cpm_dump_round *r, double *pred)
{
    static bool (*const predict[CPM_REPLAY_KINDS])(const struct cpm_dump *,
                                                   const struct cpm_dump_round *, double *) = {
        predict_medians, predict_means, predict_seed, predict_p2p};
    return predict[kind](d, r, pred);
}
