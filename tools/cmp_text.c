/* cmp_text: the suite's gnuplot-ready text into a cmp_file, under the
 * names its JSON Lines would use, so that a text run and a JSON run of a
 * program compare row by row. Three layouts are read: the OSU-style table
 * ("# Size" and OMB's headings, --stats columns after them), alltoall's
 * (a heading of names, "### count" lines with each iteration's time) and
 * always's (a heading of names, "# warm-up:" rows). The family comes from
 * the title line, the program's name from the "# command:" line. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmp_file.h"
#include "osu_fields.h"
#include "report.h"

#define MAX_COLUMNS 32

struct text {
    struct cmp_file *f;
    char **lines;
    size_t nlines;
    char *err;
    size_t errlen;
};

#define FAIL(x, line, ...) cmp_error((x)->err, (x)->errlen, (x)->f, (line), __VA_ARGS__)

/* Where a value of a column goes in a row. */
enum column_role { COL_IGNORED, COL_SIZE, COL_MAIN, COL_MEDIAN, COL_P5, COL_P95, COL_ITERATIONS };

struct columns {
    size_t n;
    enum column_role role[MAX_COLUMNS];
    char heading[512]; /* as written, to notice a change of table */
};

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The words of a line, separated by white space, in place. */
static size_t split_words(char *s, char **words, size_t max)
{
    size_t n = 0;
    for (char *save = NULL, *w = strtok_r(s, " \t\r\n", &save); w;
         w = strtok_r(NULL, " \t\r\n", &save)) {
        if (n == max)
            return max + 1;
        words[n++] = w;
    }
    return n;
}

/* A whole word as a number (strtod's forms: nan, inf included). */
static bool to_number(const char *w, double *out)
{
    char *end;
    *out = strtod(w, &end);
    return end != w && *end == '\0';
}

static bool to_count(const char *w, size_t *out)
{
    char *end;
    if (!isdigit((unsigned char)w[0]))
        return false;
    unsigned long long v = strtoull(w, &end, 10);
    *out = (size_t)v;
    return *end == '\0';
}

/* A value of a row where its column's role puts it; stats counts the
 * --stats columns seen. -1 when it is not a number. */
static int put_value(struct text *x, struct cmp_row *r, enum column_role role, const char *w,
                     size_t lineno, size_t *stats)
{
    double v;
    if (role == COL_IGNORED)
        return 0;
    if (!to_number(w, &v))
        return FAIL(x, lineno, "'%.40s' is not a number", w);
    if ((role == COL_MEDIAN || role == COL_P5 || role == COL_P95) && !cmp_measured(v))
        return FAIL(x, lineno, "'%.40s' in a spread column: a measured value must be finite and "
                               "not negative", w);
    switch (role) {
    case COL_MAIN: r->main = v; break;
    case COL_MEDIAN: r->median = v; break;
    case COL_P5: r->p5 = v; break;
    case COL_P95: r->p95 = v; break;
    default: break;
    }
    *stats += role == COL_MEDIAN || role == COL_P5 || role == COL_P95;
    return 0;
}

/* ---- the OSU-style table ---- */

struct osu_state {
    char datatype[CMP_NAME_LEN];
    bool has_datatype; /* a "# Datatype:" line came */
    bool datatype_key; /* the table has the key: the line came before its heading */
    size_t iter_small, iter_large, threshold; /* "# iterations:"; threshold 0: one count */
    struct columns cols;
    struct cmp_table *table;
};

/* OMB's "# iterations: N" or "# iterations: N up to S bytes, M above". */
static void osu_iterations(struct osu_state *st, const char *text)
{
    unsigned long long n, s, m;
    st->iter_small = st->iter_large = st->threshold = 0;
    if (sscanf(text, "%llu up to %llu bytes, %llu above", &n, &s, &m) == 3) {
        st->iter_small = (size_t)n;
        st->threshold = (size_t)s;
        st->iter_large = (size_t)m;
    } else if (sscanf(text, "%llu", &n) == 1) {
        st->iter_small = st->iter_large = (size_t)n;
    }
}

/* A heading of the --stats columns: "Median(us)", "P5(MB/s)", ... */
static bool stats_heading(const char *h, const char *name)
{
    size_t n = strlen(name);
    return strncmp(h, name, n) == 0 && h[n] == '(';
}

/* OMB's headings are separated by two spaces or more (one space is part
 * of a heading: "Avg Latency(us)"). Declares the table at the first one. */
