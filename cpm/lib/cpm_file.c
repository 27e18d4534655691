/* cpm_file: the strict model file reader and small writers; see cpm_model.h. */
#include "cpm_model.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cpm_escape.h"
#include "infile.h"
#include "opt.h"

int cpm_read_fail(struct cpm_reader *r, const char *fmt, ...)
{
    char text[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    /* A damaged file's bytes are quoted: keep control characters out of
     * the one-line message (and the terminal). */
    cpm_escape_controls(text);
    snprintf(r->err, r->errlen, "line %d: %s", r->line, text);
    return -1;
}

enum { TOKEN_END = 0, TOKEN_OK = 1, TOKEN_LONG = -1, TOKEN_NUL = -2, TOKEN_ERROR = -3 };

/* The next byte, remembering the last one read (the end-of-file rule of
 * cpm_read_end) and why reading failed, if it did. */
static int next_byte(struct cpm_reader *r)
{
    int c = fgetc(r->f);
    if (c != EOF)
        r->last = c;
    else if (ferror(r->f) && !r->read_errno)
        r->read_errno = errno ? errno : EIO;
    return c;
}

/* Next whitespace-separated token, skipping comments: TOKEN_OK, TOKEN_END
 * at the end of the file, TOKEN_LONG when it does not fit (nothing more is
 * read then), TOKEN_NUL at a NUL byte (binary data, or a number that C
 * would read as the digits before it), TOKEN_ERROR when the stream cannot
 * be read (a directory opened as a file). */
static int next_token(struct cpm_reader *r, char *out, size_t outlen)
{
    int c;
    for (;;) {
        c = next_byte(r);
        if (c == EOF)
            return r->read_errno ? TOKEN_ERROR : TOKEN_END;
        if (c == '\0')
            return TOKEN_NUL;
        if (c == '\n')
            r->line++;
        else if (c == '#') {
            while ((c = next_byte(r)) != EOF && c != '\n')
                if (c == '\0')
                    return TOKEN_NUL;
            if (c == '\n')
                r->line++;
        } else if (!isspace(c))
            break;
    }
    size_t len = 0;
    while (c != EOF && !isspace(c) && c != '#') {
        if (c == '\0')
            return TOKEN_NUL;
        if (len + 1 >= outlen)
            return TOKEN_LONG;
        out[len++] = (char)c;
        c = next_byte(r);
    }
    if (r->read_errno)
        return TOKEN_ERROR;
    if (c != EOF)
        ungetc(c, r->f);
    out[len] = '\0';
    return TOKEN_OK;
}

static int read_error(struct cpm_reader *r)
{
    if (r->read_errno == EISDIR)
        return cpm_read_fail(r, "this is a directory, not a model file");
    return cpm_read_fail(r, "cannot read the file: %s", strerror(r->read_errno));
}

static int token_fail(struct cpm_reader *r, int got, const char *what)
{
    if (got == TOKEN_ERROR)
        return read_error(r);
    if (got == TOKEN_NUL)
        return cpm_read_fail(r, "a NUL byte where %s was expected (not a text file?)", what);
    if (got == TOKEN_LONG)
        return cpm_read_fail(r, "a word too long where %s was expected", what);
    return cpm_read_fail(r, "the file ends where %s was expected (truncated?)", what);
}

int cpm_read_word(struct cpm_reader *r, const char *what, char *out, size_t outlen)
{
    int got = next_token(r, out, outlen);
    return got == TOKEN_OK ? 0 : token_fail(r, got, what);
}

int cpm_read_expect(struct cpm_reader *r, const char *word)
{
    char tok[64];
    if (cpm_read_word(r, word, tok, sizeof tok) != 0)
        return -1;
    if (strcmp(tok, word) != 0)
        return cpm_read_fail(r, "expected '%s', found '%s'", word, tok);
    return 0;
}

/* The strict integer parsing is the option parser's (opt.h); the messages
 * here name the line of the file instead. */
int cpm_read_int(struct cpm_reader *r, const char *what, long min, long max, int *out)
{
    char tok[64], why[160];
    long long v;
    if (cpm_read_word(r, what, tok, sizeof tok) != 0)
        return -1;
    if (opt_to_long(tok, what, LLONG_MIN, LLONG_MAX, &v, why, sizeof why) != 0)
        return cpm_read_fail(r, "%s: '%s' is not an integer", what, tok);
    if (v < min || v > max)
        return cpm_read_fail(r, "%s: %lld is outside [%ld, %ld]", what, v, min, max);
    *out = (int)v;
    return 0;
}

static int parse_size(struct cpm_reader *r, const char *what, const char *tok, size_t *out)
{
    char why[160];
    /* SIZE_MAX itself is CPM_NO_THRESHOLD, written "none". */
    if (opt_to_size(tok, what, 0, SIZE_MAX - 1, out, why, sizeof why) != 0)
        return cpm_read_fail(r, "%s: '%s' is not a size in bytes", what, tok);
    return 0;
}

int cpm_read_size(struct cpm_reader *r, const char *what, size_t *out)
{
    char tok[64];
    if (cpm_read_word(r, what, tok, sizeof tok) != 0)
        return -1;
    return parse_size(r, what, tok, out);
}

int cpm_read_threshold(struct cpm_reader *r, const char *what, size_t *out)
{
    char tok[64];
    if (cpm_read_word(r, what, tok, sizeof tok) != 0)
        return -1;
    if (strcmp(tok, "none") == 0) {
        *out = CPM_NO_THRESHOLD;
        return 0;
    }
    return parse_size(r, what, tok, out);
}

bool cpm_decimal_text(const char *s)
{
    size_t digits = 0;
    if (*s == '+' || *s == '-')
        s++;
    for (; isdigit((unsigned char)*s); s++)
        digits++;
    if (*s == '.')
        for (s++; isdigit((unsigned char)*s); s++)
            digits++;
    if (digits == 0)
        return false;
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-')
            s++;
        if (!isdigit((unsigned char)*s))
            return false;
        while (isdigit((unsigned char)*s))
            s++;
    }
    return *s == '\0';
}

