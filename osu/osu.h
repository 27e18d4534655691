/*
 * osu: what every OSU-style program shares, whatever its driver (point to
 * point, collective, one-sided): the OSU option letters, the iteration
 * defaults that depend on the message size, buffer placement (-d, --staging
 * and the per-rank H/D/MH/MD positionals), and the output format existing OSU parsers
 * read: "# Size" left-justified in 10 characters, value columns right-
 * justified in 20 with 2 decimals, optional -f and -c columns.
 *
 * A driver passes its own extra options (opt_spec) to osu_parse; the OSU
 * letters used here are m i x M W f c d I (and h/v for help and version).
 * osu_parse also starts MPI when the driver has not (harness_started): the
 * options are read first, so that -I can start it in an MPI session.
 *
 * The same calls write the rows as JSON with --format=jsonl (osu_fields.h
 * names each column's field), and --stats adds Median, P5, P95 and CV(%)
 * columns after all the others (osu_row_measured).
 */
#ifndef COMMSWEEP_OSU_H
#define COMMSWEEP_OSU_H

#include <stdbool.h>
#include <stddef.h>

#include "harness.h"
#include "osu_fields.h"
#include "precision.h"
#include "straggler.h"

#define OSU_MAX_PLACEMENT 2
/* The synopsis of a program that takes a placement letter per rank. */
#define OSU_PLACEMENT_SYNOPSIS "[options] [H|D|MH|MD H|D|MH|MD]"

/* A library whose calls a program times in place of MPI's, on device
 * buffers and a stream of its own: NCCL or RCCL in the xccl programs
 * (osu/xccl.h). osu_parse then puts every rank's buffers in device memory
 * (OMB 7.4 forces its accelerator so; -d managed or a placement other than
 * D is refused), takes no --staging (MPI never reads those buffers) and
 * selects the device; the driver calls start after its own checks of the
 * options, before the preamble, which prints the library's lines in place
 * of the buffers' device lines. */
struct osu_offload {
    /* Every rank, collective: loads the library (one that cannot be
     * loaded is refused on every rank together, status 2), makes its
     * communicator and stream, and ends them itself before MPI ends. */
    void (*start)(void);
    /* OMB 7.4's line before its blank line and title, with its newline. */
    const char *(*omb_line)(void);
    /* Its '#' lines of the run description; collective. */
    void (*describe)(void);
};

/* What a program declares about itself. */
struct osu_program {
    const char *title;        /* "OSU MPI Latency Test" */
    const char *synopsis;     /* for --help, e.g. "[options] [H|D H|D]" */
    const char *description;  /* for --help */
    size_t min_size, max_size;          /* default -m range */
    size_t iter_small, warm_small;      /* defaults at sizes <= large_threshold */
    size_t iter_large, warm_large;      /* defaults above it */
    size_t large_threshold;             /* 8192 in OSU */
    size_t default_window;              /* 0: the program takes no -W */
    bool placement;                     /* accepts H/D positionals per rank */
    const char *placement_who[2];       /* what each letter places (NULL: rank 0, rank 1) */
    bool no_blank_line;                 /* OMB 7.4 prints no blank line before the title */
    bool not_in_omb;                    /* a program OMB 7.4 does not have (the seed's) */
    int thread_level;                   /* MPI_THREAD_SINGLE (0) unless it needs more */
    const struct osu_offload *offload;  /* the timed calls are this library's; NULL: MPI's */
};

/* OMB 7.4's column widths: values, the Iterations column, the size column. */
#define OSU_WIDTH 18
#define OSU_ITER_WIDTH 12
#define OSU_SIZE_WIDTH 10

struct osu_opts {
    size_t min_size, max_size; /* -m [MIN:]MAX */
    size_t iterations;         /* -i, 0 = by size */
    size_t warmup;             /* -x, SIZE_MAX = by size */
    size_t mem_limit;          /* -M bytes per process */
    size_t window;             /* -W */
    bool window_set;           /* -W was given (otherwise the program's default) */
    bool full;                 /* -f */
    bool validate;             /* -c */
    int device_kind;           /* -d: index in osu_device_names (enum buf_memory) */
    bool staging;              /* --staging */
    bool session;              /* -I: MPI started in an MPI session */
    enum buf_where where[OSU_MAX_PLACEMENT]; /* buffers of rank 0 and rank 1 */
    bool host_for_d;           /* a D placement in a build without device support: host */
    size_t test_iterations;    /* COMMSWEEP_TEST_ITERATIONS: caps the defaults (0: none) */
    int first_positional;      /* argv index after options and placement */
};

/* "none", "cuda", "rocm", "openacc", "managed": index = enum buf_memory. */
extern const char *const osu_device_names[];

#define OSU_DEFAULT_MEM_LIMIT ((size_t)512 << 20)

/* Parses the shared letters plus extra[] (may be NULL). Exits with status 2
 * on bad input; checks device availability. argv positionals after the
 * placement letters are left for the program (first_positional).
 * When MPI has not been started (the driver called no harness_init), it
 * starts it after reading the options, with p->thread_level, in the world
 * model or, with -I (--session), in an MPI session; only then is -I
 * offered. -I in a build whose MPI has no sessions: one line, status 2.
 * Afterwards struct harness (rank, size, comm) is filled either way. */
