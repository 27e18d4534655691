/*
 * cmp_file: one result file of the suite, text or JSON Lines, read into
 * the same shape whatever its format, so that compare can set a text run
 * against a JSON one: what wrote it (program, title), its tables as the
 * JSON header declares them (keys, main field, which way is better, the
 * field the spread describes), and its rows (key values, the main value,
 * median, P5, P95, iteration count and per-iteration values where the file
 * has them). The readers (cmp_jsonl.c, cmp_text.c) fill it, and OMB's
 * plain layout comes in through cmp_omb.h; a file they cannot read is an
 * error message, never an exit.
 */
#ifndef COMMSWEEP_CMP_FILE_H
#define COMMSWEEP_CMP_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define CMP_NAME_LEN 64
#define CMP_MAX_KEYS 8
#define CMP_MAX_TABLES 8

enum cmp_better { CMP_LOWER_BETTER, CMP_HIGHER_BETTER, CMP_NOT_RANKED };

struct cmp_table {
    char name[CMP_NAME_LEN];
    char main[CMP_NAME_LEN], main_unit[CMP_NAME_LEN];
    char stats_of[CMP_NAME_LEN]; /* "": the rows keep no per-iteration values */
    enum cmp_better better;
    size_t nkeys;
    char keys[CMP_MAX_KEYS][CMP_NAME_LEN];
    bool key_numeric[CMP_MAX_KEYS]; /* its unit is not "text" */
};

struct cmp_row {
    size_t table;              /* index in cmp_file.tables */
    char *key[CMP_MAX_KEYS];   /* each key's value as text; "" for null */
    double main;               /* NaN when null or absent */
    bool has_spread;           /* median, p5, p95 below are known */
    double median, p5, p95;
    size_t iterations;         /* 0: not known */
    double *samples;           /* per-iteration values, NULL when the file has none */
    size_t nsamples;
    size_t line;               /* where the row is in its file */
    bool averages_only;        /* OMB's plain layout: the main value is all there is */
};

struct cmp_file {
    char path[512];
    bool jsonl;
    char program[128];         /* "osu/osu_latency"; text: family/name from its command;
                                * "" in OMB's plain layout, which names only its title */
    char title[256];
    char date[64];
    char layout[160];          /* text in OMB's plain layout: which ("OMB 7.4's layout") */
    char ending[256];          /* JSON: how the run ended, when not with status 0 ("" if so) */
    size_t ntables;
    struct cmp_table tables[CMP_MAX_TABLES];
    size_t nrows, cap;
    struct cmp_row *rows;
};

/* Reads path (format from its first line: '{' is JSON Lines; text with an
 * OMB title and no '# command:' line is OMB's plain layout). 0, or -1
 * with a one-line message in err that names the file and line. */
int cmp_file_read(const char *path, struct cmp_file *f, char *err, size_t errlen);
void cmp_file_free(struct cmp_file *f);

/* For the readers: a stream of one format into f (whose path names it in
 * messages). */
int cmp_read_jsonl(FILE *in, struct cmp_file *f, char *err, size_t errlen);
int cmp_read_text(FILE *in, struct cmp_file *f, char *err, size_t errlen);

/* For the readers: the table called name (NULL: none yet), a new table
 * (NULL: too many), a new row of table t (NULL: no memory), the spread
 * and count of a row from its per-iteration values. */
const struct cmp_table *cmp_file_table(const struct cmp_file *f, const char *name);
struct cmp_table *cmp_file_add_table(struct cmp_file *f, const char *name);
struct cmp_row *cmp_file_add_row(struct cmp_file *f, size_t t, size_t line);
/* Sets a row's key i to a copy of text; -1 without memory. */
int cmp_row_set_key(struct cmp_row *r, size_t i, const char *text);
/* Takes samples (malloc'd) into the row: count, and median, P5, P95 as
 * stats.h computes them, unless the file gave them. -1 without memory. */
int cmp_row_take_samples(struct cmp_row *r, double *samples, size_t n);

/* Whether v can be a measured time or rate: finite and not negative. */
bool cmp_measured(double v);
/* Copies text into a field of n bytes; false when it does not fit. */
bool cmp_copy(char *dst, size_t n, const char *text);
/* "PATH:LINE: message" (line 0: "PATH: message") into err; returns -1. */
int cmp_error(char *err, size_t errlen, const struct cmp_file *f, size_t line,
              const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
