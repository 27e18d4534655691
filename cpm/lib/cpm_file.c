/* cpm_file: the strict model file reader and small writers; see cpm_model.h. */
#include "cpm_model.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"

int cpm_read_fail(struct cpm_reader *r, const char *fmt, ...)
{
    char text[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    snprintf(r->err, r->errlen, "line %d: %s", r->line, text);
    return -1;
}

/* Next whitespace-separated token, skipping comments; 0 at end of file. */
static int next_token(struct cpm_reader *r, char *out, size_t outlen)
{
    int c;
    for (;;) {
        c = fgetc(r->f);
        if (c == EOF)
            return 0;
        if (c == '\n')
            r->line++;
        else if (c == '#') {
            while ((c = fgetc(r->f)) != EOF && c != '\n')
                ;
            if (c == '\n')
                r->line++;
        } else if (!isspace(c))
            break;
    }
    size_t len = 0;
    while (c != EOF && !isspace(c) && c != '#') {
        if (len + 1 < outlen)
            out[len++] = (char)c;
        else
            return -1;
        c = fgetc(r->f);
    }
    if (c != EOF)
        ungetc(c, r->f);
    out[len] = '\0';
    return 1;
}

int cpm_read_word(struct cpm_reader *r, const char *what, char *out, size_t outlen)
{
    int got = next_token(r, out, outlen);
    if (got == 0)
        return cpm_read_fail(r, "the file ends where %s was expected (truncated?)", what);
    if (got < 0)
        return cpm_read_fail(r, "a word too long where %s was expected", what);
    return 0;
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

int cpm_read_double(struct cpm_reader *r, const char *what, double *out)
{
    char tok[64], *end;
    if (cpm_read_word(r, what, tok, sizeof tok) != 0)
        return -1;
    errno = 0;
    double v = strtod(tok, &end);
    if (end == tok || *end || errno == ERANGE || !isfinite(v))
        return cpm_read_fail(r, "%s: '%s' is not a finite number", what, tok);
    *out = v;
    return 0;
}

int cpm_read_doubles(struct cpm_reader *r, const char *what, double *out, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (cpm_read_double(r, what, &out[k]) != 0)
            return -1;
    return 0;
}

int cpm_read_sizes(struct cpm_reader *r, double *out, size_t n)
{
    if (cpm_read_expect(r, "sizes") != 0)
        return -1;
    for (size_t s = 0; s < n; s++) {
        size_t size;
        if (cpm_read_size(r, "message size", &size) != 0)
            return -1;
        out[s] = (double)size;
        if (s > 0 && !(out[s] > out[s - 1]))
            return cpm_read_fail(r, "message sizes must increase");
    }
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
    if (got != 0)
        return cpm_read_fail(r, "unexpected '%s' after the end of the model (wrong count?)",
                    got > 0 ? tok : "...");
    return 0;
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
    struct cpm_reader r = {f, 1, err, errlen};
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
        kind->free(m);
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
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "cannot open model file %s: %s", path, strerror(errno));
        return -1;
    }
    char inner[300];
    int rc = cpm_model_read_stream_n(f, kind, processes, model, inner, sizeof inner);
    fclose(f);
    if (rc != 0)
        snprintf(err, errlen, "model file %s, %s", path, inner);
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