void osu_parse(struct osu_opts *o, const struct osu_program *p, int argc, char **argv,
               const struct opt_spec *extra, size_t nextra);

/* Where this rank's buffers live in programs with per-rank placement: the
 * first half of the nranks ranks (rounded up) follow o->where[0], the second
 * half o->where[1]; at 2 ranks that is rank 0 and rank 1. Collectives use
 * o->where[0] for everyone. */
/* -I, --session: sets *on (osu_parse adds it when it starts MPI). */
struct opt_spec osu_session_option(bool *on);
/* For programs with a table of their own (osu_init): opt_parse; then, when
 * MPI has not been started, start it with thread_level, in a session when
 * the parse set *session (and the library has sessions); then act on the
 * result as opt_parse_or_exit, and refuse -I where sessions are missing
 * (status 2). session may be NULL (no -I). Every table gets --defaults
 * (osu_defaults.h), settled here. Returns the first positional argument's
 * index. */
int osu_parse_and_start(int argc, char **argv, const struct opt_spec *specs, size_t nspecs,
                        const struct opt_usage *usage, int thread_level, const bool *session);
/* The version of OMB whose programs these are, as its titles print it. */
#define OSU_OMB_VERSION "v7.4"
/* The title line. Under OMB 7.4's defaults (osu_defaults.h) it is "# <title>
 * v7.4 (commsweep V)" (without v7.4 for a program OMB 7.4 does not have:
 * in_omb false) and the '#' lines of the run description that follow,
 * up to the column heading, are held and printed after the table
 * (out_hold_begin); under the seed's, "# <title> (commsweep V)" with the
 * description in place. */
void osu_print_title(const char *title, bool in_omb);
/* After the title and OMB's lines: the command, date, ranks and MPI
 * (out_header_details), which defaults are in force, and the MPI session
 * line (-I). Collective. */
void osu_print_details(int argc, char **argv);

enum buf_where osu_where_for_rank(const struct osu_opts *o, int rank, int nranks);

size_t osu_iterations(const struct osu_opts *o, const struct osu_program *p, size_t size);
size_t osu_warmup(const struct osu_opts *o, const struct osu_program *p, size_t size);

/* OMB 7.4's long name of an option: a copy of *of under long_name, with
 * no letter, for programs to list after the original. */
struct opt_spec osu_alias(const struct opt_spec *of, const char *long_name);

/* Lowers o->max_size so that bytes_per_size * size fits the -M limit, printing
 * a '#' warning when it had to (every rank computes the same). Returns false
 * when not even min_size fits. */
bool osu_cap_to_memory(struct osu_opts *o, size_t buffers_per_size);

/* Header block in OMB 7.4's order: first the lines OMB prints before its
 * title (before, may be NULL), a blank line (unless p->no_blank_line), the
 * title "# <title> (commsweep V)", the lines OMB prints after its title
 * (omb, may be NULL: "# Datatype: MPI_CHAR." and the like); then ours:
 * command, date, ranks, MPI, buffer placement, iterations, window and
 * validation as '#' lines; with device or managed buffers the GPU of each
 * rank and whether MPI reads device memory itself or it is staged
 * (buf_print_device_header). before and omb hold whole lines, each ended by
 * a newline. Collective. */
void osu_print_preamble(const struct osu_opts *o, const struct osu_program *p, int argc,
                        char **argv, const char *before, const char *omb);

/* "# Size" + columns (+ -f: min/max/iterations columns named by the caller)
 * (+ -c: "Validation"), OSU_WIDTH each ("Iterations": OSU_ITER_WIDTH),
 * (+ --stats: "Median(unit)", "P5(unit)", "P95(unit)", "CV(%)" last).
 * full_columns may be NULL when the program has none. With --format=jsonl
 * nothing is printed: the headings declare the JSON table (osu_fields.h). */
void osu_print_columns(const struct osu_opts *o, const char *const *columns, size_t ncolumns,
                       const char *const *full_columns, size_t nfull);
/* The same with trailing headings after the Validation column. */
void osu_print_columns_trailing(const struct osu_opts *o, const char *const *columns,
                                size_t ncolumns, const char *const *full_columns, size_t nfull,
                                const char *const *trailing, size_t ntrailing);
/* The same for a program that measures no message size and checks no data
 * (the barrier): no size column and no Validation column; the first heading
 * carries the comment mark ("# Avg Latency(us)") and its column is as wide
 * as that heading (osu_row_begin_unsized), as in OMB 7.4. */
void osu_print_columns_unsized(const struct osu_opts *o, const char *const *columns,
                               size_t ncolumns, const char *const *full_columns, size_t nfull,
                               const char *const *trailing, size_t ntrailing);

/* Prints the heading of column name as printed instead (the JSON field
 * keeps name): where OMB 7.4 heads a column with what it is not, as the fan
 * tests' MB/s under "Avg Latency(us)". */