static int osu_heading(struct text *x, struct osu_state *st, const char *line, size_t lineno)
{
    if (st->table) {
        /* The heading again (-T all), a note between rows ('# window:'),
         * or, starting as the heading does, another table. */
        size_t first = strcspn(st->cols.heading + 2, " ") + 2;
        if (strcmp(st->cols.heading, line) != 0 && strncmp(st->cols.heading, line, first) == 0)
            return FAIL(x, lineno, "the columns change within the file: '%s'", line);
        return 0;
    }
    if (!cmp_copy(st->cols.heading, sizeof st->cols.heading, line))
        return FAIL(x, lineno, "a column heading longer than %zu bytes",
                    sizeof st->cols.heading - 1);
    struct cmp_table *t = cmp_file_add_table(x->f, "osu");
    t->better = CMP_LOWER_BETTER;
    cmp_copy(t->main, sizeof t->main, "");
    st->datatype_key = st->has_datatype;
    if (st->datatype_key)
        cmp_copy(t->keys[t->nkeys++], CMP_NAME_LEN, "datatype");
    const char *p = line + 1;
    size_t n = 0;
    while (*p) {
        while (*p == ' ')
            p++;
        const char *end = strstr(p, "  ");
        size_t len = end ? (size_t)(end - p) : strlen(p);
        while (len && isspace((unsigned char)p[len - 1]))
            len--;
        if (!len)
            break;
        if (n == MAX_COLUMNS)
            return FAIL(x, lineno, "more than %d columns", MAX_COLUMNS);
        char h[64];
        snprintf(h, sizeof h, "%.*s", (int)len, p);
        enum column_role role = COL_IGNORED;
        if (n == 0 && strcmp(h, "Size") == 0) {
            role = COL_SIZE;
            t->key_numeric[t->nkeys] = true;
            cmp_copy(t->keys[t->nkeys++], CMP_NAME_LEN, "size_bytes");
        } else if (stats_heading(h, "Median")) {
            role = COL_MEDIAN;
        } else if (stats_heading(h, "P5")) {
            role = COL_P5;
        } else if (stats_heading(h, "P95")) {
            role = COL_P95;
        } else if (strcmp(h, "Iterations") == 0) {
            role = COL_ITERATIONS;
        } else if (!t->main[0]) {
            /* The first value column is the row's measurement, as in JSON;
             * a time is better lower, a rate higher. */
            struct osu_field field;
            osu_field_of(h, &field);
            role = COL_MAIN;
            cmp_copy(t->main, sizeof t->main, field.name);
            cmp_copy(t->main_unit, sizeof t->main_unit, field.unit);
            cmp_copy(t->stats_of, sizeof t->stats_of, field.name);
            if (strcmp(field.unit, REPORT_UNIT_US) != 0 && strcmp(field.unit, REPORT_UNIT_S) != 0)
                t->better = CMP_HIGHER_BETTER;
        }
        st->cols.role[n++] = role;
        p += len;
    }
    st->cols.n = n;
    if (!t->main[0])
        return FAIL(x, lineno, "no value column in '%s'", line);
    st->table = t;
    return 0;
}

static int osu_row(struct text *x, struct osu_state *st, char *line, size_t lineno)
{
    char *w[MAX_COLUMNS + 1];
    size_t n = split_words(line, w, MAX_COLUMNS);
    if (n != st->cols.n)
        return FAIL(x, lineno, "%zu values where the heading names %zu columns", n, st->cols.n);
    struct cmp_row *r = cmp_file_add_row(x->f, 0, lineno);
    if (!r || (st->datatype_key && cmp_row_set_key(r, 0, st->datatype) != 0))
        return FAIL(x, lineno, "out of memory");
    size_t size = 0, iterations = 0, stats = 0;
    bool sized = false;
    for (size_t i = 0; i < n; i++) {
        enum column_role role = st->cols.role[i];
        if (role == COL_SIZE || role == COL_ITERATIONS) {
            if (!to_count(w[i], role == COL_SIZE ? &size : &iterations))
                return FAIL(x, lineno, "'%s' is not a count", w[i]);
            sized |= role == COL_SIZE;
            if (role == COL_SIZE && cmp_row_set_key(r, st->datatype_key, w[i]) != 0)
                return FAIL(x, lineno, "out of memory");
            continue;
        }
        if (put_value(x, r, role, w[i], lineno, &stats) != 0)
            return -1;
    }
    r->has_spread = stats == 3;
    if (!iterations)
        iterations = sized && st->threshold && size > st->threshold ? st->iter_large
                                                                     : st->iter_small;
    r->iterations = iterations;
    return 0;
}

