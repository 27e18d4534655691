/*
 * opt: the one option parser (getopt_long) every program uses.
 *
 * A program describes its options in a table of opt_spec; opt_parse checks
 * every value strictly (no trailing garbage, no overflow, range limits) and
 * reports problems as a message instead of exiting, so it can be unit tested
 * without MPI. opt_parse_or_exit is the harness wrapper: errors become
 * err_usage (status 2), --help and --version print from rank 0 and exit 0.
 * --help and --version are always accepted, and so are the options of the
 * output (report.h): --format=text|jsonl, --stats and --samples, which a
 * program without per-iteration times refuses by naming why (no_stats).
 * Positional arguments are left in order for the program to interpret as
 * its seed defines them.
 */
#ifndef COMMSWEEP_OPT_H
#define COMMSWEEP_OPT_H

#include <stdbool.h>
#include <stddef.h>

enum opt_kind {
    OPT_FLAG,   /* bool *dest set to true; no argument */
    OPT_SIZE,   /* size_t *dest, plain decimal integer within [min, max] */
    OPT_DOUBLE, /* double *dest, finite, > 0 unless allow_zero */
    OPT_STRING, /* const char **dest, any non-empty text */
    OPT_CHOICE, /* int *dest = index of the argument in choices[] */
    OPT_CUSTOM, /* parse(arg, dest, err, errlen) returns 0 or fills err */
};

typedef int (*opt_custom_fn)(const char *arg, void *dest, char *err, size_t errlen);

struct opt_spec {
    const char *long_name; /* NULL when the option has only a letter */
    int short_name;        /* 0 when the option has only a long name */
    enum opt_kind kind;
    void *dest;
    const char *metavar;   /* shown in --help, e.g. "SIZE" */
    const char *help;      /* one line */
    size_t min, max;       /* OPT_SIZE bounds; max 0 means SIZE_MAX (OPT_DOUBLE: max, when
                            * not 0, bounds the value too) */
    bool allow_zero;       /* OPT_DOUBLE: accept 0 */
    const char *const *choices; /* OPT_CHOICE: NULL-terminated */
    opt_custom_fn parse;   /* OPT_CUSTOM */
};

/* The bound of the options that give a time a run waits for or aims at (a
 * day): beyond it a typing slip would run on for ever. */
#define OPT_SECONDS_MAX 86400

struct opt_usage {
    const char *synopsis;    /* "[options] [PARTITION [ITERS [COUNTHI]]]" */
    const char *description; /* a few lines printed under the synopsis */
    bool negative_positionals; /* "-5" is a positional number, not an option */
    bool v_is_version;         /* -v prints the version (OSU convention) */
    const char *family;        /* "osu", "alltoall", ...: names the program in JSON */
    const char *no_stats;      /* why --stats and --samples are refused; NULL: taken */
    const char *no_samples;    /* why --samples alone is refused; NULL: taken */
};

enum opt_status { OPT_OK, OPT_HELP, OPT_VERSION, OPT_ERROR };

#define OPT_MAX_SPECS 64

struct opt_result {
    enum opt_status status;
    int first_positional; /* index in argv of the first positional argument */
    char message[256];    /* the error, when status == OPT_ERROR */
    int format;           /* --format: index in report_format_names (0: text) */
    bool stats, samples;  /* --stats, --samples */
    const char *given[OPT_MAX_SPECS]; /* the last value given to specs[i], or NULL */
    char **argv;          /* what was parsed (reordered: positionals from first_positional) */
    int argc;
};

/* Parses argv against specs. argv may be permuted (positionals end up last,
 * in their original order). */
enum opt_status opt_parse(int argc, char **argv, const struct opt_spec *specs,
                          size_t nspecs, const struct opt_usage *usage,
                          struct opt_result *result);

/* opt_parse, then: error -> err_usage; --help -> help on stdout from rank 0,
 * exit 0 on every rank; --version likewise. Returns first_positional. */
int opt_parse_or_exit(int argc, char **argv, const struct opt_spec *specs,
                      size_t nspecs, const struct opt_usage *usage);
/* The second half of opt_parse_or_exit, for programs that parse before MPI
 * starts and report after (the OSU-style -I): acts on a result of
 * opt_parse against the same table. */
int opt_result_or_exit(const struct opt_result *r, const struct opt_spec *specs, size_t nspecs,
                       const struct opt_usage *usage);

/* A positional number as the seeds define them: zero or negative means
 * fallback; text that is not a number, or one above max, ends the program
 * with err_usage (status 2). */
size_t opt_positional_or_exit(const char *text, const char *what, size_t max, size_t fallback);

/* Writes --help text for the table to a stream. */
void opt_print_help(void *stream, const char *prog, const struct opt_spec *specs,
                    size_t nspecs, const struct opt_usage *usage);

/* Strict conversions, 0 on success or -1 with a message in err naming what
 * was wrong ("not a number", "trailing characters", "too large", ...).
 * what names the value in the message ("iterations"). */
int opt_to_size(const char *text, const char *what, size_t min, size_t max,
                size_t *out, char *err, size_t errlen);
int opt_to_double(const char *text, const char *what, bool allow_zero, double *out,
                  char *err, size_t errlen);
/* Signed integer, for positional arguments where <= 0 means "default". */
int opt_to_long(const char *text, const char *what, long long min, long long max,
                long long *out, char *err, size_t errlen);
/* The test hooks' rank numbers (COMMSWEEP_CORRUPT_RANK, ...): the
 * variable's value as a rank, 0 to INT_MAX; fallback where it is unset or
 * not such a number. */
int opt_env_rank(const char *name, int fallback);
/* "MAX", "MIN:MAX" or "MIN:" (OSU -m). min_out keeps its value when MIN is
 * absent, max_out when MAX is ("MIN:"). */
int opt_to_range(const char *text, const char *what, size_t *min_out, size_t *max_out,
                 char *err, size_t errlen);

#endif
