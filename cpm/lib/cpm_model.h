/*
 * cpm_model: what every communication performance model shares.
 *   - cpm_predictor: the prediction interface (the seed's CPM_predictor), a
 *     struct of function pointers placed first in every model, so generic
 *     code predicts with any model;
 *   - cpm_model_kind: the registry the tools use to check the arguments,
 *     estimate, report on, read, write and free a model and list its own
 *     collective predictions by name;
 *   - the model file reader (strict: a truncated file, a wrong count, a
 *     non-numeric value or another model's name is refused with a message
 *     naming the line) and the piecewise-linear curve used by LinInterp and
 *     PLogP.
 * Model file format (text, '#' starts a comment that runs to the end of the
 * line): "model NAME" then "processes N" (read and written here, for every
 * model) then the model's own fields, each documented at its read function;
 * numbers in decimal, and a newline at the end of the last line.
 */
#ifndef COMMSWEEP_CPM_MODEL_H
#define COMMSWEEP_CPM_MODEL_H

#include <limits.h>
#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cpm_measure.h"

struct cpm_predictor {
    /* Predicted time of a message of m bytes from process i to process j. */
    double (*p2p)(const struct cpm_predictor *self, int i, int j, size_t m);
    int n; /* processes the model describes; 0: not said (a program's own) */
    /* The manual's CPM_predictor::predict_p2p (cpm_api.h): the same with a
     * size of type int, self the predictor or the model that begins with
     * it; NaN for a size below 0. Every model's predictor has it; a
     * program's own predictor may give only this one (p2p NULL). */
    double (*predict_p2p)(void *self, int i, int j, int m);
};

/* predict_p2p of every model's predictor: p2p with m as a size. */
double cpm_predict_p2p_int(void *self, int i, int j, int m);

static inline double cpm_predict_p2p(const struct cpm_predictor *p, int i, int j, size_t m)
{
    if (p->p2p)
        return p->p2p(p, i, j, m);
    /* A predictor written to the manual: its sizes are int. */
    return p->predict_p2p((void *)p, i, j, m > (size_t)INT_MAX ? INT_MAX : (int)m);
}

/* A message size threshold that was not found (written "none"). */
#define CPM_NO_THRESHOLD SIZE_MAX
/* The most processes a model file may describe. */
#define CPM_MAX_PROCESSES (1 << 20)
/* The most message sizes a LinInterp or PLogP file may sample (model -n). */
#define CPM_MAX_POINTS (1 << 20)
/* Bounds on the values of a model file, far above any real measurement: a
 * time of more than an hour, or more than a second per byte, is a damaged
 * file (1e308 would make every prediction inf). */
#define CPM_MAX_TIME 3600.0
#define CPM_MAX_PER_BYTE 1.0

/* Strict reader of model files. Nothing is allocated for a count the file
 * declares: values are kept as they arrive (struct cpm_values), so memory
 * follows what the file holds, and a model is allocated once all of its
 * values have been read. */
struct cpm_reader {
    FILE *f;
    int line;
    char *err;
    size_t errlen;
    int last;       /* the last byte read: the file must end with a newline */
    int read_errno; /* why the stream could not be read, 0 while it could */
};
/* Values read so far, grown by doubling. */
struct cpm_values {
    double *v;
    size_t len, cap;
};
/* 0, or -1 when memory runs out. */
int cpm_values_push(struct cpm_values *vals, double x);
void cpm_values_free(struct cpm_values *vals);

/* Each returns 0, or -1 with a message in r->err (control bytes of the
 * file's words quoted there as '?', cpm_escape_controls). A NUL byte
 * anywhere in the file is refused (it is not text, and a number cut by one
 * would read as the digits before it). */
