/* osu_ddt: OMB 7.4's -D derived datatypes; see osu_ddt.h. */
#include "osu_ddt.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

#define DDT_INT_MAX ((size_t)INT_MAX)

void osu_ddt_free(struct osu_ddt *d)
{
    free(d->displs);
    free(d->lengths);
    d->displs = d->lengths = NULL;
    d->nblocks = 0;
}

/* The text between begin and end without the blanks around it, into out. */
static void trimmed(const char *begin, const char *end, char *out, size_t len)
{
    while (begin < end && (*begin == ' ' || *begin == '\t' || *begin == '\r'))
        begin++;
    while (end > begin && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
        end--;
    size_t n = (size_t)(end - begin);
    if (n >= len)
        n = len - 1;
    memcpy(out, begin, n);
    out[n] = '\0';
}

struct block {
    size_t displ, length;
};

static int by_displacement(const void *a, const void *b)
{
    const struct block *x = a, *y = b;
    return x->displ < y->displ ? -1 : x->displ > y->displ;
}

/* One "displacement, length" line into *b; 0, or -1 with err. */
static int parse_index_line(const char *line, const char *end, const char *where,
                            struct block *b, char *err, size_t errlen)
{
    const char *comma = memchr(line, ',', (size_t)(end - line));
    if (!comma) {
        snprintf(err, errlen, "%s: expected \"displacement, block length\"", where);
        return -1;
    }
    char first[64], second[64], what[160];
    trimmed(line, comma, first, sizeof first);
    trimmed(comma + 1, end, second, sizeof second);
    snprintf(what, sizeof what, "displacement (%s)", where);
    if (opt_to_size(first, what, 0, DDT_INT_MAX, &b->displ, err, errlen))
        return -1;
    snprintf(what, sizeof what, "block length (%s)", where);
    return opt_to_size(second, what, 1, DDT_INT_MAX, &b->length, err, errlen);
}

int osu_ddt_parse_index(const char *text, size_t len, const char *name, struct osu_ddt *d,
                        char *err, size_t errlen)
{
    size_t cap = 16, n = 0;
    struct block *blocks = malloc(cap * sizeof *blocks);
    if (!blocks) {
        snprintf(err, errlen, "out of memory reading %s", name);
        return -1;
    }
    const char *p = text, *stop = text + len;
    for (size_t line = 1; p < stop; line++) {
        const char *eol = memchr(p, '\n', (size_t)(stop - p));
        const char *end = eol ? eol : stop;
        char where[128], probe[4];
        snprintf(where, sizeof where, "%.100s line %zu", name, line);
        trimmed(p, end, probe, sizeof probe);
        if (memchr(p, '\0', (size_t)(end - p))) {
            snprintf(err, errlen, "%s: a NUL byte", where);
            goto fail;
        }
        if (probe[0] != '\0' && probe[0] != '#') {
            if (n == OSU_DDT_MAX_BLOCKS) {
                snprintf(err, errlen, "%s: more than %zu blocks", where,
                         OSU_DDT_MAX_BLOCKS);
                goto fail;
            }
            if (n == cap) {
                struct block *more = realloc(blocks, 2 * cap * sizeof *blocks);
                if (!more) {
                    snprintf(err, errlen, "out of memory reading %s", name);
                    goto fail;
                }
                blocks = more;
                cap *= 2;
            }
            char why[400];
            if (parse_index_line(p, end, where, &blocks[n], why, sizeof why)) {
                snprintf(err, errlen, "%s", why);
                goto fail;
            }
            n++;
        }
        p = eol ? eol + 1 : stop;
    }
    if (n == 0) {
        snprintf(err, errlen, "%s holds no \"displacement, block length\" line", name);
        goto fail;
    }
    qsort(blocks, n, sizeof *blocks, by_displacement);
    for (size_t k = 1; k < n; k++)
        if (blocks[k - 1].displ + blocks[k - 1].length > blocks[k].displ) {
            snprintf(err, errlen,
                     "%s: the blocks at displacements %zu and %zu overlap (a receive type "
                     "must not)",
                     name, blocks[k - 1].displ, blocks[k].displ);
            goto fail;
        }
    size_t span = blocks[n - 1].displ + blocks[n - 1].length;
    if (span > DDT_INT_MAX) {
        snprintf(err, errlen, "%s: the blocks reach element %zu, beyond an int", name,
                 span);
        goto fail;
    }
    d->displs = malloc(n * sizeof *d->displs);
    d->lengths = malloc(n * sizeof *d->lengths);
    if (!d->displs || !d->lengths) {
        osu_ddt_free(d);
        snprintf(err, errlen, "out of memory for %zu blocks", n);
        goto fail;
    }
    for (size_t k = 0; k < n; k++) {
        d->displs[k] = blocks[k].displ;
        d->lengths[k] = blocks[k].length;
    }
    d->nblocks = n;
    d->span = span;
    d->kind = OSU_DDT_INDEXED;
    free(blocks);
    return 0;
fail:
    free(blocks);
    return -1;
}

/* The whole file at path, NUL-terminated, at most OSU_DDT_MAX_FILE bytes. */
static char *read_file(const char *path, size_t *len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open '%s'", path);
        return NULL;
    }
    size_t cap = 4096, n = 0;
    char *text = malloc(cap + 1);
    while (text) {
        size_t got = fread(text + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        if (cap >= OSU_DDT_MAX_FILE) {
            snprintf(err, errlen, "'%s' is larger than %zu bytes", path,
                     OSU_DDT_MAX_FILE);
            free(text);
            fclose(f);
            return NULL;
        }
        char *more = realloc(text, 2 * cap + 1);
        if (!more)
            free(text);
        text = more;
        cap *= 2;
    }
    bool failed = !text || ferror(f);
    fclose(f);
    if (failed) {
        free(text);
        snprintf(err, errlen, "cannot read '%s'", path);
        return NULL;
    }
    text[n] = '\0';
    *len = n;
    return text;
}

int osu_ddt_parse(const char *arg, struct osu_ddt *d, char *err, size_t errlen)
{
    osu_ddt_free(d);
    d->kind = OSU_DDT_NONE;
    if (strcmp(arg, "cont") == 0) {
        d->kind = OSU_DDT_CONTIGUOUS;
        return 0;
    }
    if (strncmp(arg, "vect:", 5) == 0) {
        const char *colon = strchr(arg + 5, ':');
        if (!colon) {
            snprintf(err, errlen, "vect takes STRIDE:BLOCK (vect:8:4)");
            return -1;
        }
        char stride[64];
        trimmed(arg + 5, colon, stride, sizeof stride);
        if (opt_to_size(stride, "stride", 1, DDT_INT_MAX, &d->stride, err, errlen) ||
            opt_to_size(colon + 1, "block length", 1, DDT_INT_MAX, &d->block, err,
                        errlen))
            return -1;
        if (d->block > d->stride) {
            snprintf(err, errlen,
                     "block length %zu is longer than the stride %zu (blocks would overlap)",
                     d->block, d->stride);
            return -1;
        }
        d->kind = OSU_DDT_VECTOR;
        return 0;
    }
    if (strncmp(arg, "indx:", 5) == 0 && arg[5] != '\0') {
        size_t len = 0;
        char *text = read_file(arg + 5, &len, err, errlen);
        if (!text)
            return -1;
        int rc = osu_ddt_parse_index(text, len, arg + 5, d, err, errlen);
        free(text);
        return rc;
    }
    snprintf(err, errlen, "expected cont, vect:STRIDE:BLOCK or indx:FILE");
    return -1;
}

static int parse_option(const char *arg, void *dest, char *err, size_t errlen)
{
    return osu_ddt_parse(arg, dest, err, errlen);
}

struct opt_spec osu_ddt_option(struct osu_ddt *d)
{
    return (struct opt_spec){
        .long_name = "ddt", .short_name = 'D', .kind = OPT_CUSTOM, .dest = d,
        .parse = parse_option, .metavar = "cont|vect:STRIDE:BLOCK|indx:FILE",
        .help = "send each message as one derived datatype (adds OMB's Transmit Size column)"};
}

size_t osu_ddt_min_count(const struct osu_ddt *d)
{
    return d->kind == OSU_DDT_INDEXED ? d->span : 0;
}

size_t osu_ddt_nruns(const struct osu_ddt *d, size_t count)
{
    switch (d->kind) {
    case OSU_DDT_VECTOR:
        return count / d->stride;
    case OSU_DDT_INDEXED:
        return d->nblocks;
    default:
        return count ? 1 : 0;
    }
}

void osu_ddt_run(const struct osu_ddt *d, size_t count, size_t k, size_t *first, size_t *len)
{
    switch (d->kind) {
    case OSU_DDT_VECTOR:
        *first = k * d->stride;
        *len = d->block;
        break;
    case OSU_DDT_INDEXED:
        *first = d->displs[k];
        *len = d->lengths[k];
        break;
    default:
        *first = 0;
        *len = count;
        break;
    }
}

size_t osu_ddt_carried(const struct osu_ddt *d, size_t count)
{
    size_t total = 0, n = osu_ddt_nruns(d, count);
    if (d->kind == OSU_DDT_VECTOR)
        return n * d->block;
    for (size_t k = 0; k < n; k++) {
        size_t first, len;
        osu_ddt_run(d, count, k, &first, &len);
        total += len;
    }
    return total;
}

void osu_ddt_mark(const struct osu_ddt *d, size_t count, unsigned char *map)
{
    memset(map, 0, count);
    size_t n = osu_ddt_nruns(d, count);
    for (size_t k = 0; k < n; k++) {
        size_t first, len;
        osu_ddt_run(d, count, k, &first, &len);
        if (first < count)
            memset(map + first, 1, len < count - first ? len : count - first);
    }
}

size_t osu_ddt_check(const struct osu_ddt *d, const unsigned char *data, size_t count,
                     size_t elem_size, int rank, size_t iter)
{
    size_t n = osu_ddt_nruns(d, count);
    for (size_t k = 0; k < n; k++) {
        size_t first, len;
        osu_ddt_run(d, count, k, &first, &len);
        size_t begin = first * elem_size, end = (first + len) * elem_size;
        for (size_t i = begin; i < end; i++)
            if (data[i] != (unsigned char)buf_pattern(rank, iter, i))
                return i;
    }
    return SIZE_MAX;
}

void osu_ddt_describe(const struct osu_ddt *d, char *out, size_t len)
{
    switch (d->kind) {
    case OSU_DDT_CONTIGUOUS:
        snprintf(out, len, "derived datatype (-D): contiguous, every element of the message");
        break;
    case OSU_DDT_VECTOR:
        snprintf(out, len,
                 "derived datatype (-D): vector, blocks of %zu elements every %zu (the tail "
                 "past the last whole stride is not sent)",
                 d->block, d->stride);
        break;
    case OSU_DDT_INDEXED:
        snprintf(out, len,
                 "derived datatype (-D): indexed, %zu blocks, %zu elements spanning %zu (the "
                 "same at every size; smaller sizes are skipped)",
                 d->nblocks, osu_ddt_carried(d, d->span), d->span);
        break;
    default:
        snprintf(out, len, "derived datatype (-D): none");
        break;
    }
}

/* The committed type of the runs over base, before resizing. */
static int build(const struct osu_ddt *d, size_t count, MPI_Datatype base, MPI_Datatype *t,
                 char *err, size_t errlen)
{
    size_t n = osu_ddt_nruns(d, count);
    if (d->kind == OSU_DDT_CONTIGUOUS && count > DDT_INT_MAX) {
        snprintf(err, errlen, "-D cont: %zu elements do not fit an int count", count);
        return -1;
    }
    if (n > DDT_INT_MAX) {
        snprintf(err, errlen, "-D: %zu blocks do not fit an int count", n);
        return -1;
    }
    int rc;
    if (d->kind == OSU_DDT_CONTIGUOUS) {
        rc = MPI_Type_contiguous((int)count, base, t);
    } else if (d->kind == OSU_DDT_VECTOR) {
        rc = MPI_Type_vector((int)n, (int)d->block, (int)d->stride, base, t);
    } else {
        int *lengths = malloc(n * sizeof *lengths), *displs = malloc(n * sizeof *displs);
        rc = lengths && displs ? MPI_SUCCESS : MPI_ERR_NO_MEM;
        for (size_t k = 0; rc == MPI_SUCCESS && k < n; k++) {
            lengths[k] = (int)d->lengths[k];
            displs[k] = (int)d->displs[k];
        }
        if (rc == MPI_SUCCESS)
            rc = MPI_Type_indexed((int)n, lengths, displs, base, t);
        free(lengths);
        free(displs);
    }
    if (rc != MPI_SUCCESS) {
        snprintf(err, errlen, "-D: the MPI library refused the derived datatype");
        return -1;
    }
    return 0;
}

int osu_ddt_make(const struct osu_ddt *d, size_t count, MPI_Datatype base, size_t elem_size,
                 struct msg_type *m, char *err, size_t errlen)
{
    MPI_Datatype raw, sized;
    if (count > (size_t)PTRDIFF_MAX / (elem_size ? elem_size : 1)) {
        snprintf(err, errlen, "-D: a message of %zu elements is too large", count);
        return -1;
    }
    if (count < osu_ddt_min_count(d)) {
        snprintf(err, errlen, "-D indx: a message of %zu elements is shorter than the type (%zu)",
                 count, d->span);
        return -1;
    }
    if (build(d, count, base, &raw, err, errlen))
        return -1;
    int rc = MPI_Type_create_resized(raw, 0, (MPI_Aint)(count * elem_size), &sized);
    MPI_Type_free(&raw);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_commit(&sized);
    if (rc != MPI_SUCCESS) {
        snprintf(err, errlen, "-D: the MPI library refused the derived datatype");
        return -1;
    }
    *m = (struct msg_type){.type = sized, .count = 1, .derived = 1};
    return 0;
}