static int read_osu(struct text *x)
{
    struct osu_state st = {0};
    const char *prev = NULL; /* the comment line just before, which may be a heading */
    for (size_t i = 0; i < x->nlines; i++) {
        char *line = x->lines[i];
        if (line[0] == '#') {
            if (starts_with(line, "# Datatype: ")) {
                snprintf(st.datatype, sizeof st.datatype, "%s", line + 12);
                size_t len = strlen(st.datatype);
                if (len && st.datatype[len - 1] == '.') /* OMB ends the line with one */
                    st.datatype[len - 1] = '\0';
                st.has_datatype = true;
            } else if (starts_with(line, "# iterations: ")) {
                osu_iterations(&st, line + 14);
            }
            prev = line;
            continue;
        }
        if (line[strspn(line, " \t\r")] == '\0') {
            prev = NULL;
            continue;
        }
        if (prev && osu_heading(x, &st, prev, i) != 0)
            return -1;
        if (!st.table)
            return FAIL(x, i + 1, "a data line before any column heading");
        if (osu_row(x, &st, line, i + 1) != 0)
            return -1;
        prev = NULL;
    }
    return 0;
}

/* ---- alltoall and always: headings of single words ---- */

/* Declares a table of named columns from a heading whose words are its
 * field names (JSON's are the same in lower case; the --stats ones are
 * median, p5, p95, cv). */
static int word_heading(struct text *x, struct columns *cols, char *line, size_t lineno,
                        const char *main)
{
    char copy[512], *w[MAX_COLUMNS + 1];
    if (!cmp_copy(copy, sizeof copy, line + 1))
        return FAIL(x, lineno, "a column heading longer than %zu bytes", sizeof copy - 1);
    size_t n = split_words(copy, w, MAX_COLUMNS);
    if (n > MAX_COLUMNS)
        return FAIL(x, lineno, "more than %d columns", MAX_COLUMNS);
    if (cols->n) {
        if (strcmp(cols->heading, line) != 0)
            return FAIL(x, lineno, "the columns change within the file: '%s'", line);
        return 0;
    }
    cmp_copy(cols->heading, sizeof cols->heading, line);
    bool found = false;
    for (size_t i = 0; i < n; i++) {
        for (char *c = w[i]; *c; c++)
            *c = (char)tolower((unsigned char)*c);
        cols->role[i] = strcmp(w[i], main) == 0       ? COL_MAIN
                        : strcmp(w[i], "time_median_s") == 0 ? COL_MEDIAN
                        : strcmp(w[i], "time_p5_s") == 0     ? COL_P5
                        : strcmp(w[i], "time_p95_s") == 0    ? COL_P95
                                                              : COL_IGNORED;
        found |= cols->role[i] == COL_MAIN;
    }
    cols->n = n;
    if (!found)
        return FAIL(x, lineno, "no column %s in '%s'", main, line);
    return 0;
}

/* A data line under a word heading; key values are set by the caller.
 * words: the line's words from the first value. */
static int word_row(struct text *x, const struct columns *cols, char **w, size_t n,
                    struct cmp_row *r, size_t lineno)
{
    if (n != cols->n)
        return FAIL(x, lineno, "%zu values where the heading names %zu columns", n, cols->n);
    size_t stats = 0;
    for (size_t i = 0; i < n; i++)
        if (put_value(x, r, cols->role[i], w[i], lineno, &stats) != 0)
            return -1;
    r->has_spread = stats == 3;
    return 0;
}

/* Declares a table of the word layouts: keys, then main (lower is better). */
static struct cmp_table *word_table(struct text *x, const char *name, const char *const *keys,
                                    size_t nkeys, const char *main, bool spread)
{
    struct cmp_table *t = cmp_file_add_table(x->f, name);
    cmp_copy(t->main, sizeof t->main, main);
    cmp_copy(t->main_unit, sizeof t->main_unit, REPORT_UNIT_S);
    if (spread)
        cmp_copy(t->stats_of, sizeof t->stats_of, main);
    t->better = CMP_LOWER_BETTER;
    for (size_t i = 0; i < nkeys; i++) {
        cmp_copy(t->keys[i], CMP_NAME_LEN, keys[i]);
        t->key_numeric[i] = i > 0; /* the first key names an algorithm or phase */
    }
    t->nkeys = nkeys;
    return t;
}