int cpm_read_fail(struct cpm_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int cpm_read_word(struct cpm_reader *r, const char *what, char *out, size_t outlen);
int cpm_read_expect(struct cpm_reader *r, const char *word);
int cpm_read_int(struct cpm_reader *r, const char *what, long min, long max, int *out);
int cpm_read_size(struct cpm_reader *r, const char *what, size_t *out);
/* A size or "none" (CPM_NO_THRESHOLD). */
int cpm_read_threshold(struct cpm_reader *r, const char *what, size_t *out);
/* Whether s is a decimal number: [+-]digits[.digits][e[+-]digits], with
 * digits on at least one side of the point. Hexadecimal floats, inf and
 * nan, which strtod takes, are not: no writer gives them. */
bool cpm_decimal_text(const char *s);
/* A finite decimal number (cpm_decimal_text). */
int cpm_read_double(struct cpm_reader *r, const char *what, double *out);
/* A finite number in [lo, hi]; unit names it in the message ("s"). */
int cpm_read_bounded(struct cpm_reader *r, const char *what, double lo, double hi,
                     const char *unit, double *out);
/* A time in [0, CPM_MAX_TIME] s; a time per byte in [0, CPM_MAX_PER_BYTE]. */
int cpm_read_time(struct cpm_reader *r, const char *what, double *out);
int cpm_read_per_byte(struct cpm_reader *r, const char *what, double *out);
/* cpm_values_push, with a message when memory runs out. */
int cpm_read_keep(struct cpm_reader *r, struct cpm_values *out, double x);
/* n times appended to out, each a time. */
int cpm_read_times(struct cpm_reader *r, const char *what, size_t n, struct cpm_values *out);
/* "sizes S1 .. Sn": message sizes, strictly increasing, appended to out. */
int cpm_read_sizes(struct cpm_reader *r, size_t n, struct cpm_values *out);
/* A time at each of the n sizes, appended to out: never falling as the
 * size grows, and rising by at most CPM_MAX_PER_BYTE per byte. */
int cpm_read_curve(struct cpm_reader *r, const char *what, const double *sizes, size_t n,
                   struct cpm_values *out);
/* Whether a + b + c, a sum that must not be below 0, is, beyond the
 * rounding of terms written with nine significant digits. */
bool cpm_sum_below_zero(double a, double b, double c);
/* The pair after (i, j), i < j < n, in cpm_pair_index order. */
void cpm_pair_next(int n, int *i, int *j);
/* "[WORD] i j" of the next pair, checked against the expected (i, j);
 * word NULL for none. */
int cpm_read_pair(struct cpm_reader *r, const char *word, int i, int j);
void cpm_write_sizes(FILE *f, const double *sizes, size_t n);
/* "KEY VALUE" pairs. */
int cpm_read_keyed_int(struct cpm_reader *r, const char *key, long min, long max, int *out);
/* Succeeds only at the end of the file, and only when its last byte is a
 * newline (one cut inside its last number is refused). */
int cpm_read_end(struct cpm_reader *r);
void cpm_write_threshold(FILE *f, const char *key, size_t value);
void cpm_write_doubles(FILE *f, const char *key, const double *v, size_t n);

/* Least-squares line a + b x through n points (GSL); returns the residual
 * sum of squares. One point: the constant through it; none: 0. */
double cpm_fit_line(const double *x, const double *y, size_t n, double *a, double *b);
/* The same with a >= 0, b >= 0 (a time is never below 0 and never falls
 * with the size): the unconstrained line when it satisfies both, else the
 * best line on the boundary (through the origin, or flat). Returns the
 * residual sum of squares; *constrained tells whether a bound was used. */
double cpm_fit_line_nonneg(const double *x, const double *y, size_t n, double *a, double *b,
                           bool *constrained);
/* The nonnegative line that minimises the sum of the absolute relative
 * residuals |y - a - b x| / y (all y must be above 0 and two x distinct,
 * else the plain fit): every size counts alike, where plain least squares
 * lets the largest times set the line and misses small ones by multiples,
 * and a few sizes off the line (another protocol, a disturbed experiment)
 * pull it less than they would pull squares. Returns that sum. */
double cpm_fit_line_relative(const double *x, const double *y, size_t n, double *a, double *b,
                             bool *constrained);

/* Piecewise-linear curve of times through (x[k], y[k]), x strictly
 * increasing, evaluated with GSL's linear interpolation inside [x[0],
 * x[n-1]] and extended by the first/last segment outside it (one point:
 * constant); never below 0, as a time cannot be. */
double cpm_curve_eval(const double *x, const double *y, size_t n, double at);
/* Replaces y[0..n) by the non-decreasing sequence closest to it in least
 * squares (pool adjacent violators: a run that falls becomes its mean).
 * Returns whether anything changed. */
bool cpm_make_nondecreasing(double *y, size_t n);

/* A model-specific collective prediction. */
struct cpm_coll_prediction {
    const char *name;
    const char *help;
    double (*predict)(const void *model, int root, size_t m);
};

struct cpm_estimate_args {
    MPI_Comm comm;
    struct cpm_msgset msgset;
    struct cpm_precision precision;
    bool parallel;
    bool two_point;   /* Hockney: from 0 and max_size only */
    bool homogeneous; /* LMO: one set of parameters */
};

/* One '#' line of what a tool should say about a model (without the '#'). */
typedef void (*cpm_note_fn)(const char *text, void *ctx);
/* The note of an estimate that made the curves of `adjusted` of its pairs
 * non-decreasing (cpm_make_nondecreasing); what says which curve fell.
 * Nothing when adjusted is 0. */
void cpm_note_monotone(const char *model, const char *what, int adjusted, size_t pairs,
                       cpm_note_fn note, void *ctx);

struct cpm_model_kind {
    const char *name;      /* -C NAME */
    const char *file_name; /* the name in the file (LogGP reads PLogP files) */
    /* Fewest processes the estimate works with (0 for kinds that are not measured). */
    int min_procs;
    /* Whether the arguments can work for this kind, --two-point and
     * --homogeneous included (a kind refuses the flags it does not take):
     * 0, or -1 with a message; the same verdict on every rank. NULL for
     * kinds that are not measured. */
    int (*check)(const struct cpm_estimate_args *a, char *err, size_t errlen);
    /* Collective: 0 with the model in *model on rank 0 (NULL elsewhere), or
     * -1 on every rank with a message in err on rank 0. */
    int (*estimate)(const struct cpm_estimate_args *a, void **model, char *err, size_t errlen);
    /* Reads the fields after "processes N" of a model of n processes. */
    int (*read)(struct cpm_reader *r, int n, void **model);
    /* Writes the fields after "processes N". */
    void (*write)(FILE *f, const void *model);
    void (*destroy)(void *model);
    const struct cpm_predictor *(*predictor)(const void *model);
    /* What the tool should say about a model it has just estimated with a,
     * one note per line (NULL when there is never anything to say). */
    void (*report)(const void *model, const struct cpm_estimate_args *a, cpm_note_fn note,
                   void *ctx);
    const struct cpm_coll_prediction *colls;
    size_t ncolls;
};

/* NULL when unknown. */
const struct cpm_model_kind *cpm_model_kind_find(const char *name);
/* The names of the registered kinds, NULL-terminated, in registry order:
 * all of them, or only those that can be estimated. */
const char *const *cpm_model_kind_names(bool estimated_only);
/* For the kinds' check(): refuses --two-point and --homogeneous where the
 * kind (named kind_name) does not take them; 0, or -1 with a message. */
int cpm_estimate_flags_check(const struct cpm_estimate_args *a, const char *kind_name,
                             bool takes_two_point, bool takes_homogeneous, char *err,
                             size_t errlen);

/* Reads a whole model file of the given kind; 0, or -1 with a message.
 * processes > 0: the file must describe that many processes, which is
 * checked before anything is allocated; 0 takes the file's count. */
int cpm_model_read_file(const char *path, const struct cpm_model_kind *kind, int processes,
                        void **model, char *err, size_t errlen);
int cpm_model_read_stream_n(FILE *f, const struct cpm_model_kind *kind, int processes,
                            void **model, char *err, size_t errlen);
/* cpm_model_read_stream_n with processes 0. */
int cpm_model_read_stream(FILE *f, const struct cpm_model_kind *kind, void **model, char *err,
                          size_t errlen);
/* Writes "model NAME", "processes N" and the model; 0, or -1 with a message. */
int cpm_model_write_stream(FILE *f, const struct cpm_model_kind *kind, const void *model);
int cpm_model_write_file(const char *path, const struct cpm_model_kind *kind,
                         const void *model, char *err, size_t errlen);

#endif
