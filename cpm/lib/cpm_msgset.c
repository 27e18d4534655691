/* cpm_msgset: regular, doubling and adaptive message sets; see cpm_measure.h. */
#include "cpm_measure.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "watchdog.h"

bool cpm_msgset_after(const struct cpm_msgset *m, size_t last, size_t *next)
{
    if (last >= m->max_size)
        return false;
    if (m->doubling) {
        if (last > m->max_size / 2 && last > 0)
            return false; /* twice last is above the maximum (or past SIZE_MAX) */
        *next = last ? 2 * last : 1;
        return true;
    }
    /* A regular set ends with max_size itself. */
    *next = m->max_size - last <= m->stride ? m->max_size : last + m->stride;
    return true;
}

size_t cpm_msgset_count(const struct cpm_msgset *m)
{
    if (m->min_size > m->max_size || m->max_num == 0)
        return 0;
    size_t span = m->max_size - m->min_size, count;
    if (m->doubling) {
        count = 1;
        for (size_t at = m->min_size, next; count < m->max_num && cpm_msgset_after(m, at, &next);
             at = next)
            count++;
    } else if (span == 0)
        count = 1;
    else if (m->stride == 0)
        count = 2;
    else /* min + k stride below max, and max itself */
        count = (span - 1) / m->stride + 2;
    return count < m->max_num ? count : m->max_num;
}

int cpm_msgset_check(const struct cpm_msgset *m, size_t min_sizes, char *err, size_t errlen)
{
    if (m->min_size > m->max_size)
        snprintf(err, errlen, "minimum message size %zu exceeds maximum %zu", m->min_size,
                 m->max_size);
    else if (m->max_num < 1)
        snprintf(err, errlen, "the message set needs at least one size");
    else if (m->stride == 0 && !m->doubling && m->min_stride < 1)
        snprintf(err, errlen, "an adaptive message set needs a minimum stride of at least 1");
    else if (m->stride == 0 && !m->doubling && !(m->max_diff > 0.0))
        snprintf(err, errlen, "an adaptive message set needs a positive maximum difference");
    else if (cpm_msgset_count(m) < min_sizes)
        snprintf(err, errlen,
                 "the message set (min %zu, max %zu, at most %zu sizes) gives %zu size%s; "
                 "%zu are needed",
                 m->min_size, m->max_size, m->max_num, cpm_msgset_count(m),
                 cpm_msgset_count(m) == 1 ? "" : "s", min_sizes);
    else
        return 0;
    return -1;
}

void cpm_msgset_walk_init(struct cpm_msgset_walk *w, const struct cpm_msgset *m)
{
    memset(w, 0, sizeof *w);
    w->set = *m;
    w->stride = m->stride ? m->stride : m->min_stride;
    w->sizes = malloc(m->max_num * sizeof *w->sizes);
    w->times = malloc(m->max_num * sizeof *w->times);
    if (!w->sizes || !w->times)
        err_fatal("out of memory for %zu message sizes", m->max_num);
}

void cpm_msgset_walk_free(struct cpm_msgset_walk *w)
{
    free(w->sizes);
    free(w->times);
    w->sizes = NULL;
    w->times = NULL;
}

bool cpm_msgset_walk_next(struct cpm_msgset_walk *w, size_t *size)
{
    if (w->count >= w->set.max_num)
        return false;
    if (w->count == 0) {
        *size = w->pending = w->set.min_size;
        return true;
    }
    /* The adaptive set steps by its current stride, as a regular one would. */
    struct cpm_msgset step = w->set;
    step.stride = w->stride;
    size_t next;
    if (!cpm_msgset_after(&step, w->sizes[w->count - 1], &next))
        return false;
    *size = w->pending = next;
    return true;
}

static void walk_append(struct cpm_msgset_walk *w, size_t size, double time)
{
    w->sizes[w->count] = size;
    w->times[w->count] = time;
    w->count++;
}

void cpm_msgset_walk_record(struct cpm_msgset_walk *w, size_t size, double time)
{
    if (w->set.stride != 0 || w->set.doubling || w->count < 2) {
        walk_append(w, size, time);
        return;
    }
    /* The line through the two previous points predicts the new one. */
    size_t x1 = w->sizes[w->count - 2], x2 = w->sizes[w->count - 1];
    double y1 = w->times[w->count - 2], y2 = w->times[w->count - 1];
    double slope = (y2 - y1) / (double)(x2 - x1);
    double predicted = y2 + slope * (double)(size - x2);
    bool near = fabs(time - predicted) <= w->set.max_diff * fabs(predicted);
    if (near) {
        walk_append(w, size, time);
        if (w->stride <= SIZE_MAX / 2)
            w->stride *= 2;
    } else if (w->stride > w->set.min_stride) {
        /* A change of slope lies ahead: come back with a smaller stride. */
        w->stride /= 2;
        if (w->stride < w->set.min_stride)
            w->stride = w->set.min_stride;
    } else {
        walk_append(w, size, time);
    }
}

size_t cpm_msgset_run(MPI_Comm comm, const struct cpm_msgset *m, size_t nres,
                      cpm_measure_fn measure, void *ctx,
                      void (*each)(size_t index, const struct cpm_result *r, void *ctx),
                      size_t **sizes_out)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    struct cpm_msgset_walk w;
    cpm_msgset_walk_init(&w, m);
    struct cpm_result *results = calloc(cpm_root_only(comm, nres) + 1, sizeof *results);
    if (!results)
        err_fatal("out of memory for %zu results", nres);
    for (;;) {
        unsigned long long next = ULLONG_MAX;
        size_t size = 0;
        if (rank == 0 && cpm_msgset_walk_next(&w, &size))
            next = size;
        MPI_CHECK(MPI_Bcast(&next, 1, MPI_UNSIGNED_LONG_LONG, 0, comm));
        if (next == ULLONG_MAX)
            break;
        size = (size_t)next;
        /* One size is one step of a tool's --timeout (no limit: nothing). */
        watchdog_arm(NULL, "message size %zu", size);
        watchdog_enter_phase("the experiments");
        measure(comm, size, ctx, results);
        watchdog_leave();
        watchdog_disarm();
        if (rank == 0) {
            size_t before = w.count;
            cpm_msgset_walk_record(&w, size, results[0].time);
            if (w.count > before && each)
                each(w.count - 1, results, ctx);
        }
    }
    free(results);
    unsigned long long count = w.count;
    MPI_CHECK(MPI_Bcast(&count, 1, MPI_UNSIGNED_LONG_LONG, 0, comm));
    if (sizes_out) {
        size_t *sizes = malloc((count ? count : 1) * sizeof *sizes);
        if (!sizes)
            err_fatal("out of memory for %llu sizes", count);
        unsigned long long *tmp = malloc((count ? count : 1) * sizeof *tmp);
        if (!tmp)
            err_fatal("out of memory for %llu sizes", count);
        for (size_t k = 0; rank == 0 && k < count; k++)
            tmp[k] = w.sizes[k];
        MPI_CHECK(MPI_Bcast(tmp, (int)count, MPI_UNSIGNED_LONG_LONG, 0, comm));
        for (size_t k = 0; k < count; k++)
            sizes[k] = (size_t)tmp[k];
        free(tmp);
        *sizes_out = sizes;
    }
    cpm_msgset_walk_free(&w);
    return (size_t)count;
}
