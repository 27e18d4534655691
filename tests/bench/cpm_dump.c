/* cpm_dump: cpm_lmo_dump's output read back; see cpm_dump.h. */
#include "cpm_dump.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One line of a dump; kind 0 when it is a comment or blank. */
struct line {
    int kind; /* 'c' clock, 't' tri, 'p' p2p */
    size_t round, size;
    int v[3], q;
    double x[6];
};

/* Whether a scan that consumed used characters took the whole line. */
static bool whole(const char *text, int used) { return used > 0 && text[used] == '\0'; }

static int parse(const char *text, struct line *l)
{
    char word[8];
    int used[3] = {0, 0, 0};
    l->kind = 0;
    if (text[0] == '#' || text[strspn(text, " \t\r\n")] == '\0')
        return 0;
    if (sscanf(text, "%zu clock %7s %lf %n", &l->round, word, &l->x[0], &used[0]) == 3 &&
        whole(text, used[0]))
        l->kind = strcmp(word, "p2p") == 0 ? 'c' : 'C';
    else if (sscanf(text, "%zu tri %d %d %d %d %lf %lf %lf %lf %lf %lf %*u %*u %n", &l->round,
                    &l->v[0], &l->v[1], &l->v[2], &l->q, &l->x[0], &l->x[1], &l->x[2], &l->x[3],
                    &l->x[4], &l->x[5], &used[1]) == 11 &&
             whole(text, used[1]))
        l->kind = 't';
    else if (sscanf(text, "%zu p2p %d %d %zu %lf %*u %n", &l->round, &l->v[0], &l->v[1], &l->size,
                    &l->x[0], &used[2]) == 5 &&
             whole(text, used[2]))
        l->kind = 'p';
    return l->kind ? 0 : -1;
}

/* Calls each(line, ctx) for every data line; -1 with a message when a line
 * is not one of a dump's. */
static int each_line(FILE *f, const char *path, int (*each)(const struct line *, void *), void *ctx,
                     char *err, size_t errlen)
{
    char text[1024];
    size_t number = 0;
    rewind(f);
    while (fgets(text, sizeof text, f)) {
        struct line l;
        number++;
        /* A dump cut short mid-line (a job killed) ends with a piece of one. */
        if (!strchr(text, '\n') && feof(f))
            break;
        if (parse(text, &l) != 0) {
            snprintf(err, errlen, "%s, line %zu: not a line of cpm_lmo_dump", path, number);
            return -1;
        }
        if (l.kind && each(&l, ctx) != 0) {
            snprintf(err, errlen, "%s, line %zu: a process, round or triplet out of place", path,
                     number);
            return -1;
        }
    }
    return 0;
}

/* First pass: the processes, the largest size and the rounds. */
static int extent(const struct line *l, void *ctx)
{
    struct cpm_dump *d = ctx;
    int top = l->kind == 't' ? l->v[2] : l->kind == 'p' ? l->v[1] : -1;
    if (top + 1 > d->n)
        d->n = top + 1;
    if (l->kind == 'p' && l->size > d->m)
        d->m = l->size;
    if (l->round + 1 > d->rounds)
        d->rounds = l->round + 1;
    return l->round > 1000000;
}

static int size_slot(const struct cpm_dump *d, size_t size)
{
    return size == 0 ? 0 : size == 1024 ? 1 : size == d->m ? 2 : -1;
}

/* Second pass: the values into their rounds. */
static int store(const struct line *l, void *ctx)
{
    struct cpm_dump *d = ctx;
    struct cpm_dump_round *r = &d->round[l->round];
    if (l->kind == 'c' || l->kind == 'C') {
        if (l->kind == 'c')
            r->clock = l->x[0];
        return 0;
    }
    if (l->kind == 'p') {
        int s = size_slot(d, l->size);
        if (s < 0 || l->v[0] < 0 || l->v[0] >= l->v[1])
            return -1;
        r->p2p[3 * cpm_pair_index(d->n, l->v[0], l->v[1]) + (size_t)s] = l->x[0];
        r->seen++;
        return 0;
    }
    if (l->v[0] < 0 || l->v[0] >= l->v[1] || l->v[1] >= l->v[2] || l->q < 0 || l->q > 2)
        return -1;
    size_t at = 3 * cpm_triplet_index(d->n, l->v[0], l->v[1], l->v[2]) + (size_t)l->q;
    for (int k = 0; k < 6; k++)
        r->r[k][at].time = l->x[k];
    r->seen++;
    return 0;
}

int cpm_dump_read(const char *path, struct cpm_dump *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    err[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "cannot read %s", path);
        return -1;
    }
    int rc = each_line(f, path, extent, d, err, errlen);
    if (rc == 0 && d->n < 3) {
        snprintf(err, errlen, "%s: no LMO experiments of 3 processes or more", path);
        rc = -1;
    }
    size_t trip = rc == 0 ? 3 * cpm_triplets(d->n) : 0, pairs = rc == 0 ? cpm_pairs(d->n) : 0;
    if (rc == 0 && !(d->round = calloc(d->rounds, sizeof *d->round)))
        rc = -1;
    for (size_t k = 0; rc == 0 && k < d->rounds; k++) {
        struct cpm_dump_round *r = &d->round[k];
        r->clock = NAN;
        r->p2p = calloc(3 * pairs, sizeof *r->p2p);
        for (int q = 0; q < 6; q++)
            if (!(r->r[q] = calloc(trip, sizeof *r->r[q])))
                rc = -1;
        if (!r->p2p)
            rc = -1;
    }
    if (rc == 0)
        rc = each_line(f, path, store, d, err, errlen);
    for (size_t k = 0; rc == 0 && k < d->rounds; k++)
        d->round[k].complete = d->round[k].seen == trip + 3 * pairs;
    fclose(f);
    if (rc != 0 && !*err)
        snprintf(err, errlen, "out of memory for %zu rounds", d->rounds);
    if (rc != 0)
        cpm_dump_free(d);
    return rc;
}

void cpm_dump_free(struct cpm_dump *d)
{
    for (size_t k = 0; d->round && k < d->rounds; k++) {
        for (int q = 0; q < 6; q++)
            free(d->round[k].r[q]);
        free(d->round[k].p2p);
    }
    free(d->round);
    memset(d, 0, sizeof *d);
}
