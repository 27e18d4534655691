/* cmp_match: rows of two files paired by table and keys; see cmp_match.h. */
#include "cmp_match.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct cmp_row *cmp_pair_row(const struct cmp_pair *p) { return p->a ? p->a : p->b; }

const char *cmp_match_program(const struct cmp_file *a, const struct cmp_file *b)
{
    return a->program[0] ? a->program : b->program[0] ? b->program : a->title;
}

/* A file's identity in a refusal: its program, else its title quoted. */
static void describe_run(const struct cmp_file *f, char *out, size_t n)
{
    if (f->program[0])
        snprintf(out, n, "%s", f->program);
    else
        snprintf(out, n, "'%s'", f->title);
}

/* Key values equal: as numbers when the key is numeric and both read as
 * numbers ("1024" and "1.024e3"), else as text. */
static bool key_equal(const char *x, const char *y, bool numeric)
{
    if (numeric) {
        char *ex, *ey;
        double dx = strtod(x, &ex), dy = strtod(y, &ey);
        if (ex != x && ey != y && !*ex && !*ey)
            return dx == dy;
    }
    return strcmp(x, y) == 0;
}

/* Whether rows r and s of table t have the same keys; skip: a key left
 * out (CMP_NO_KEY: none). */
static bool same_keys(const struct cmp_table *t, const struct cmp_row *r, const struct cmp_row *s,
                      size_t skip)
{
    for (size_t k = 0; k < t->nkeys; k++)
        if (k != skip && !key_equal(r->key[k], s->key[k], t->key_numeric[k]))
            return false;
    return true;
}

static void describe_keys(const struct cmp_table *t, const struct cmp_row *r, char *out, size_t n)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t k = 0; k < t->nkeys && used < n; k++)
        used += (size_t)snprintf(out + used, n - used, "%s%s %s", k ? ", " : "", t->keys[k],
                                 r->key[k]);
    if (!t->nkeys)
        snprintf(out, n, "its one row");
}

/* Two rows of one table with the same keys make the pairing ambiguous. */
static int check_unique(const struct cmp_file *f, const char *which, char *err, size_t errlen)
{
    for (size_t i = 0; i < f->nrows; i++)
        for (size_t j = i + 1; j < f->nrows; j++) {
            const struct cmp_row *r = &f->rows[i], *s = &f->rows[j];
            if (r->table != s->table || !same_keys(&f->tables[r->table], r, s, CMP_NO_KEY))
                continue;
            char keys[200];
            describe_keys(&f->tables[r->table], r, keys, sizeof keys);
            snprintf(err, errlen, "%s (%s): lines %zu and %zu are both table %s, %s: one run per "
                     "file", which, f->path, r->line, s->line, f->tables[r->table].name, keys);
            return -1;
        }
    return 0;
}

static bool table_has_rows(const struct cmp_file *f, size_t t)
{
    for (size_t i = 0; i < f->nrows; i++)
        if (f->rows[i].table == t)
            return true;
    return false;
}

/* A table with rows in either file must be in both, alike. */
static int check_tables(const struct cmp_file *a, const struct cmp_file *b, char *err, size_t errlen)
{
    for (int side = 0; side < 2; side++) {
        const struct cmp_file *f = side ? b : a, *g = side ? a : b;
        for (size_t i = 0; i < f->ntables; i++) {
            const struct cmp_table *t = &f->tables[i], *u = cmp_file_table(g, t->name);
            if (!table_has_rows(f, i))
                continue;
            if (!u) {
                snprintf(err, errlen, "%s has rows of table %s, %s has no such table", f->path,
                         t->name, g->path);
                return -1;
            }
            bool alike = strcmp(t->main, u->main) == 0 && t->nkeys == u->nkeys &&
                         t->better == u->better;
            for (size_t k = 0; alike && k < t->nkeys; k++)
                alike = strcmp(t->keys[k], u->keys[k]) == 0;
            if (!alike) {
                snprintf(err, errlen, "table %s differs: %s measures %s, %s measures %s, or their "
                         "keys or direction differ", t->name, a->path, side ? u->main : t->main,
                         b->path, side ? t->main : u->main);
                return -1;
            }
        }
    }
    return 0;
}

