/* cmp_file: a result file in memory; see cmp_file.h. */
#include "cmp_file.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cmp_omb.h"
#include "infile.h"
#include "stats.h"

bool cmp_measured(double v) { return isfinite(v) && v >= 0; }

bool cmp_copy(char *dst, size_t n, const char *text)
{
    size_t len = strlen(text);
    if (len >= n)
        return false;
    memcpy(dst, text, len + 1);
    return true;
}

int cmp_error(char *err, size_t errlen, const struct cmp_file *f, size_t line, const char *fmt,
              ...)
{
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (line)
        snprintf(err, errlen, "%s:%zu: %s", f->path, line, what);
    else
        snprintf(err, errlen, "%s: %s", f->path, what);
    return -1;
}

const struct cmp_table *cmp_file_table(const struct cmp_file *f, const char *name)
{
    for (size_t i = 0; i < f->ntables; i++)
        if (strcmp(f->tables[i].name, name) == 0)
            return &f->tables[i];
    return NULL;
}

struct cmp_table *cmp_file_add_table(struct cmp_file *f, const char *name)
{
    if (f->ntables == CMP_MAX_TABLES)
        return NULL;
    struct cmp_table *t = &f->tables[f->ntables];
    memset(t, 0, sizeof *t);
    if (!cmp_copy(t->name, sizeof t->name, name))
        return NULL;
    t->better = CMP_NOT_RANKED;
    f->ntables++;
    return t;
}

struct cmp_row *cmp_file_add_row(struct cmp_file *f, size_t t, size_t line)
{
    if (f->nrows == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 64;
        struct cmp_row *rows = realloc(f->rows, cap * sizeof *rows);
        if (!rows)
            return NULL;
        f->rows = rows;
        f->cap = cap;
    }
    struct cmp_row *r = &f->rows[f->nrows];
    memset(r, 0, sizeof *r);
    r->table = t;
    r->line = line;
    r->main = NAN;
    for (size_t i = 0; i < f->tables[t].nkeys; i++)
        if (cmp_row_set_key(r, i, "") != 0)
            return NULL;
    f->nrows++;
    return r;
}

int cmp_row_set_key(struct cmp_row *r, size_t i, const char *text)
{
    char *copy = strdup(text);
    if (!copy)
        return -1;
    free(r->key[i]);
    r->key[i] = copy;
    return 0;
}

int cmp_row_take_samples(struct cmp_row *r, double *samples, size_t n)
{
    free(r->samples);
    r->samples = samples;
    r->nsamples = n;
    r->iterations = n;
    if (r->has_spread || n == 0)
        return 0;
    double *sorted = malloc(n * sizeof *sorted);
    if (!sorted)
        return -1;
    memcpy(sorted, samples, n * sizeof *sorted);
    stats_sort(sorted, n);
    r->median = stats_percentile_sorted(sorted, n, 50.0);
    r->p5 = stats_percentile_sorted(sorted, n, 5.0);
    r->p95 = stats_percentile_sorted(sorted, n, 95.0);
    r->has_spread = true;
    free(sorted);
    return 0;
}

void cmp_file_free(struct cmp_file *f)
{
    for (size_t i = 0; i < f->nrows; i++) {
        for (size_t k = 0; k < CMP_MAX_KEYS; k++)
            free(f->rows[i].key[k]);
        free(f->rows[i].samples);
    }
    free(f->rows);
    f->rows = NULL;
    f->nrows = f->cap = 0;
}

/* A file in OMB's plain layout as the one table "osu" of the suite's JSON
 * Lines: the keys its text has (datatype where a Datatype line names it,
 * size_bytes), the first value column as the main field. Declared with
 * the first row, when the reader knows the columns. */
static void declare_omb(const struct cmp_omb *o, struct cmp_file *f)
{
    snprintf(f->title, sizeof f->title, "%s", o->title);
    snprintf(f->layout, sizeof f->layout, "text in OMB %s%s layout%s%s",
             o->version[0] ? o->version : "7.x", o->version[0] ? "'s" : " (no version)",
             o->suite[0] ? ", by " : "", o->suite);
    struct cmp_table *t = cmp_file_add_table(f, "osu");
    cmp_copy(t->main, sizeof t->main, o->main);
    cmp_copy(t->main_unit, sizeof t->main_unit, o->main_unit);
    cmp_copy(t->stats_of, sizeof t->stats_of, o->main);
    t->better = o->lower_better ? CMP_LOWER_BETTER : CMP_HIGHER_BETTER;
    if (o->typed)
        cmp_copy(t->keys[t->nkeys++], CMP_NAME_LEN, "datatype");
    if (o->sized) {
        t->key_numeric[t->nkeys] = true;
        cmp_copy(t->keys[t->nkeys++], CMP_NAME_LEN, "size_bytes");
    }
}

struct omb_into {
    struct cmp_file *f;
    char *err;
    size_t errlen;
};

static int take_omb_row(const struct cmp_omb *o, const struct cmp_omb_row *x, void *arg)
{
    struct omb_into *into = arg;
    struct cmp_file *f = into->f;
    if (!f->ntables)
        declare_omb(o, f);
    struct cmp_row *r = cmp_file_add_row(f, 0, x->line);
    if (!r || (o->typed && cmp_row_set_key(r, 0, x->datatype) != 0) ||
        (o->sized && cmp_row_set_key(r, o->typed, x->size) != 0))
        return cmp_error(into->err, into->errlen, f, x->line, "out of memory");
    r->main = x->main;
    r->has_spread = x->has_spread;
    r->median = x->median;
    r->p5 = x->p5;
    r->p95 = x->p95;
    r->iterations = x->iterations;
    r->averages_only = !x->has_spread;
    return 0;
}

/* Text: OMB's plain layout, else the suite's own. */
static int read_text(FILE *in, struct cmp_file *f, char *err, size_t errlen)
{
    struct cmp_omb o;
    struct omb_into into = {f, err, errlen};
    int rc = cmp_omb_read(in, f->path, &o, take_omb_row, &into, err, errlen);
    return rc == 1 ? cmp_read_text(in, f, err, errlen) : rc;
}

int cmp_file_read(const char *path, struct cmp_file *f, char *err, size_t errlen)
{
    memset(f, 0, sizeof *f);
    snprintf(f->path, sizeof f->path, "%s", path); /* for messages: a long one is cut */
    char why[160];
    FILE *in = infile_open(path, why, sizeof why);
    if (!in)
        return cmp_error(err, errlen, f, 0, "cannot open: %s", why);
    int c;
    while ((c = getc(in)) == ' ' || c == '\t' || c == '\n' || c == '\r')
        ;
    int rc;
    if (c == EOF && ferror(in)) {
        rc = cmp_error(err, errlen, f, 0, "cannot read: %s", strerror(errno));
    } else if (c == EOF) {
        rc = cmp_error(err, errlen, f, 0, "empty: no results to compare");
    } else {
        rewind(in);
        f->jsonl = c == '{';
        rc = f->jsonl ? cmp_read_jsonl(in, f, err, errlen) : read_text(in, f, err, errlen);
    }
    fclose(in);
    if (rc != 0)
        cmp_file_free(f);
    return rc;
}
