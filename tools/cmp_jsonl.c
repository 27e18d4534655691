/* cmp_jsonl: a JSON Lines result file (doc/jsonl.md) into a cmp_file. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmp_file.h"
#include "jsonv.h"
#include "report.h"

/* The error of the line being read. */
struct ctx {
    struct cmp_file *f;
    size_t line;
    char *err;
    size_t errlen;
};

#define FAIL(c, ...) cmp_error((c)->err, (c)->errlen, (c)->f, (c)->line, __VA_ARGS__)

/* A string member copied into a field; absent or null leaves "" when
 * optional. */
static int copy_member(struct ctx *c, const struct jsonv *obj, const char *key, char *dst,
                       size_t n, bool optional)
{
    const struct jsonv *m = jsonv_get(obj, key);
    if ((!m || m->kind == JSONV_NULL) && optional)
        return 0;
    if (!m || m->kind != JSONV_STRING)
        return FAIL(c, "\"%s\" is not a string", key);
    if (!cmp_copy(dst, n, m->text))
        return FAIL(c, "\"%s\" is longer than %zu bytes", key, n - 1);
    return 0;
}

static int read_table(struct ctx *c, const char *name, const struct jsonv *decl)
{
    if (decl->kind != JSONV_OBJECT)
        return FAIL(c, "table \"%s\" is not an object", name);
    struct cmp_table *t = cmp_file_add_table(c->f, name);
    if (!t)
        return FAIL(c, "more than %d tables, or a table name longer than %d bytes",
                    CMP_MAX_TABLES, CMP_NAME_LEN - 1);
    const struct jsonv *units = jsonv_get(decl, "units"), *keys = jsonv_get(decl, "keys");
    const char *better = jsonv_string(decl, "better");
    if (copy_member(c, decl, "main", t->main, sizeof t->main, false) != 0 ||
        copy_member(c, decl, "stats_of", t->stats_of, sizeof t->stats_of, true) != 0)
        return -1;
    if (!keys || keys->kind != JSONV_ARRAY || keys->len > CMP_MAX_KEYS)
        return FAIL(c, "table \"%s\": \"keys\" is not a list of at most %d names", name,
                    CMP_MAX_KEYS);
    t->better = !better ? CMP_NOT_RANKED
                : strcmp(better, "lower") == 0 ? CMP_LOWER_BETTER : CMP_HIGHER_BETTER;
    const char *unit = jsonv_string(units, t->main);
    if (!unit || !cmp_copy(t->main_unit, sizeof t->main_unit, unit))
        return FAIL(c, "table \"%s\": no unit for its main field \"%s\"", name, t->main);
    for (size_t i = 0; i < keys->len; i++) {
        const struct jsonv *k = &keys->items[i];
        if (k->kind != JSONV_STRING || !cmp_copy(t->keys[i], CMP_NAME_LEN, k->text))
            return FAIL(c, "table \"%s\": a key that is not a short name", name);
        const char *ku = jsonv_string(units, k->text);
        t->key_numeric[i] =
            !ku || (strcmp(ku, REPORT_UNIT_TEXT) != 0 && strcmp(ku, REPORT_UNIT_BOOL) != 0);
    }
    t->nkeys = keys->len;
    return 0;
}

static int read_header(struct ctx *c, const struct jsonv *h)
{
    const char *format = jsonv_string(h, "format");
    const struct jsonv *version = jsonv_get(h, "format_version");
    if (!format || strcmp(format, REPORT_FORMAT_NAME) != 0 || !version ||
        version->kind != JSONV_NUMBER)
        return FAIL(c, "not commsweep's JSON Lines (the header has no \"format\": \"%s\")",
                    REPORT_FORMAT_NAME);
    if (version->number != REPORT_FORMAT_VERSION)
        return FAIL(c, "format_version %s: this compare reads version %d", version->text,
                    REPORT_FORMAT_VERSION);
    if (copy_member(c, h, "program", c->f->program, sizeof c->f->program, false) != 0 ||
        copy_member(c, h, "title", c->f->title, sizeof c->f->title, true) != 0 ||
        copy_member(c, h, "date", c->f->date, sizeof c->f->date, true) != 0)
        return -1;
    const struct jsonv *tables = jsonv_get(h, "tables");
    if (!tables || tables->kind != JSONV_OBJECT)
        return FAIL(c, "the header has no \"tables\"");
    for (size_t i = 0; i < tables->len; i++)
        if (read_table(c, tables->keys[i], &tables->items[i]) != 0)
            return -1;
    return 0;
}

/* A number member; NaN when absent or null, -1 when something else. */
static int number_member(struct ctx *c, const struct jsonv *row, const char *key, double *out)
{
    const struct jsonv *m = jsonv_get(row, key);
    *out = NAN;
    if (!m || m->kind == JSONV_NULL)
        return 0;
    if (m->kind != JSONV_NUMBER)
        return FAIL(c, "\"%s\" is not a number", key);
    *out = m->number;
    return 0;
}

/* A measured value of the spread (median, p5, p95): absent, or a finite
 * number that is not negative. null is a value that was not finite (a
 * rate over a time of zero): nothing a comparison can rank. */
static int measured_member(struct ctx *c, const struct jsonv *row, const char *key, double *out)
{
    const struct jsonv *m = jsonv_get(row, key);
    *out = NAN;
    if (!m)
        return 0;
    if (m->kind == JSONV_NULL)
        return FAIL(c, "\"%s\" is null: a measured value must be a finite number", key);
    if (m->kind != JSONV_NUMBER)
        return FAIL(c, "\"%s\" is not a number", key);
    if (!cmp_measured(m->number))
        return FAIL(c, "\"%s\" is %.40s: a measured value must be finite and not negative", key,
                    m->text);
    *out = m->number;
    return 0;
}