/* Sets a row's keys from text values; -1 without memory. */
static int set_keys(struct cmp_row *r, const char *const *values, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (cmp_row_set_key(r, i, values[i]) != 0)
            return -1;
    return 0;
}

/* alltoall/all and aller: "# algorithm: NAME (...)" before a block (all's
 * is MPI_Alltoall's, "alltoall"), "### count N iteration I time T" lines
 * before each row: its count and its iterations' times. */
static int read_alltoall(struct text *x)
{
    static const char *const keys[] = {"algorithm", "comms", "ranks", "count"};
    word_table(x, "alltoall", keys, 4, "time_avg_s", true);
    struct columns cols = {0};
    char algorithm[CMP_NAME_LEN] = "alltoall", count[32] = "";
    double *times = NULL;
    size_t ntimes = 0, cap = 0;
    int rc = 0;
    for (size_t i = 0; i < x->nlines && rc == 0; i++) {
        char *line = x->lines[i], *w[MAX_COLUMNS + 1];
        unsigned long long c, it;
        double t;
        if (sscanf(line, "### count %llu iteration %llu time %lf", &c, &it, &t) == 3) {
            if (ntimes == cap) {
                cap = cap ? 2 * cap : 16;
                double *grown = realloc(times, cap * sizeof *grown);
                if (!grown) {
                    rc = FAIL(x, i + 1, "out of memory");
                    break;
                }
                times = grown;
            }
            times[ntimes++] = t;
            snprintf(count, sizeof count, "%llu", c);
        } else if (sscanf(line, "### count %llu warm-up", &c) == 1) {
            ntimes = 0;
            snprintf(count, sizeof count, "%llu", c);
        } else if (starts_with(line, "# algorithm: ")) {
            sscanf(line + 13, "%63s", algorithm);
        } else if (starts_with(line, "#  comms ") || starts_with(line, "# comms ")) {
            rc = word_heading(x, &cols, line, i + 1, "time_avg_s");
        } else if (line[0] != '#' && line[strspn(line, " \t\r")] != '\0') {
            size_t n = split_words(line, w, MAX_COLUMNS);
            struct cmp_row *r;
            if (!cols.n || !count[0]) {
                rc = FAIL(x, i + 1, "a data line before %s",
                          cols.n ? "its '### count' lines" : "any column heading");
            } else if (n < 2) {
                rc = FAIL(x, i + 1, "%zu values where the heading names %zu columns", n, cols.n);
            } else if (!(r = cmp_file_add_row(x->f, 0, i + 1))) {
                rc = FAIL(x, i + 1, "out of memory");
            } else {
                const char *values[] = {algorithm, w[0], w[1], count};
                double *mine = ntimes ? malloc(ntimes * sizeof *mine) : NULL;
                if (set_keys(r, values, 4) != 0 || (ntimes && !mine)) {
                    free(mine);
                    rc = FAIL(x, i + 1, "out of memory");
                } else if ((rc = word_row(x, &cols, w, n, r, i + 1)) == 0 && mine) {
                    memcpy(mine, times, ntimes * sizeof *mine);
                    if (cmp_row_take_samples(r, mine, ntimes) != 0)
                        rc = FAIL(x, i + 1, "out of memory");
                } else {
                    free(mine);
                }
            }
            ntimes = 0;
            count[0] = '\0';
        }
    }
    free(times);
    return rc;
}

/* always/all and iall: "# warm-up: VALUES" is the warm-up row of the
 * communicator split that follows, the data lines its timed rows. */
static int read_always(struct text *x)
{
    static const char *const keys[] = {"phase", "tasks", "calls", "count"};
    word_table(x, "always", keys, 4, "time_s", false);
    struct columns cols = {0};
    for (size_t i = 0; i < x->nlines; i++) {
        char *line = x->lines[i], *w[MAX_COLUMNS + 1];
        const char *phase = "timed";
        if (starts_with(line, "#  tasks ") || starts_with(line, "# tasks ")) {
            if (word_heading(x, &cols, line, i + 1, "time_s") != 0)
                return -1;
            continue;
        }
        if (starts_with(line, "# warm-up:")) {
            phase = "warmup";
            line += 10;
        } else if (line[0] == '#' || line[strspn(line, " \t\r")] == '\0') {
            continue;
        }
        size_t n = split_words(line, w, MAX_COLUMNS);
        struct cmp_row *r;
        if (!cols.n)
            return FAIL(x, i + 1, "a data line before any column heading");
        if (n < 3)
            return FAIL(x, i + 1, "%zu values where the heading names %zu columns", n, cols.n);
        if (!(r = cmp_file_add_row(x->f, 0, i + 1)))
            return FAIL(x, i + 1, "out of memory");
        const char *values[] = {phase, w[0], w[1], w[2]};
        if (set_keys(r, values, 4) != 0)
            return FAIL(x, i + 1, "out of memory");
        if (word_row(x, &cols, w, n, r, i + 1) != 0)
            return -1;
    }
    return 0;
}

