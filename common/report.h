/*
 * report: the machine-readable output (--format=jsonl) and the options that
 * shape rows in both formats (--stats, --samples). It owns the JSON Lines
 * stream on stdout: one header object, one object per data row, one summary
 * object, each written whole and flushed (doc/jsonl.md and
 * doc/jsonl.schema.json say what each holds). In text mode none of it prints
 * and the text printers (out.h) go on as before.
 *
 * Protocol: the header collects what the run says about itself (command,
 * options, environment, title, tables of fields, '#' notes) and is written
 * just before the first row, or with the summary when a run has none. A
 * table is declared (report_table, report_key, report_value) before the
 * header is written; a row names its table and may carry only its fields.
 * The summary is written by the exit path (err_finish), with the status.
 * A run refused before its first row (status 2) writes nothing at all.
 *
 * Only the printing rank (out_is_printer) writes; on the others every call
 * but report_environment (collective over all ranks, mpistart_comm) does
 * nothing.
 */
#ifndef COMMSWEEP_REPORT_H
#define COMMSWEEP_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "stats.h"

enum report_format { REPORT_TEXT, REPORT_JSONL };
extern const char *const report_format_names[]; /* "text", "jsonl", NULL */

/* The JSON Lines format's name and version, in every header. */
#define REPORT_FORMAT_NAME "commsweep-jsonl"
#define REPORT_FORMAT_VERSION 1

struct report_config {
    enum report_format format;
    bool stats;          /* --stats: median, P5, P95, CV per row */
    bool samples;        /* --samples: per-iteration values in JSON rows */
    const char *family;  /* "osu", "alltoall", ...: the program is family/name */
};

/* After the options are read; installs the summary on the exit path. */
void report_configure(const struct report_config *c);
bool report_jsonl(void);
bool report_stats(void);
bool report_samples(void);
/* Whether rows need their per-iteration values (--stats or --samples). */
bool report_per_iteration(void);

/* ---- the header ---- */
/* The command line as given (before options are parsed: getopt reorders). */
void report_command(int argc, char *const *argv);
/* Option values under "options", by name (the long name, else the letter). */
void report_option_size(const char *name, size_t v);
void report_option_double(const char *name, double v);
void report_option_bool(const char *name, bool v);
void report_option_string(const char *name, const char *v); /* NULL: null */
void report_positional(const char *text);
/* Date, MPI library and version, ranks and hosts; collective over all
 * ranks (mpistart_comm) while MPI runs (nulls for a program without MPI). */
void report_environment(void);
/* A top-level header field; the first value of a key stays. */
void report_header_string(const char *key, const char *value);
/* A list of strings under key (e.g. each rank's device). */
void report_header_strings(const char *key, const char *const *values, size_t n);
/* A '#' line: in the header's notes before the first row, the summary's after. */
void report_note(const char *text);
/* Whether this run checks data; the summary then says passed or failed. */
void report_validation(bool on);

/* ---- tables ---- */
/* Which way the main field is better; NOT_RANKED for a pass/fail result. */
enum report_better { REPORT_LOWER_BETTER, REPORT_HIGHER_BETTER, REPORT_NOT_RANKED };
/* Units a field can have; doc/jsonl.md explains each. */
#define REPORT_UNIT_BYTES "B"
#define REPORT_UNIT_S "s"
#define REPORT_UNIT_US "us"
#define REPORT_UNIT_MS "ms"
#define REPORT_UNIT_MB_S "MB/s"
#define REPORT_UNIT_MIB "MiB"
#define REPORT_UNIT_GIB "GiB"
#define REPORT_UNIT_GIB_S "GiB/s"
#define REPORT_UNIT_PER_S "1/s"
#define REPORT_UNIT_PERCENT "%"
#define REPORT_UNIT_COUNT "count"
#define REPORT_UNIT_RATIO "ratio"
#define REPORT_UNIT_TEXT "text"
#define REPORT_UNIT_BOOL "bool"

/* Starts declaring table name: main is the field that is the row's
 * measurement, better says which way is better, stats_of the field whose
 * per-iteration values --stats and --samples describe (NULL: rows of this
 * table have none). Declaring a table again (same name) changes nothing. */
void report_table(const char *name, const char *main, enum report_better better,
                  const char *stats_of);
/* Fields of the table being declared: keys identify a row (a size, a
 * communicator split, a datatype), values are measured or derived. */
void report_key(const char *name, const char *unit);
void report_value(const char *name, const char *unit);
/* The table being declared holds computed or checked values, not
 * measurements: its rows have no "iterations" (the others all have). */
void report_no_iterations(void);
/* Whether report_table(name...) has been declared. */
bool report_has_table(const char *name);

/* A key every following row carries (until set again): what a block of
 * rows has in common, such as the datatype of a sweep or a pair of ranks. */
void report_context_string(const char *name, const char *value);
void report_context_size(const char *name, size_t v);

/* ---- rows ---- */
void report_row_begin(const char *table);
void report_row_size(const char *name, size_t v);
void report_row_double(const char *name, double v);
void report_row_string(const char *name, const char *v);
void report_row_bool(const char *name, bool v);
/* The row's iteration count and, when kept (values not NULL), the values
 * of its stats_of field per iteration: with --samples the list "samples",
 * with --stats "median", "p5", "p95", "cv", also into *d when d is not NULL
 * (for the text columns). values is not changed. */
void report_row_iterations(const double *values, size_t n, struct stats_dispersion *d);
void report_row_end(void);
/* Whether a JSON row is being built (report_row_begin without its end). */
bool report_row_open(void);
/* Rows measured where the printer is not (the first rank of a concurrent
 * group): while json is not NULL this rank builds its rows as the printer
 * would, with the context it was given, and report_row_end keeps the last
 * one's JSON object in json (len bytes, "" until then) instead of writing
 * it; NULL ends that. The printer then writes such an object with
 * report_row_write, with flag (a boolean field of the row's table, NULL:
 * none) added with value. Both do nothing in text. */
void report_row_capture(char *json, size_t len);
void report_row_write(const char *json, const char *flag, bool value);

/* ---- the end ---- */
/* Writes the summary (and the header, unless the run was refused before
 * its first row). err_finish calls it; a program calls it only when it
 * ends otherwise. Runs once. */
void report_finish(int status);

#endif
