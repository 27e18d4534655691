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
 * model) then the model's own fields, each documented at its read function.
 */
#ifndef COMMSWEEP_CPM_MODEL_H
#define COMMSWEEP_CPM_MODEL_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cpm_measure.h"

struct cpm_predictor {
    /* Predicted time of a message of m bytes from process i to process j. */
    double (*p2p)(const struct cpm_predictor *self, int i, int j, size_t m);
    int n; /* processes the model describes */
};

static inline double cpm_predict_p2p(const struct cpm_predictor *p, int i, int j, size_t m)
{
    return p->p2p(p, i, j, m);
}

/* A message size threshold that was not found (written "none"). */
#define CPM_NO_THRESHOLD SIZE_MAX
/* The most processes a model file may describe. */
#define CPM_MAX_PROCESSES (1 << 20)

/* Strict reader of model files. */
struct cpm_reader {
    FILE *f;
    int line;
    char *err;
    size_t errlen;
};
/* Each returns 0, or -1 with a message in r->err. */
int cpm_read_fail(struct cpm_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int cpm_read_word(struct cpm_reader *r, const char *what, char *out, size_t outlen);
int cpm_read_expect(struct cpm_reader *r, const char *word);
int cpm_read_int(struct cpm_reader *r, const char *what, long min, long max, int *out);
int cpm_read_size(struct cpm_reader *r, const char *what, size_t *out);
/* A size or "none" (CPM_NO_THRESHOLD). */
int cpm_read_threshold(struct cpm_reader *r, const char *what, size_t *out);
int cpm_read_double(struct cpm_reader *r, const char *what, double *out);
int cpm_read_doubles(struct cpm_reader *r, const char *what, double *out, size_t n);
/* "sizes S1 .. Sn": message sizes, strictly increasing, as doubles. */
int cpm_read_sizes(struct cpm_reader *r, double *out, size_t n);
void cpm_write_sizes(FILE *f, const double *sizes, size_t n);
/* "KEY VALUE" pairs. */
int cpm_read_keyed_int(struct cpm_reader *r, const char *key, long min, long max, int *out);
/* Succeeds only at the end of the file. */
int cpm_read_end(struct cpm_reader *r);
void cpm_write_threshold(FILE *f, const char *key, size_t value);
void cpm_write_doubles(FILE *f, const char *key, const double *v, size_t n);

/* Least-squares line a + b x through n points (GSL); returns the residual
 * sum of squares. One point: the constant through it; none: 0. */
double cpm_fit_line(const double *x, const double *y, size_t n, double *a, double *b);
/* The same with a >= 0 and b >= 0 (a time is never below 0 and never falls
 * with the size): the unconstrained line when it satisfies both, else the
 * best line on the boundary (through the origin, or flat). Returns the
 * residual sum of squares; *constrained tells whether a bound was used. */
double cpm_fit_line_nonneg(const double *x, const double *y, size_t n, double *a, double *b,
                           bool *constrained);

/* Piecewise-linear curve through (x[k], y[k]), x strictly increasing,
 * evaluated with GSL's linear interpolation inside [x[0], x[n-1]] and
 * extended by the first/last segment outside it (one point: constant). */
double cpm_curve_eval(const double *x, const double *y, size_t n, double at);

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
    void (*free)(void *model);
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