void osu_heading_alias(const char *name, const char *printed);

/* -z, OMB 7.4's tail columns: the 50th, 90th and 99th percentiles of single
 * iterations. */
#define OSU_NTAIL 3
extern const int osu_tail_percent[OSU_NTAIL];
/* The -z option, setting *on. */
struct opt_spec osu_tail_option(bool *on);
/* The -u option (OMB 7.4's validation warm-up): with -c, N untimed calls
 * before each timed one. */
struct opt_spec osu_validation_warmup_option(size_t *n);
/* The percentiles of values[0..n) by OMB's rank (the value at position
 * round(n * p / 100) of the sorted list, counted from 1); sorts values. */
void osu_tail_values(double *values, size_t n, double out[OSU_NTAIL]);
/* "P50 Tail Lat(us)" ... or, for bandwidths, "P50 Tail BW(MB/s)" ... */
void osu_tail_names(bool latency, char names[OSU_NTAIL][32]);

/* One data row: built in pieces, printed and flushed by osu_row_end (or
 * osu_row_end_checked). Only rank 0 prints; building it elsewhere is harmless.
 * Trailing values (osu_row_trailing) go after everything else, the
 * Validation column included, where OMB 7.4 puts its tail columns. */
struct osu_row {
    char text[1024];
    size_t used;
    int first_width; /* width of the next value when not OSU_WIDTH (0: none) */
    char trailing[160]; /* formatted trailing values, appended by osu_row_end */
    size_t trailing_used;
    size_t nvalues, ntrailing; /* values added so far: their JSON fields */
    bool has_spread;           /* --stats: spread goes last */
    struct stats_dispersion spread;
    struct straggler straggler; /* --stats: after the spread (straggler.h) */
    double first_ratio;         /* --stats: the first timed iteration over the median */
    struct precision_result precision; /* --precision (osu_row_precision) */
};
void osu_row_begin(struct osu_row *r, size_t size);
/* No size column: the first value is as wide as "# " + first_heading. */
void osu_row_begin_unsized(struct osu_row *r, const char *first_heading);
void osu_row_value(struct osu_row *r, double v);  /* %18.2f */
void osu_row_count(struct osu_row *r, size_t v);  /* the Iterations column, %12zu */
void osu_row_text(struct osu_row *r, const char *s); /* %18s */
void osu_row_trailing(struct osu_row *r, double v); /* %18.2f at the end of the row */
void osu_row_trailing_count(struct osu_row *r, size_t v); /* %18zu at the end (-D) */
/* Every measured row calls this once: the number of timed iterations (a
 * JSON field) and, where they were kept (report_per_iteration), the values
 * of the row's first column per iteration, in its unit, for --samples and
 * --stats (values may be NULL otherwise; valid on rank 0). */
void osu_row_measured(struct osu_row *r, size_t iterations, const double *values);
/* --precision: how the row's size stopped; with --stats its Iters,
 * CI95(%) and Reached columns, and always its JSON fields. */
void osu_row_precision(struct osu_row *r, const struct precision_result *p);
/* --precision: a size's first batch and most iterations (precision.h),
 * from -i or the program's default count at size. */
void osu_precision_counts(const struct osu_opts *o, const struct osu_program *p, size_t size,
                          size_t *floor, size_t *cap);
void osu_row_end(struct osu_row *r);
/* From now on osu_row_end (headings included) writes the row's text into
 * text[0..len) instead of printing it, on every rank (the concurrent
 * groups of the collectives, whose rows are measured on each group's first
 * rank and printed by the world's); NULL: print again. Text output only. */
void osu_row_capture(char *text, size_t len);

/* Ends a row that has a Validation column when validated is true (-c); then
 * collective over all ranks (harness.comm): every rank passes failed (its own checks of
 * this size found wrong data) and the message that names what and where
 * (fmt, printf style; read only when failed). The ranks agree on the
 * verdict, rank 0 prints the row with "Pass" or "Fail", and after a "Fail"
 * every rank calls release(arg) (when not NULL: what must end before
 * MPI_Finalize, such as one-sided windows or threads), the lowest failing
 * rank prints its message on stderr and every rank ends with status 1
 * (ERR_STATUS_FAIL); returns only after "Pass". With validated false it is
 * osu_row_end (no collective; failed must be false). */
void osu_row_end_checked(struct osu_row *r, bool validated, bool failed,
                         void (*release)(void *arg), void *arg, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* -c in one of several groups measured at once (--groups): the row's
 * Validation says its own group's verdict (collective over group); the
 * world's verdict is the driver's, after the groups' rows are gathered. */
void osu_row_end_group_checked(struct osu_row *r, bool failed, MPI_Comm group);

/* The Validation column's words (default "Pass" and "Fail"; OMB 7.4's
 * atomics print "passed" and "failed"). */
void osu_validation_words(const char *pass, const char *fail);

/* Bandwidth in MB/s (10^6 bytes per second) and message rate (messages per
 * second) from bytes moved, messages and seconds. */
double osu_mb_per_s(double bytes, double seconds);
double osu_msg_rate(double messages, double seconds);

#endif