int cpm_read_double(struct cpm_reader *r, const char *what, double *out)
{
    char tok[64], *end;
    if (cpm_read_word(r, what, tok, sizeof tok) != 0)
        return -1;
    errno = 0;
    double v = strtod(tok, &end);
    if (!cpm_decimal_text(tok) || end == tok || *end || errno == ERANGE || !isfinite(v))
        return cpm_read_fail(r, "%s: '%s' is not a finite number", what, tok);
    *out = v;
    return 0;
}

int cpm_read_bounded(struct cpm_reader *r, const char *what, double lo, double hi,
                     const char *unit, double *out)
{
    double v;
    if (cpm_read_double(r, what, &v) != 0)
        return -1;
    if (v < lo && lo == 0.0)
        return cpm_read_fail(r, "%s: %g %s is negative", what, v, unit);
    if (v < lo || v > hi)
        return cpm_read_fail(r, "%s: %g %s is %s %g %s, beyond any real measurement", what, v,
                             unit, v < lo ? "below" : "above", v < lo ? lo : hi, unit);
    *out = v;
    return 0;
}

int cpm_read_time(struct cpm_reader *r, const char *what, double *out)
{
    return cpm_read_bounded(r, what, 0.0, CPM_MAX_TIME, "s", out);
}

int cpm_read_per_byte(struct cpm_reader *r, const char *what, double *out)
{
    return cpm_read_bounded(r, what, 0.0, CPM_MAX_PER_BYTE, "s/byte", out);
}

int cpm_values_push(struct cpm_values *vals, double x)
{
    if (vals->len == vals->cap) {
        size_t cap = vals->cap ? 2 * vals->cap : 16;
        double *v = realloc(vals->v, cap * sizeof *v);
        if (!v)
            return -1;
        vals->v = v;
        vals->cap = cap;
    }
    vals->v[vals->len++] = x;
    return 0;
}

