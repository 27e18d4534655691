/* cmp_omb: OMB 7.x's plain layout into rows; see cmp_omb.h. */
#include "cmp_omb.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "osu_fields.h"
#include "report.h"

#define MAX_COLUMNS 32
#define HEADING_LEN 1024

/* What a column's values are to the comparison. */
enum role {
    ROLE_SIZE,       /* the key */
    ROLE_MAIN,       /* the value compared */
    ROLE_MEDIAN, ROLE_P5, ROLE_P95, /* the suite's --stats: the spread of the main value */
    ROLE_ITERATIONS, /* -f */
    ROLE_VALIDATION, /* -c: Pass or Fail */
    ROLE_NUMBER,     /* another measured column (a unit in its heading): a number */
    ROLE_ANY         /* a column compare does not use and cannot check */
};

struct reader {
    const char *path;
    char *err;
    size_t errlen;
    struct cmp_omb *o;
    cmp_omb_take take;
    void *arg;
    size_t title_line;                  /* 0: none yet */
    char datatype[CMP_OMB_DATATYPE_LEN];
    bool has_datatype;
    char note[HEADING_LEN];             /* the '#' line just before: the heading, or a note */
    size_t note_line;                   /* 0: the line before was none */
    char heading[HEADING_LEN];
    size_t heading_line, ncols;
    char names[MAX_COLUMNS][64];
    enum role role[MAX_COLUMNS];
};

/* "PATH:LINE: what" into the caller's err: every refusal here names a
 * line (an empty file never reaches this reader). */
