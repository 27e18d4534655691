/* osu_ddt: OMB 7.4's -D derived datatypes; see osu_ddt.h. */
#include "osu_ddt.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "osu_pairs.h"

#define DDT_INT_MAX ((size_t)INT_MAX)

void osu_ddt_free(struct osu_ddt *d)
{
    free(d->displs);
    free(d->lengths);
    d->displs = d->lengths = NULL;
    d->nblocks = 0;
}

static int by_displacement(const void *a, const void *b)
{
    const struct osu_pair *x = a, *y = b;
    return x->first < y->first ? -1 : x->first > y->first;
}

int osu_ddt_parse_index(const char *text, size_t len, const char *name, struct osu_ddt *d,
                        char *err, size_t errlen)
{
    static const struct osu_pairs_rule rule = {
        .first = "displacement", .second = "block length",
        .first_min = 0, .first_max = DDT_INT_MAX, .second_min = 1, .second_max = DDT_INT_MAX,
        .max_pairs = OSU_DDT_MAX_BLOCKS, .plural = "blocks"};
    struct osu_pair *blocks;
    size_t n;
    if (osu_pairs_parse(text, len, name, &rule, &blocks, &n, err, errlen))
        return -1;
    qsort(blocks, n, sizeof *blocks, by_displacement);
    for (size_t k = 1; k < n; k++)
        if (blocks[k - 1].first + blocks[k - 1].second > blocks[k].first) {
            snprintf(err, errlen,
                     "%s: the blocks at displacements %zu and %zu overlap (a receive type "
                     "must not)",
                     name, blocks[k - 1].first, blocks[k].first);
            goto fail;
        }
    size_t span = blocks[n - 1].first + blocks[n - 1].second;
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
        d->displs[k] = blocks[k].first;
        d->lengths[k] = blocks[k].second;
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
        osu_pairs_trimmed(arg + 5, colon, stride, sizeof stride);
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
        char *text = osu_pairs_read_file(arg + 5, OSU_DDT_MAX_FILE, &len, err, errlen);
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