void cpm_values_free(struct cpm_values *vals)
{
    free(vals->v);
    vals->v = NULL;
    vals->len = vals->cap = 0;
}

int cpm_read_keep(struct cpm_reader *r, struct cpm_values *out, double x)
{
    if (cpm_values_push(out, x) != 0)
        return cpm_read_fail(r, "out of memory after %zu values", out->len);
    return 0;
}

int cpm_read_times(struct cpm_reader *r, const char *what, size_t n, struct cpm_values *out)
{
    for (size_t k = 0; k < n; k++) {
        double v;
        if (cpm_read_time(r, what, &v) != 0 || cpm_read_keep(r, out, v) != 0)
            return -1;
    }
    return 0;
}

int cpm_read_sizes(struct cpm_reader *r, size_t n, struct cpm_values *out)
{
    if (cpm_read_expect(r, "sizes") != 0)
        return -1;
    for (size_t s = 0; s < n; s++) {
        size_t size;
        if (cpm_read_size(r, "message size", &size) != 0)
            return -1;
        if (s > 0 && !((double)size > out->v[out->len - 1]))
            return cpm_read_fail(r, "message sizes must increase");
        if (cpm_read_keep(r, out, (double)size) != 0)
            return -1;
    }
    return 0;
}

int cpm_read_curve(struct cpm_reader *r, const char *what, const double *sizes, size_t n,
                   struct cpm_values *out)
{
    for (size_t s = 0; s < n; s++) {
        double v;
        if (cpm_read_time(r, what, &v) != 0)
            return -1;
        if (s > 0) {
            double prev = out->v[out->len - 1], dx = sizes[s] - sizes[s - 1];
            if (v < prev)
                return cpm_read_fail(r, "%s: %g s at %.0f bytes is below %g s at %.0f bytes "
                                        "(a larger message cannot take less time)",
                                     what, v, sizes[s], prev, sizes[s - 1]);
            if (v - prev > CPM_MAX_PER_BYTE * dx)
                return cpm_read_fail(r, "%s rises by %g s/byte between %.0f and %.0f bytes, "
                                        "above %g s/byte, beyond any real measurement",
                                     what, (v - prev) / dx, sizes[s - 1], sizes[s],
                                     CPM_MAX_PER_BYTE);
        }
        if (cpm_read_keep(r, out, v) != 0)
            return -1;
    }
    return 0;
}

bool cpm_sum_below_zero(double a, double b, double c)
{
    return a + b + c < -1e-8 * (fabs(a) + fabs(b) + fabs(c));
}

void cpm_pair_next(int n, int *i, int *j)
{
    if (++*j >= n) {
        ++*i;
        *j = *i + 1;
    }
}

int cpm_read_pair(struct cpm_reader *r, const char *word, int i, int j)
{
    char first[40], second[40];
    int got;
    snprintf(first, sizeof first, "first process of a %s", word ? word : "pair");
    snprintf(second, sizeof second, "second process of a %s", word ? word : "pair");
    if (word && cpm_read_expect(r, word) != 0)
        return -1;
    if (cpm_read_int(r, first, i, i, &got) != 0 || cpm_read_int(r, second, j, j, &got) != 0)
        return -1;
    return 0;
}

void cpm_write_sizes(FILE *f, const double *sizes, size_t n)
{
    fputs("sizes", f);
    for (size_t s = 0; s < n; s++)
        fprintf(f, " %.0f", sizes[s]);
    fputc('\n', f);
}

int cpm_read_keyed_int(struct cpm_reader *r, const char *key, long min, long max, int *out)
{
    if (cpm_read_expect(r, key) != 0)
        return -1;
    return cpm_read_int(r, key, min, max, out);
}