static size_t x_key_of(const struct cmp_table *t)
{
    for (size_t k = t->nkeys; k-- > 0;)
        if (t->key_numeric[k])
            return k;
    return CMP_NO_KEY;
}

static int add_pair(struct cmp_match *m, size_t *cap, size_t table, const struct cmp_row *a,
                    const struct cmp_row *b)
{
    if (m->n == *cap) {
        *cap = *cap ? 2 * *cap : 64;
        struct cmp_pair *grown = realloc(m->pairs, *cap * sizeof *grown);
        if (!grown)
            return -1;
        m->pairs = grown;
    }
    m->pairs[m->n++] = (struct cmp_pair){table, a, b, 0};
    return 0;
}

/* Numbers the groups of table's pairs [first, end) in order of first
 * appearance, then orders the pairs by group, stably. */
static int group_pairs(struct cmp_match *m, const struct cmp_table *t, size_t x, size_t first)
{
    size_t n = m->n - first, groups = 0;
    for (size_t i = first; i < m->n; i++) {
        const struct cmp_row *r = cmp_pair_row(&m->pairs[i]);
        m->pairs[i].group = groups;
        for (size_t j = first; j < i; j++)
            if (same_keys(t, r, cmp_pair_row(&m->pairs[j]), x)) {
                m->pairs[i].group = m->pairs[j].group;
                break;
            }
        if (m->pairs[i].group == groups)
            groups++;
    }
    struct cmp_pair *sorted = malloc((n ? n : 1) * sizeof *sorted);
    if (!sorted)
        return -1;
    size_t k = 0;
    for (size_t g = 0; g < groups; g++)
        for (size_t i = first; i < m->n; i++)
            if (m->pairs[i].group == g)
                sorted[k++] = m->pairs[i];
    memcpy(m->pairs + first, sorted, n * sizeof *sorted);
    free(sorted);
    return 0;
}

int cmp_match_files(const struct cmp_file *a, const struct cmp_file *b, struct cmp_match *m,
                    char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    /* OMB's titles name its tests, one each; the suite's fan tests share
     * osu_bw's, as in OMB, and only a file that names its program tells
     * them apart. */
    bool named = a->program[0] && b->program[0];
    if (strcmp(named ? a->program : a->title, named ? b->program : b->title) != 0) {
        char ra[300], rb[300];
        describe_run(a, ra, sizeof ra);
        describe_run(b, rb, sizeof rb);
        snprintf(err, errlen, "%s is a run of %s, %s of %s: compare two runs of one program",
                 a->path, ra, b->path, rb);
        return -1;
    }
    if (check_unique(a, "A", err, errlen) != 0 || check_unique(b, "B", err, errlen) != 0 ||
        check_tables(a, b, err, errlen) != 0)
        return -1;
    size_t cap = 0;
    bool *used = calloc(b->nrows ? b->nrows : 1, sizeof *used);
    if (!used)
        goto no_memory;
    for (size_t t = 0; t < a->ntables; t++) {
        const struct cmp_table *ta = &a->tables[t];
        const struct cmp_table *tb = cmp_file_table(b, ta->name);
        size_t first = m->n, tbi = tb ? (size_t)(tb - b->tables) : CMP_NO_KEY;
        m->x_key[t] = x_key_of(ta);
        for (size_t i = 0; i < a->nrows; i++) {
            const struct cmp_row *r = &a->rows[i], *s = NULL;
            if (r->table != t)
                continue;
            for (size_t j = 0; j < b->nrows && !s; j++)
                if (b->rows[j].table == tbi && same_keys(ta, r, &b->rows[j], CMP_NO_KEY)) {
                    s = &b->rows[j];
                    used[j] = true;
                }
            if (add_pair(m, &cap, t, r, s) != 0)
                goto no_memory;
        }
        for (size_t j = 0; j < b->nrows; j++)
            if (b->rows[j].table == tbi && !used[j] && add_pair(m, &cap, t, NULL, &b->rows[j]) != 0)
                goto no_memory;
        if (group_pairs(m, ta, m->x_key[t], first) != 0)
            goto no_memory;
    }
    free(used);
    return 0;
no_memory:
    free(used);
    cmp_match_free(m);
    snprintf(err, errlen, "out of memory");
    return -1;
}

void cmp_match_free(struct cmp_match *m)
{
    free(m->pairs);
    m->pairs = NULL;
    m->n = 0;
}