static int fail(struct reader *r, size_t line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(struct reader *r, size_t line, const char *fmt, ...)
{
    int n = snprintf(r->err, r->errlen, "%s:%zu: ", r->path, line);
    if (n >= 0 && (size_t)n < r->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* OMB's layout: a title of OMB's tests, and none of the suite's "#
 * command:" lines, which only its own text layout has (cmp_text reads
 * that). The stream is rewound either way. */
static bool recognise(FILE *in)
{
    char *line = NULL;
    size_t cap = 0;
    bool title = false, command = false;
    while (getline(&line, &cap, in) >= 0) {
        title |= starts_with(line, "# OSU ");
        command |= starts_with(line, "# command: ");
    }
    free(line);
    rewind(in);
    return title && !command;
}

/* "# OSU MPI Latency Test v7.4 (commsweep 0.1.0)": the test, then OMB's
 * version and the suite's, either of which may be missing. RMA programs
 * print the title again before each datatype of -T all: the same title is
 * no second run. */
static int read_title(struct reader *r, const char *line, size_t lineno)
{
    struct cmp_omb *o = r->o;
    char text[sizeof o->title], suite[sizeof o->suite] = "", version[sizeof o->version] = "";
    if (snprintf(text, sizeof text, "%s", line + 2) >= (int)sizeof text)
        return fail(r, lineno, "a title longer than %zu bytes", sizeof text - 1);
    size_t len = strlen(text);
    while (len && isspace((unsigned char)text[len - 1]))
        text[--len] = '\0';
    char *mark = strstr(text, " (commsweep ");
    if (mark && text[len - 1] == ')') {
        text[len - 1] = '\0';
        snprintf(suite, sizeof suite, "%.*s", (int)(sizeof suite - 1), mark + 2);
        *mark = '\0';
    }
    char *v = strrchr(text, ' ');
    if (v && v[1] == 'v' && isdigit((unsigned char)v[2])) {
        snprintf(version, sizeof version, "%.*s", (int)(sizeof version - 1), v + 2);
        *v = '\0';
    }
    if (r->title_line) {
        if (strcmp(text, o->title) != 0)
            return fail(r, lineno, "a second title, '%s' after '%s' (line %zu): two runs in one "
                                   "file", text, o->title, r->title_line);
        return 0;
    }
    /* The layout read here is OMB 7's: another major's is not known to
     * match it, and is refused rather than misread. */
    char *end;
    if (version[0] && (strtoul(version, &end, 10) != 7 || *end != '.'))
        return fail(r, lineno, "OMB %s's output: compare reads the layout of OMB 7.x", version);
    memcpy(o->title, text, sizeof o->title);
    memcpy(o->version, version, sizeof o->version);
    memcpy(o->suite, suite, sizeof o->suite);
    r->title_line = lineno;
    return 0;
}

/* "# Datatype: MPI_CHAR.": the type of the rows that follow. */
static int read_datatype(struct reader *r, const char *line, size_t lineno)
{
    const char *name = line + strlen("# Datatype: ");
    size_t len = strlen(name);
    while (len && (name[len - 1] == '.' || isspace((unsigned char)name[len - 1])))
        len--;
    if (len == 0 || len >= sizeof r->datatype)
        return fail(r, lineno, "a datatype of %zu bytes: one of 1 to %zu", len,
                    sizeof r->datatype - 1);
    snprintf(r->datatype, sizeof r->datatype, "%.*s", (int)len, name);
    r->has_datatype = true;
    return 0;
}

/* OMB right-aligns each heading in its field, so two spaces or more part
 * two headings; so does the end of a unit, since OMB's tail columns fill
 * their field to one space ("Bandwidth (MB/s) P50 Tail BW(MB/s)"). One
 * space is within a heading ("Avg Latency(us)", "Transmit Size"). */
static int split_heading(struct reader *r, const char *line, size_t lineno)
{
    const char *p = line + 1;
    size_t n = 0;
    for (;;) {
        while (isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        const char *start = p;
        for (;;) {
            while (*p && !isspace((unsigned char)*p))
                p++;
            if (p[-1] == ')' || *p != ' ' || p[1] == '\0' || isspace((unsigned char)p[1]))
                break;
            p++;
        }
        size_t len = (size_t)(p - start);
        if (n == MAX_COLUMNS)
            return fail(r, lineno, "more than %d columns", MAX_COLUMNS);
        if (len >= sizeof r->names[n])
            return fail(r, lineno, "a column heading longer than %zu bytes",
                        sizeof r->names[n] - 1);
        memcpy(r->names[n], start, len);
        r->names[n++][len] = '\0';
    }
    r->ncols = n;
    return 0;
}

/* A --stats heading of the suite: "Median(us)", "P5(MB/s)"... */
static bool stats_heading(const char *h, const char *name)
{
    size_t n = strlen(name);
    return strncmp(h, name, n) == 0 && h[n] == '(';
}

static bool all_digits(const char *w)
{
    return *w && strspn(w, "0123456789") == strlen(w);
}

/* The table from its heading: what each column is, the first value column
 * the one compared (as in the JSON Lines), a time better lower. */
static int declare(struct reader *r, size_t lineno)
{
    struct cmp_omb *o = r->o;
    snprintf(r->heading, sizeof r->heading, "%s", r->note);
    r->heading_line = lineno;
    if (split_heading(r, r->heading, lineno) != 0)
        return -1;
    if (r->ncols && all_digits(r->names[0]))
        return fail(r, lineno, "a heading of window sizes (osu_mbw_mr -V): compare reads tables "
                               "of one row per message size");
    for (size_t i = 0; i < r->ncols; i++) {
        const char *h = r->names[i];
        enum role role = i == 0 && strcmp(h, "Size") == 0 ? ROLE_SIZE
                         : stats_heading(h, "Median")   ? ROLE_MEDIAN
                         : stats_heading(h, "P5")       ? ROLE_P5
                         : stats_heading(h, "P95")      ? ROLE_P95
                         : strcmp(h, "Iterations") == 0 ? ROLE_ITERATIONS
                         : strcmp(h, "Validation") == 0 ? ROLE_VALIDATION
                         : !o->main[0]                  ? ROLE_MAIN
                         : strchr(h, '(')               ? ROLE_NUMBER
                                                        : ROLE_ANY;
        if (role == ROLE_MAIN) {
            struct osu_field field;
            osu_field_of(h, &field);
            snprintf(o->main, sizeof o->main, "%s", field.name);
            snprintf(o->main_unit, sizeof o->main_unit, "%s", field.unit);
            o->lower_better = strcmp(field.unit, REPORT_UNIT_US) == 0 ||
                              strcmp(field.unit, REPORT_UNIT_S) == 0;
        }
        r->role[i] = role;
    }
    if (!o->main[0])
        return fail(r, lineno, "no value column in '%s'", r->heading);
    o->sized = r->role[0] == ROLE_SIZE;
    o->typed = r->has_datatype;
    return 0;
}

/* A whole word as a number (strtod's forms). */
static bool to_number(const char *w, double *out)
{
    char *end;
    *out = strtod(w, &end);
    return end != w && *end == '\0';
}

static bool to_count(const char *w, size_t *out)
{
    if (!all_digits(w) || strlen(w) > 15) /* beyond any count a run makes */
        return false;
    *out = (size_t)strtoull(w, NULL, 10);
    return true;
}

/* One value into the row by its column's role. */
static int put(struct reader *r, struct cmp_omb_row *row, size_t i, const char *w, size_t lineno)
{
    const char *h = r->names[i];
    double v;
    size_t n;
    switch (r->role[i]) {
    case ROLE_SIZE:
        if (!to_count(w, &n))
            return fail(r, lineno, "'%.40s' is not a message size", w);
        snprintf(row->size, sizeof row->size, "%s", w);
        return 0;
    case ROLE_ITERATIONS:
        if (!to_count(w, &row->iterations) || row->iterations == 0)
            return fail(r, lineno, "'%.40s' in column %s: a count of iterations is a positive "
                                   "whole number", w, h);
        return 0;
    case ROLE_VALIDATION:
        if (strcmp(w, "Pass") != 0 && strcmp(w, "Fail") != 0)
            return fail(r, lineno, "'%.40s' in column Validation: OMB writes Pass or Fail", w);
        return 0;
    case ROLE_ANY:
        return 0;
    default:
        break;
    }
    if (!to_number(w, &v))
        return fail(r, lineno, "'%.40s' in column %s is not a number", w, h);
    bool spread = r->role[i] == ROLE_MEDIAN || r->role[i] == ROLE_P5 || r->role[i] == ROLE_P95;
    if (spread && !(isfinite(v) && v >= 0))
        return fail(r, lineno, "'%.40s' in column %s: a measured value must be finite and not "
                               "negative", w, h);
    if (r->role[i] == ROLE_MAIN)
        row->main = v;
    else if (r->role[i] == ROLE_MEDIAN)
        row->median = v;
    else if (r->role[i] == ROLE_P5)
        row->p5 = v;
    else if (r->role[i] == ROLE_P95)
        row->p95 = v;
    return 0;
}

static int read_row(struct reader *r, char *line, size_t lineno)
{
    char *w[MAX_COLUMNS + 1];
    size_t n = 0;
    for (char *save = NULL, *t = strtok_r(line, " \t", &save); t && n <= MAX_COLUMNS;
         t = strtok_r(NULL, " \t", &save))
        w[n++] = t;
    if (n > MAX_COLUMNS)
        return fail(r, lineno, "more than %d values: not OMB's layout", MAX_COLUMNS);
    if (n != r->ncols)
        return fail(r, lineno, "%zu values where the heading (line %zu) names %zu columns: %s", n,
                    r->heading_line, r->ncols,
                    n < r->ncols ? "a line cut short" : "not OMB's layout");
    struct cmp_omb_row row = {.line = lineno};
    if (r->o->typed)
        memcpy(row.datatype, r->datatype, sizeof row.datatype);
    size_t spread = 0;
    for (size_t i = 0; i < n; i++) {
        if (put(r, &row, i, w[i], lineno) != 0)
            return -1;
        spread += r->role[i] == ROLE_MEDIAN || r->role[i] == ROLE_P5 || r->role[i] == ROLE_P95;
    }
    row.has_spread = spread == 3;
    r->o->nrows++;
    return r->take(r->o, &row, r->arg);
}

/* A data line: the '#' line just before it is the heading (the first
 * time), the heading again (-T all), or a note; a line that starts as the
 * heading does but differs is another table. */
static int read_data(struct reader *r, char *line, size_t lineno)
{
    if (!r->title_line)
        return fail(r, lineno, "a data line before OMB's title line");
    if (r->note_line && !r->ncols) {
        if (declare(r, r->note_line) != 0)
            return -1;
    } else if (r->note_line && strcmp(r->note, r->heading) != 0) {
        size_t first = strlen(r->names[0]);
        const char *after = r->note + 2 + first;
        if (strncmp(r->note + 2, r->names[0], first) == 0 && (*after == ' ' || !*after))
            return fail(r, r->note_line, "the columns change within the file: '%s'", r->note);
    }
    if (!r->ncols)
        return fail(r, lineno, "a data line before any column heading");
    r->note_line = 0;
    return read_row(r, line, lineno);
}

static int read_line(struct reader *r, char *line, size_t lineno)
{
    if (line[strspn(line, " \t")] == '\0') {
        r->note_line = 0;
        return 0;
    }
    if (line[0] != '#')
        return read_data(r, line, lineno);
    r->note_line = 0;
    if (starts_with(line, "# OSU "))
        return read_title(r, line, lineno);
    if (starts_with(line, "# Datatype: "))
        return read_datatype(r, line, lineno);
    if (snprintf(r->note, sizeof r->note, "%s", line) >= (int)sizeof r->note && !r->ncols)
        return fail(r, lineno, "a comment line longer than %d bytes before the table",
                    HEADING_LEN - 1);
    r->note_line = lineno;
    return 0;
}

int cmp_omb_read(FILE *in, const char *path, struct cmp_omb *o, cmp_omb_take take, void *arg,
                 char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    if (!recognise(in))
        return 1;
    struct reader rd = {.path = path, .err = err, .errlen = errlen, .o = o, .take = take,
                        .arg = arg};
    struct reader *r = &rd;
    char *line = NULL;
    size_t cap = 0, lineno = 0;
    ssize_t len;
    int rc = 0;
    while (rc == 0 && (len = getline(&line, &cap, in)) >= 0) {
        lineno++;
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        rc = read_line(r, line, lineno);
    }
    free(line);
    /* A table ends with its rows: a file that stops before them was cut,
     * or ran nothing to compare (osu_init, osu_hello). */
    if (rc == 0 && o->nrows == 0)
        rc = fail(r, lineno, "the file ends before any data line: a run cut short, or one "
                             "without a table");
    return rc;
}
