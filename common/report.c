/* report: the JSON Lines stream and the row options; see report.h. */
#include "report.h"

#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "err.h"
#include "json.h"
#include "mpistart.h"
#include "out.h"
#include "runinfo.h"
#include "version.h"

const char *const report_format_names[] = {"text", "jsonl", NULL};

#define REPORT_MAX_HEADER 32
#define REPORT_MAX_TABLES 8
#define REPORT_MAX_FIELDS 48
#define REPORT_MAX_CONTEXT 8
#define REPORT_NAME_LEN 48
/* Notes beyond this many bytes are counted, not kept. */
#define REPORT_NOTES_BYTES (256u * 1024u)

struct field {
    char name[REPORT_NAME_LEN];
    char unit[16];
    bool key;
};

struct table {
    char name[REPORT_NAME_LEN], main[REPORT_NAME_LEN], stats_of[REPORT_NAME_LEN];
    enum report_better better;
    bool computed; /* no iterations */
    struct field fields[REPORT_MAX_FIELDS];
    size_t nfields;
};

struct header_field {
    char *key, *value; /* value: JSON text */
};

static struct {
    struct report_config config;
    bool configured, header_written, finished, validation;
    char program[256];
    struct header_field header[REPORT_MAX_HEADER];
    size_t nheader;
    struct json options, positionals, notes;
    size_t notes_dropped;
    struct table tables[REPORT_MAX_TABLES];
    size_t ntables;
    struct table *declaring; /* the table report_key/value add to, NULL: none */
    struct { char name[REPORT_NAME_LEN]; char *value; } context[REPORT_MAX_CONTEXT];
    size_t ncontext;
    struct json row;
    const struct table *row_table;
    const char *row_keys[REPORT_MAX_FIELDS]; /* the fields the row has, for duplicates */
    size_t nrow_keys;
    size_t rows;
    double start;
    double *scratch; /* sorted copy of a row's values */
    size_t scratch_len;
    char *capture;        /* report_row_capture: where this rank's rows go */
    size_t capture_len;
    bool tables_complete; /* on a rank that captures rows and writes no header */
} rep;

/* Whether this rank builds rows: the printer, and a rank capturing them. */
static bool building(void) { return out_is_printer() || rep.capture; }
static bool writing(void) { return rep.config.format == REPORT_JSONL && building(); }

static char *copy_text(const char *s, size_t n)
{
    char *c = malloc(n + 1);
    if (!c)
        err_fatal("out of memory for the JSON output");
    memcpy(c, s, n);
    c[n] = '\0';
    return c;
}

static void check(const struct json *j)
{
    if (json_failed(j))
        err_fatal("out of memory for the JSON output");
}