/* ---- the file ---- */

/* "# TITLE [vX.Y] (commsweep VERSION)" and "# command: PATH ARGS": the title, and
 * the program as family/name. Exactly one run per file. */
static int identify(struct text *x, const char **family)
{
    size_t commands = 0, title_line = 0;
    for (size_t i = 0; i < x->nlines; i++) {
        const char *line = x->lines[i], *mark = strstr(line, " (commsweep ");
        if (!title_line && line[0] == '#' && mark) {
            title_line = i + 1;
            const char *end = mark;
            /* "# TITLE v7.4 (commsweep V)": the OSU programs name the OMB
             * version of their test; the title is the same without it. */
            const char *v = end;
            while (v > line + 2 && (isdigit((unsigned char)v[-1]) || v[-1] == '.'))
                v--;
            if (v < end && v - 2 > line + 2 && v[-1] == 'v' && v[-2] == ' ')
                end = v - 2;
            snprintf(x->f->title, sizeof x->f->title, "%.*s", (int)(end - line - 2), line + 2);
        } else if (starts_with(line, "# command: ")) {
            if (++commands > 1)
                return FAIL(x, i + 1, "a second '# command:' line: two runs in one file");
            const char *path = line + 11;
            size_t len = strcspn(path, " ");
            const char *base = path + len;
            while (base > path && base[-1] != '/')
                base--;
            snprintf(x->f->program, sizeof x->f->program, "%.*s", (int)(path + len - base), base);
        } else if (starts_with(line, "# date: ") && !x->f->date[0]) {
            snprintf(x->f->date, sizeof x->f->date, "%s", line + 8);
        }
    }
    if (!title_line || !commands)
        return FAIL(x, 0, "not a result of the suite (no '# TITLE (commsweep VERSION)' and "
                          "'# command:' lines), nor OMB 7.x's output (no '# OSU ... Test' "
                          "title line)");
    const char *t = x->f->title;
    *family = starts_with(t, "OSU ") ? "osu"
              : starts_with(t, "All to All") ? "alltoall"
              : starts_with(t, "Always") ? "always" : NULL;
    if (!*family)
        return FAIL(x, title_line, "compare reads the text of OSU-style, alltoall and always "
                                   "programs, not of '%s': write it with --format=jsonl", t);
    char name[sizeof x->f->program];
    snprintf(name, sizeof name, "%s", x->f->program);
    snprintf(x->f->program, sizeof x->f->program, "%.16s/%.100s", *family, name);
    return 0;
}

int cmp_read_text(FILE *in, struct cmp_file *f, char *err, size_t errlen)
{
    struct text x = {.f = f, .err = err, .errlen = errlen};
    size_t cap = 0;
    int rc = 0;
    for (;;) {
        char *line = NULL;
        size_t n = 0;
        ssize_t len = getline(&line, &n, in);
        if (len < 0) {
            free(line);
            break;
        }
        if (len && line[len - 1] == '\n')
            line[--len] = '\0';
        if (x.nlines == cap) {
            cap = cap ? 2 * cap : 256;
            char **grown = realloc(x.lines, cap * sizeof *grown);
            if (!grown) {
                free(line);
                rc = FAIL(&x, 0, "out of memory");
                break;
            }
            x.lines = grown;
        }
        x.lines[x.nlines++] = line;
    }
    const char *family = NULL;
    if (rc == 0 && (rc = identify(&x, &family)) == 0)
        rc = strcmp(family, "osu") == 0        ? read_osu(&x)
             : strcmp(family, "alltoall") == 0 ? read_alltoall(&x)
                                               : read_always(&x);
    if (rc == 0 && f->nrows == 0)
        rc = FAIL(&x, 0, "no data lines");
    for (size_t i = 0; i < x.nlines; i++)
        free(x.lines[i]);
    free(x.lines);
    return rc;
}