int cpm_read_end(struct cpm_reader *r)
{
    char tok[64];
    int got = next_token(r, tok, sizeof tok);
    if (got == TOKEN_END) {
        /* Every writer ends the file with a newline, so a file whose last
         * line has none was cut: maybe inside its last number, which would
         * still read as a number (7.4195638e-11 as 7.4195638e-1). */
        if (r->last != '\n')
            return cpm_read_fail(r, "the last line does not end with a newline (truncated?)");
        return 0;
    }
    if (got == TOKEN_NUL || got == TOKEN_ERROR)
        return token_fail(r, got, "the end of the model");
    return cpm_read_fail(r, "unexpected '%s' after the end of the model (wrong count?)",
                         got == TOKEN_OK ? tok : "...");
}

void cpm_write_threshold(FILE *f, const char *key, size_t value)
{
    if (value == CPM_NO_THRESHOLD)
        fprintf(f, "%s none\n", key);
    else
        fprintf(f, "%s %zu\n", key, value);
}

void cpm_write_doubles(FILE *f, const char *key, const double *v, size_t n)
{
    fputs(key, f);
    for (size_t k = 0; k < n; k++)
        fprintf(f, " %.9g", v[k]);
    fputc('\n', f);
}

int cpm_model_read_stream_n(FILE *f, const struct cpm_model_kind *kind, int processes,
                            void **model, char *err, size_t errlen)
{
    struct cpm_reader r = {.f = f, .line = 1, .err = err, .errlen = errlen};
    char name[64];
    int n;
    *model = NULL;
    if (cpm_read_expect(&r, "model") != 0 || cpm_read_word(&r, "the model name", name, sizeof name) != 0)
        return -1;
    if (strcmp(name, kind->file_name) != 0)
        return cpm_read_fail(&r, "the file holds a %s model, not %s", name, kind->file_name);
    /* Every size the model allocates follows from the count: check it first. */
    if (cpm_read_keyed_int(&r, "processes", 1, CPM_MAX_PROCESSES, &n) != 0)
        return -1;
    if (processes > 0 && n != processes)
        return cpm_read_fail(&r, "the file describes %d processes, expected %d", n, processes);
    void *m = NULL;
    if (kind->read(&r, n, &m) != 0)
        return -1;
    if (cpm_read_end(&r) != 0) {
        kind->destroy(m);
        return -1;
    }
    *model = m;
    return 0;
}

int cpm_model_read_stream(FILE *f, const struct cpm_model_kind *kind, void **model, char *err,
                          size_t errlen)
{
    return cpm_model_read_stream_n(f, kind, 0, model, err, errlen);
}

int cpm_model_read_file(const char *path, const struct cpm_model_kind *kind, int processes,
                        void **model, char *err, size_t errlen)
{
    char why[160];
    FILE *f = infile_open(path, why, sizeof why);
    if (!f) {
        snprintf(err, errlen, "cannot open model file %s: %s", path, why);
        cpm_escape_controls(err);
        return -1;
    }
    char inner[300];
    int rc = cpm_model_read_stream_n(f, kind, processes, model, inner, sizeof inner);
    fclose(f);
    if (rc != 0) {
        snprintf(err, errlen, "model file %s, %s", path, inner);
        cpm_escape_controls(err);
    }
    return rc;
}

int cpm_model_write_stream(FILE *f, const struct cpm_model_kind *kind, const void *model)
{
    fprintf(f, "model %s\nprocesses %d\n", kind->file_name, kind->predictor(model)->n);
    kind->write(f, model);
    return ferror(f) ? -1 : 0;
}

int cpm_model_write_file(const char *path, const struct cpm_model_kind *kind,
                         const void *model, char *err, size_t errlen)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "cannot write model file %s: %s", path, strerror(errno));
        return -1;
    }
    int bad = cpm_model_write_stream(f, kind, model);
    if (fclose(f) != 0 || bad) {
        snprintf(err, errlen, "cannot write model file %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}
