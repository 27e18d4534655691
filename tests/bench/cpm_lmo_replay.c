/* cpm_lmo_replay: LMO's estimators fed the same measurements, held to the
 * round trips measured beside them in the same launch.
 *   cpm_lmo_replay DUMP      (the output of cpm_lmo_dump; no MPI run)
 * For every complete round of the dump, the predictions of cpm_replay.h
 * (medians, means, seed, p2p) at 1024 and M bytes are held to the one-way
 * times of the p2p block of the round `lag` rounds later (lag 0, 1, 2, 5;
 * p2p from lag 1: how far the same measurement moves within one launch):
 * per round the median relative error over the pairs and both sizes, then
 * the median of those over the rounds, and the seconds between the two p2p
 * blocks ("apart"). Then the seed's predictions below 0, and the median
 * over pairs and rounds of prediction / measured - 1 at lag 1 for medians
 * and means (how far each lies above the next round's p2p). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpm_diag.h"
#include "cpm_replay.h"
#include "stats.h"

enum { KINDS = CPM_REPLAY_KINDS };

/* Every kind's predictions: pred[kind][per * round + 2 k + s]. */
struct replay {
    const struct cpm_dump *d;
    size_t per;
    double *pred[KINDS];
    bool *ok[KINDS];
    double *scratch; /* per * rounds values */
};

static double truth(const struct replay *x, size_t round, size_t at)
{
    return x->d->round[round].p2p[3 * (at / 2) + 1 + at % 2] / 2.0;
}

static bool usable(const struct replay *x, int kind, size_t r, size_t lag)
{
    return r + lag < x->d->rounds && x->ok[kind][r] && x->d->round[r + lag].complete;
}

/* The median over the rounds of each round's median error; NAN for none. */
static double median_error(const struct replay *x, int kind, size_t lag, size_t *rounds)
{
    double *per_round = x->scratch + x->per; /* after one round's errors */
    *rounds = 0;
    for (size_t r = 0; r < x->d->rounds; r++) {
        if (!usable(x, kind, r, lag))
            continue;
        for (size_t a = 0; a < x->per; a++)
            x->scratch[a] = cpm_diag_rel_err(x->pred[kind][r * x->per + a], truth(x, r + lag, a));
        per_round[(*rounds)++] = stats_median(x->scratch, x->per);
    }
    return *rounds ? stats_median(per_round, *rounds) : NAN;
}

/* Seconds between the p2p blocks lag rounds apart: "lo..hi" or "-". */
static void apart(const struct replay *x, size_t lag, char *text, size_t len)
{
    double lo = INFINITY, hi = -INFINITY;
    for (size_t r = 0; lag && r + lag < x->d->rounds; r++) {
        double s = x->d->round[r + lag].clock - x->d->round[r].clock;
        if (isfinite(s)) {
            lo = fmin(lo, s);
            hi = fmax(hi, s);
        }
    }
    if (isfinite(lo))
        snprintf(text, len, "%.2f..%.2f", lo, hi);
    else
        snprintf(text, len, "-");
}

/* Median over pairs and rounds of prediction / measured - 1 at size s. */
static double shift(const struct replay *x, int kind, int s)
{
    size_t count = 0;
    for (size_t r = 0; r < x->d->rounds; r++)
        for (size_t a = (size_t)s; usable(x, kind, r, 1) && a < x->per; a += 2)
            x->scratch[count++] = log2(x->pred[kind][r * x->per + a] / truth(x, r + 1, a));
    return count ? exp2(stats_median(x->scratch, count)) - 1.0 : NAN;
}

static void report(const struct replay *x, const char *path)
{
    const struct cpm_dump *d = x->d;
    size_t complete = 0, negative = 0, seed = 0;
    for (size_t r = 0; r < d->rounds; r++) {
        complete += d->round[r].complete;
        for (size_t a = 0; x->ok[CPM_REPLAY_SEED][r] && a < x->per; a++, seed++)
            negative += x->pred[CPM_REPLAY_SEED][r * x->per + a] < 0.0;
    }
    printf("# cpm_lmo_replay %s: %d processes, %zu complete rounds of %zu, M %zu bytes\n"
           "# predictions of round r held to the p2p of round r + lag, one way at 1024 and %zu "
           "bytes: the median over the rounds of each round's median relative error\n"
           "# lag rounds apart(s)",
           path, d->n, complete, d->rounds, d->m, d->m);
    for (int kind = 0; kind < KINDS; kind++)
        printf(" %8s", cpm_replay_names[kind]);
    printf("\n");
    static const size_t lags[] = {0, 1, 2, 5};
    for (size_t g = 0; g < sizeof lags / sizeof lags[0]; g++) {
        char text[40];
        size_t rounds, most = 0;
        apart(x, lags[g], text, sizeof text);
        double e[KINDS];
        for (int kind = 0; kind < KINDS; kind++) {
            e[kind] = median_error(x, kind, lags[g], &rounds);
            most = rounds > most ? rounds : most;
        }
        printf("%5zu %6zu %9s", lags[g], most, text);
        for (int kind = 0; kind < KINDS; kind++)
            if ((kind == CPM_REPLAY_P2P && lags[g] == 0) || isnan(e[kind]))
                printf(" %8s", "-");
            else
                printf(" %7.1f%%", 100.0 * e[kind]);
        printf("\n");
    }
    printf("# seed: %zu of %zu predictions below 0\n", negative, seed);
    printf("# median of prediction / measured - 1 at lag 1, at 1024 and %zu bytes:", d->m);
    for (int kind = CPM_REPLAY_MEDIANS; kind <= CPM_REPLAY_MEANS; kind++)
        printf(" %s %+.1f%% %+.1f%%%s", cpm_replay_names[kind], 100.0 * shift(x, kind, 0),
               100.0 * shift(x, kind, 1), kind == CPM_REPLAY_MEDIANS ? "," : "\n");
}

int main(int argc, char **argv)
{
    if (argc != 2)
        cpm_diag_usage("cpm_lmo_replay DUMP");
    struct cpm_dump d;
    char err[400];
    if (cpm_dump_read(argv[1], &d, err, sizeof err) != 0) {
        fprintf(stderr, "cpm_lmo_replay: %s\n", err);
        return 2;
    }
    struct replay x = {&d, 2 * cpm_pairs(d.n), {NULL}, {NULL}, NULL};
    x.scratch = calloc((d.rounds + 1) * x.per + d.rounds, sizeof *x.scratch);
    for (int kind = 0; kind < KINDS; kind++) {
        x.pred[kind] = calloc(d.rounds * x.per, sizeof *x.pred[kind]);
        x.ok[kind] = calloc(d.rounds, sizeof *x.ok[kind]);
        if (!x.pred[kind] || !x.ok[kind] || !x.scratch)
            cpm_diag_usage("cpm_lmo_replay: out of memory");
        for (size_t r = 0; r < d.rounds; r++)
            x.ok[kind][r] = d.round[r].complete &&
                            cpm_replay_predict(kind, &d, &d.round[r], x.pred[kind] + r * x.per);
    }
    report(&x, argv[1]);
    for (int kind = 0; kind < KINDS; kind++) {
        free(x.pred[kind]);
        free(x.ok[kind]);
    }
    free(x.scratch);
    cpm_dump_free(&d);
    return 0;
}