static double wall_now(void)
{
    if (mpistart_running())
        return MPI_Wtime();
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void finish_hook(int status) { report_finish(status); }

void report_configure(const struct report_config *c)
{
    rep.config = *c;
    rep.configured = true;
    rep.start = wall_now();
    if (c->format == REPORT_JSONL)
        err_at_exit(finish_hook);
}

bool report_jsonl(void) { return rep.config.format == REPORT_JSONL; }
bool report_stats(void) { return rep.config.stats; }
bool report_samples(void) { return rep.config.samples; }
bool report_per_iteration(void) { return rep.config.stats || rep.config.samples; }

/* ---- the header ---- */

static void header_raw(const char *key, const char *value, size_t len)
{
    for (size_t i = 0; i < rep.nheader; i++)
        if (strcmp(rep.header[i].key, key) == 0)
            return;
    if (rep.nheader == REPORT_MAX_HEADER)
        err_fatal("report: more than %d header fields", REPORT_MAX_HEADER);
    rep.header[rep.nheader].key = copy_text(key, strlen(key));
    rep.header[rep.nheader].value = copy_text(value, len);
    rep.nheader++;
}

/* Runs fill on a scratch builder and stores the value under key. */
static void header_value(const char *key, void (*fill)(struct json *, const void *),
                         const void *arg)
{
    struct json j;
    json_init(&j);
    fill(&j, arg);
    check(&j);
    header_raw(key, j.text, j.len);
    json_free(&j);
}

static void fill_string(struct json *j, const void *s)
{
    if (s)
        json_string(j, s);
    else
        json_null(j);
}

void report_header_string(const char *key, const char *value)
{
    if (writing())
        header_value(key, fill_string, value);
}

struct string_list {
    const char *const *values;
    size_t n;
};
static void fill_strings(struct json *j, const void *arg)
{
    const struct string_list *l = arg;
    json_array_begin(j);
    for (size_t i = 0; i < l->n; i++)
        json_string(j, l->values[i]);
    json_array_end(j);
}

void report_header_strings(const char *key, const char *const *values, size_t n)
{
    struct string_list l = {values, n};
    if (writing())
        header_value(key, fill_strings, &l);
}

void report_command(int argc, char *const *argv)
{
    if (rep.config.format != REPORT_JSONL && rep.configured)
        return;
    /* Kept on every rank until the format is known: the options that say it
     * are read after this. */
    const char *name = argc > 0 ? argv[0] : "?";
    const char *slash = strrchr(name, '/');
    snprintf(rep.program, sizeof rep.program, "%s", slash ? slash + 1 : name);
    struct string_list l = {(const char *const *)argv, (size_t)argc};
    header_value("command", fill_strings, &l);
}

static struct json *option_key(const char *name)
{
    if (!rep.options.len)
        json_object_begin(&rep.options);
    json_key(&rep.options, name);
    return &rep.options;
}

void report_option_size(const char *name, size_t v)
{
    if (writing())
        json_size(option_key(name), v);
}
void report_option_double(const char *name, double v)
{
    if (writing())
        json_double(option_key(name), v);
}
void report_option_bool(const char *name, bool v)
{
    if (writing())
        json_bool(option_key(name), v);
}
void report_option_string(const char *name, const char *v)
{
    if (writing())
        fill_string(option_key(name), v);
}

void report_positional(const char *text)
{
    if (!writing())
        return;
    if (!rep.positionals.len)
        json_array_begin(&rep.positionals);
    json_string(&rep.positionals, text);
}

struct host_list {
    const struct runinfo_host *hosts;
    size_t n;
};
static void fill_hosts(struct json *j, const void *arg)
{
    const struct host_list *l = arg;
    const struct runinfo_host *h = l->hosts;
    json_array_begin(j);
    for (size_t i = 0; i < l->n; i++) {
        json_object_begin(j);
        json_key(j, "name");
        json_string(j, h[i].name);
        json_key(j, "ranks");
        json_size(j, h[i].ranks);
        json_object_end(j);
    }
    json_array_end(j);
}

void report_environment(void)
{
    if (rep.config.format != REPORT_JSONL)
        return;
    bool mpi = mpistart_running();
    struct runinfo_host *hosts = NULL;
    size_t nhosts = mpi ? runinfo_hosts(mpistart_comm(), &hosts) : 0;
    if (!writing()) {
        free(hosts);
        return;
    }
    char date[64], ranks[32];
    runinfo_date(date, sizeof date);
    report_header_string("date", date);
    if (!mpi) {
        header_raw("mpi", "null", 4);
        header_raw("ranks", "null", 4);
        header_raw("hosts", "null", 4);
        return;
    }
    char lib[MPI_MAX_LIBRARY_VERSION_STRING + 1];
    runinfo_mpi_library(lib, sizeof lib);
    int major = 0, minor = 0, size = 0;
    MPI_Get_version(&major, &minor);
    MPI_Comm_size(mpistart_comm(), &size);
    struct json j;
    json_init(&j);
    json_object_begin(&j);
    json_key(&j, "library");
    json_string(&j, lib);
    json_key(&j, "standard");
    char standard[16];
    snprintf(standard, sizeof standard, "%d.%d", major, minor);
    json_string(&j, standard);
    json_object_end(&j);
    check(&j);
    header_raw("mpi", j.text, j.len);
    json_free(&j);
    snprintf(ranks, sizeof ranks, "%d", size);
    header_raw("ranks", ranks, strlen(ranks));
    struct host_list l = {hosts, nhosts};
    header_value("hosts", fill_hosts, &l);
    free(hosts);
}

void report_note(const char *text)
{
    if (!writing())
        return;
    if (rep.notes.len + strlen(text) > REPORT_NOTES_BYTES) {
        rep.notes_dropped++;
        return;
    }
    if (!rep.notes.len)
        json_array_begin(&rep.notes);
    json_string(&rep.notes, text);
    check(&rep.notes);
}

void report_validation(bool on) { rep.validation = on; }

/* ---- tables ---- */

static struct table *find_table(const char *name)
{
    for (size_t i = 0; i < rep.ntables; i++)
        if (strcmp(rep.tables[i].name, name) == 0)
            return &rep.tables[i];
    return NULL;
}

bool report_has_table(const char *name) { return find_table(name) != NULL; }

static void copy_name(char *dst, const char *src)
{
    if (strlen(src) >= REPORT_NAME_LEN)
        err_fatal("report: field name '%s' is too long", src);
    strcpy(dst, src);
}

void report_table(const char *name, const char *main, enum report_better better,
                  const char *stats_of)
{
    rep.declaring = NULL;
    if (rep.config.format != REPORT_JSONL || find_table(name))
        return;
    if (rep.header_written)
        err_fatal("report: table %s declared after the first row", name);
    if (rep.ntables == REPORT_MAX_TABLES)
        err_fatal("report: more than %d tables", REPORT_MAX_TABLES);
    struct table *t = &rep.tables[rep.ntables++];
    memset(t, 0, sizeof *t);
    copy_name(t->name, name);
    copy_name(t->main, main);
    copy_name(t->stats_of, stats_of ? stats_of : "");
    t->better = better;
    rep.declaring = t;
}

static struct field *find_field(const struct table *t, const char *name)
{
    for (size_t i = 0; i < t->nfields; i++)
        if (strcmp(t->fields[i].name, name) == 0)
            return (struct field *)&t->fields[i];
    return NULL;
}

static void add_field(struct table *t, const char *name, const char *unit, bool key)
{
    if (find_field(t, name))
        return;
    if (t->nfields == REPORT_MAX_FIELDS)
        err_fatal("report: more than %d fields in table %s", REPORT_MAX_FIELDS, t->name);
    struct field *f = &t->fields[t->nfields++];
    copy_name(f->name, name);
    snprintf(f->unit, sizeof f->unit, "%s", unit);
    f->key = key;
}

void report_key(const char *name, const char *unit)
{
    if (rep.declaring)
        add_field(rep.declaring, name, unit, true);
}

void report_value(const char *name, const char *unit)
{
    if (rep.declaring)
        add_field(rep.declaring, name, unit, false);
}

void report_no_iterations(void)
{
    if (rep.declaring)
        rep.declaring->computed = true;
}

/* The fields every table has, and the per-iteration ones where it keeps them. */
static void complete_table(struct table *t)
{
    if (!t->computed)
        add_field(t, "iterations", REPORT_UNIT_COUNT, false);
    if (!t->stats_of[0])
        return;
    const struct field *of = find_field(t, t->stats_of);
    if (!of)
        err_fatal("report: table %s: no field %s to describe", t->name, t->stats_of);
    char unit[sizeof of->unit];
    snprintf(unit, sizeof unit, "%s", of->unit);
    if (rep.config.samples)
        add_field(t, "samples", unit, false);
    if (rep.config.stats) {
        add_field(t, "median", unit, false);
        add_field(t, "p5", unit, false);
        add_field(t, "p95", unit, false);
        add_field(t, "cv", REPORT_UNIT_RATIO, false);
    }
}

static void write_table(struct json *j, const struct table *t)
{
    json_key(j, t->name);
    json_object_begin(j);
    json_key(j, "main");
    json_string(j, t->main);
    json_key(j, "better");
    if (t->better == REPORT_NOT_RANKED)
        json_null(j);
    else
        json_string(j, t->better == REPORT_LOWER_BETTER ? "lower" : "higher");
    json_key(j, "stats_of");
    if (t->stats_of[0])
        json_string(j, t->stats_of);
    else
        json_null(j);
    json_key(j, "keys");
    json_array_begin(j);
    for (size_t i = 0; i < t->nfields; i++)
        if (t->fields[i].key)
            json_string(j, t->fields[i].name);
    json_array_end(j);
    json_key(j, "units");
    json_object_begin(j);
    for (size_t i = 0; i < t->nfields; i++) {
        json_key(j, t->fields[i].name);
        json_string(j, t->fields[i].unit);
    }
    json_object_end(j);
    json_object_end(j);
}

/* ---- context ---- */

static void context_set(const char *name, const char *json_value, size_t len)
{
    size_t k = 0;
    while (k < rep.ncontext && strcmp(rep.context[k].name, name) != 0)
        k++;
    if (k == REPORT_MAX_CONTEXT)
        err_fatal("report: more than %d row keys in context", REPORT_MAX_CONTEXT);
    if (k == rep.ncontext) {
        copy_name(rep.context[k].name, name);
        rep.ncontext++;
    }
    free(rep.context[k].value);
    rep.context[k].value = copy_text(json_value, len);
}

/* Every rank keeps the context: one that captures rows later needs it. */
void report_context_string(const char *name, const char *value)
{
    if (rep.config.format != REPORT_JSONL)
        return;
    struct json j;
    json_init(&j);
    json_string(&j, value);
    check(&j);
    context_set(name, j.text, j.len);
    json_free(&j);
}

void report_context_size(const char *name, size_t v)
{
    char text[32];
    snprintf(text, sizeof text, "%zu", v);
    if (rep.config.format == REPORT_JSONL)
        context_set(name, text, strlen(text));
}

/* ---- writing lines ---- */

/* Every object starts with its type. */
static void begin_object(struct json *j, const char *type)
{
    json_object_begin(j);
    json_key(j, "type");
    json_string(j, type);
}

/* One whole line in one write, flushed: an object is never seen half
 * written. */
static void emit(struct json *j)
{
    json_raw(j, "\n", 1); /* after the closed object: no comma goes before it */
    check(j);
    errno = 0;
    err_write_check(stdout, ERR_STDOUT_NAME);
    fwrite(j->text, 1, j->len, stdout);
    err_write_check(stdout, ERR_STDOUT_NAME);
}

/* A builder holding an open container, closed and written as one value. */
static void raw_closed(struct json *dst, struct json *src, bool object)
{
    if (!src->len) {
        json_raw(dst, object ? "{}" : "[]", 2);
        return;
    }
    struct json copy;
    json_init(&copy);
    json_raw(&copy, src->text, src->len);
    if (object)
        json_object_end(&copy);
    else
        json_array_end(&copy);
    check(&copy);
    json_raw(dst, copy.text, copy.len);
    json_free(&copy);
}

static void write_header(void)
{
    if (rep.header_written || !writing())
        return;
    if (!out_is_printer()) { /* capturing: the tables as the header has them */
        for (size_t i = 0; !rep.tables_complete && i < rep.ntables; i++)
            complete_table(&rep.tables[i]);
        rep.tables_complete = true;
        return;
    }
    rep.header_written = true;
    struct json j;
    json_init(&j);
    begin_object(&j, "header");
    json_key(&j, "format");
    json_string(&j, REPORT_FORMAT_NAME);
    json_key(&j, "format_version");
    json_int(&j, REPORT_FORMAT_VERSION);
    json_key(&j, "program");
    char program[320];
    snprintf(program, sizeof program, "%s/%s", rep.config.family ? rep.config.family : "?",
             rep.program);
    json_string(&j, program);
    json_key(&j, "family");
    json_string(&j, rep.config.family ? rep.config.family : "?");
    json_key(&j, "version");
    json_string(&j, COMMSWEEP_VERSION);
    for (size_t i = 0; i < rep.nheader; i++) {
        json_key(&j, rep.header[i].key);
        json_raw(&j, rep.header[i].value, strlen(rep.header[i].value));
    }
    json_key(&j, "options");
    raw_closed(&j, &rep.options, true);
    json_key(&j, "positionals");
    raw_closed(&j, &rep.positionals, false);
    json_key(&j, "stats");
    json_bool(&j, rep.config.stats);
    json_key(&j, "samples");
    json_bool(&j, rep.config.samples);
    json_key(&j, "tables");
    json_object_begin(&j);
    for (size_t i = 0; i < rep.ntables; i++) {
        complete_table(&rep.tables[i]);
        write_table(&j, &rep.tables[i]);
    }
    json_object_end(&j);
    json_key(&j, "notes");
    raw_closed(&j, &rep.notes, false);
    json_object_end(&j);
    emit(&j);
    json_free(&j);
    /* Notes from here on belong to the summary. */
    json_reset(&rep.notes);
    rep.notes_dropped = 0;
    rep.declaring = NULL;
}

/* ---- rows ---- */

void report_row_begin(const char *table)
{
    if (!writing())
        return;
    write_header();
    const struct table *t = find_table(table);
    if (!t)
        err_fatal("report: a row of table %s, which was not declared", table);
    rep.row_table = t;
    rep.nrow_keys = 0;
    json_reset(&rep.row);
    begin_object(&rep.row, "row");
    json_key(&rep.row, "table");
    json_string(&rep.row, table);
    for (size_t k = 0; k < rep.ncontext; k++) {
        const struct field *f = find_field(t, rep.context[k].name);
        if (!f)
            continue; /* another table's key */
        rep.row_keys[rep.nrow_keys++] = f->name;
        json_key(&rep.row, rep.context[k].name);
        json_raw(&rep.row, rep.context[k].value, strlen(rep.context[k].value));
    }
}

/* The key of a field of the row being built; false on other ranks. A
 * field outside the row's table, or given twice, is a mistake of the
 * printer, stopped here rather than written. */
static bool row_key(const char *name)
{
    if (!writing())
        return false;
    if (!rep.row_table)
        err_fatal("report: field %s outside a row", name);
    const struct field *f = find_field(rep.row_table, name);
    if (!f)
        err_fatal("report: field %s is not in table %s", name, rep.row_table->name);
    for (size_t i = 0; i < rep.nrow_keys; i++)
        if (rep.row_keys[i] == f->name)
            err_fatal("report: field %s twice in a row of table %s", name, rep.row_table->name);
    rep.row_keys[rep.nrow_keys++] = f->name;
    json_key(&rep.row, name);
    return true;
}

void report_row_size(const char *name, size_t v)
{
    if (row_key(name))
        json_size(&rep.row, v);
}
void report_row_double(const char *name, double v)
{
    if (row_key(name))
        json_double(&rep.row, v);
}
void report_row_string(const char *name, const char *v)
{
    if (row_key(name))
        json_string(&rep.row, v);
}
void report_row_bool(const char *name, bool v)
{
    if (row_key(name))
        json_bool(&rep.row, v);
}

void report_row_iterations(const double *values, size_t n, struct stats_dispersion *d)
{
    report_row_size("iterations", n);
    /* d: the caller's text columns, wherever its row is built. */
    if (!values || n == 0 || (!building() && !d))
        return;
    if (rep.config.samples && writing() && row_key("samples")) {
        json_array_begin(&rep.row);
        for (size_t i = 0; i < n; i++)
            json_double(&rep.row, values[i]);
        json_array_end(&rep.row);
    }
    if (!rep.config.stats)
        return;
    if (n > rep.scratch_len) {
        double *more = realloc(rep.scratch, n * sizeof *more);
        if (!more)
            err_fatal("cannot allocate %zu values for --stats", n);
        rep.scratch = more;
        rep.scratch_len = n;
    }
    memcpy(rep.scratch, values, n * sizeof *values);
    stats_sort(rep.scratch, n);
    struct stats_dispersion s;
    stats_dispersion_sorted(rep.scratch, n, &s);
    if (d)
        *d = s;
    if (!writing())
        return;
    report_row_double("median", s.median);
    report_row_double("p5", s.p5);
    report_row_double("p95", s.p95);
    report_row_double("cv", s.cv);
}

bool report_row_open(void) { return rep.row_table != NULL; }

void report_row_end(void)
{
    if (!writing() || !rep.row_table)
        return;
    json_object_end(&rep.row);
    rep.row_table = NULL;
    if (rep.capture) {
        check(&rep.row);
        if (rep.row.len >= rep.capture_len)
            err_fatal("report: a row of %zu bytes does not fit the %zu kept for it",
                      rep.row.len, rep.capture_len);
        memcpy(rep.capture, rep.row.text, rep.row.len);
        rep.capture[rep.row.len] = '\0';
        return;
    }
    emit(&rep.row);
    rep.rows++;
}

void report_row_capture(char *json, size_t len)
{
    if (json && len)
        json[0] = '\0';
    rep.capture = json && len ? json : NULL;
    rep.capture_len = len;
}

void report_row_write(const char *json, const char *flag, bool value)
{
    if (rep.config.format != REPORT_JSONL || !out_is_printer() || !json[0])
        return;
    write_header();
    struct json j;
    json_init(&j);
    size_t len = strlen(json);
    if (flag) { /* the object reopened: its last byte is the closing brace */
        json_raw(&j, json, len - 1);
        json_raw(&j, ",\"", 2);
        json_raw(&j, flag, strlen(flag));
        json_raw(&j, value ? "\":true}" : "\":false}", value ? 7 : 8);
    } else {
        json_raw(&j, json, len);
    }
    emit(&j);
    json_free(&j);
    rep.rows++;
}

/* ---- the end ---- */

static const char *validation_word(int status)
{
    if (!rep.validation)
        return "off";
    if (err_check_failed())
        return "failed";
    return status == ERR_STATUS_OK ? "passed" : "incomplete";
}

void report_finish(int status)
{
    if (rep.finished || rep.config.format != REPORT_JSONL || !out_is_printer())
        return;
    rep.finished = true;
    /* Refused before anything was measured: nothing at all on stdout. */
    if (!rep.header_written && status == ERR_STATUS_USAGE)
        return;
    write_header();
    struct json j;
    json_init(&j);
    begin_object(&j, "summary");
    json_key(&j, "status");
    json_int(&j, status);
    json_key(&j, "validation");
    json_string(&j, validation_word(status));
    json_key(&j, "rows");
    json_size(&j, rep.rows);
    json_key(&j, "elapsed_s");
    json_double(&j, wall_now() - rep.start);
    json_key(&j, "message");
    const char *message = err_message();
    if (status != ERR_STATUS_OK && message[0])
        json_string(&j, message);
    else
        json_null(&j);
    json_key(&j, "notes");
    raw_closed(&j, &rep.notes, false);
    if (rep.notes_dropped) {
        json_key(&j, "notes_dropped");
        json_size(&j, rep.notes_dropped);
    }
    json_object_end(&j);
    emit(&j);
    json_free(&j);
}
