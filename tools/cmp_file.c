/* cmp_file: a result file in memory; see cmp_file.h. */
#include "cmp_file.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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
        rc = f->jsonl ? cmp_read_jsonl(in, f, err, errlen) : cmp_read_text(in, f, err, errlen);
    }
    fclose(in);
    if (rc != 0)
        cmp_file_free(f);
    return rc;
}