/* The per-iteration values, each a measured value. */
static int read_samples(struct ctx *c, struct cmp_row *r, const struct jsonv *list)
{
    if (list->kind != JSONV_ARRAY)
        return FAIL(c, "\"samples\" is not a list");
    double *x = malloc((list->len ? list->len : 1) * sizeof *x);
    if (!x)
        return FAIL(c, "out of memory");
    for (size_t i = 0; i < list->len; i++) {
        const struct jsonv *v = &list->items[i];
        if (v->kind != JSONV_NUMBER || !cmp_measured(v->number)) {
            free(x);
            return FAIL(c, "sample %zu is %.40s: a measured value must be a finite number, not "
                           "negative", i + 1, v->kind == JSONV_NULL ? "null" : v->text);
        }
        x[i] = v->number;
    }
    if (cmp_row_take_samples(r, x, list->len) != 0)
        return FAIL(c, "out of memory");
    return 0;
}

static int read_row(struct ctx *c, const struct jsonv *row)
{
    const char *name = jsonv_string(row, "table");
    const struct cmp_table *t = name ? cmp_file_table(c->f, name) : NULL;
    if (!t)
        return FAIL(c, "a row of table \"%s\", which the header does not declare",
                    name ? name : "(none)");
    struct cmp_row *r = cmp_file_add_row(c->f, (size_t)(t - c->f->tables), c->line);
    if (!r)
        return FAIL(c, "out of memory");
    for (size_t i = 0; i < t->nkeys; i++) {
        const struct jsonv *k = jsonv_get(row, t->keys[i]);
        if (!k)
            return FAIL(c, "a row of table \"%s\" without its key \"%s\"", t->name, t->keys[i]);
        const char *text = k->kind == JSONV_BOOL ? (k->boolean ? "true" : "false") : k->text;
        if ((k->kind == JSONV_STRING || k->kind == JSONV_NUMBER || k->kind == JSONV_BOOL) &&
            cmp_row_set_key(r, i, text) != 0)
            return FAIL(c, "out of memory");
    }
    double iterations;
    if (number_member(c, row, t->main, &r->main) != 0 ||
        measured_member(c, row, "median", &r->median) != 0 ||
        measured_member(c, row, "p5", &r->p5) != 0 || measured_member(c, row, "p95", &r->p95) != 0 ||
        number_member(c, row, "iterations", &iterations) != 0)
        return -1;
    r->has_spread = t->stats_of[0] && isfinite(r->median) && isfinite(r->p5) && isfinite(r->p95);
    if (!isnan(iterations) && !(iterations >= 1 && iterations < 1e15 && iterations == floor(iterations)))
        return FAIL(c, "\"iterations\" is %.40s: a count of iterations is a positive whole number",
                    jsonv_get(row, "iterations")->text);
    if (!isnan(iterations))
        r->iterations = (size_t)iterations;
    const struct jsonv *samples = jsonv_get(row, "samples");
    return samples && t->stats_of[0] ? read_samples(c, r, samples) : 0;
}

static int read_summary(struct ctx *c, const struct jsonv *s)
{
    const struct jsonv *status = jsonv_get(s, "status");
    const char *message = jsonv_string(s, "message");
    if (!status || status->kind != JSONV_NUMBER)
        return FAIL(c, "a summary without its \"status\"");
    if (status->number != 0)
        snprintf(c->f->ending, sizeof c->f->ending, "the run ended with status %s%s%.200s",
                 status->text, message ? ": " : "", message ? message : "");
    return 0;
}

/* One line's object, by its type, in the order the format allows. */
static int read_object(struct ctx *c, const struct jsonv *o, bool *header, bool *summary)
{
    const char *type = jsonv_string(o, "type");
    if (!type)
        return FAIL(c, "an object without a \"type\"");
    if (!*header) {
        if (strcmp(type, "header") != 0)
            return FAIL(c, "not commsweep's JSON Lines: the first object is no header");
        *header = true;
        return read_header(c, o);
    }
    if (*summary)
        return FAIL(c, "an object after the summary (two runs in one file?)");
    if (strcmp(type, "row") == 0)
        return read_row(c, o);
    if (strcmp(type, "summary") == 0) {
        *summary = true;
        return read_summary(c, o);
    }
    if (strcmp(type, "header") == 0)
        return FAIL(c, "a second header: two runs in one file");
    return FAIL(c, "an object of unknown type \"%s\"", type);
}

int cmp_read_jsonl(FILE *in, struct cmp_file *f, char *err, size_t errlen)
{
    struct ctx c = {.f = f, .err = err, .errlen = errlen};
    char *line = NULL, why[200];
    size_t cap = 0;
    ssize_t len;
    bool header = false, summary = false;
    int rc = 0;
    while (rc == 0 && (len = getline(&line, &cap, in)) >= 0) {
        c.line++;
        if (strspn(line, " \t\r\n") == (size_t)len)
            continue;
        struct jsonv o;
        if (jsonv_parse(line, (size_t)len, &o, why, sizeof why) != 0) {
            rc = FAIL(&c, "not JSON: %s", why);
            break;
        }
        if (o.kind != JSONV_OBJECT)
            rc = FAIL(&c, "a JSON value that is not an object");
        else
            rc = read_object(&c, &o, &header, &summary);
        jsonv_free(&o);
    }
    free(line);
    if (rc == 0 && !summary)
        snprintf(f->ending, sizeof f->ending, "no summary: the run was cut off");
    return rc;
}
