/* rma_data: -c data of the one-sided programs; see rma_data.h. */
#include "rma_data.h"

#include <stdlib.h>
#include <string.h>

#include "err.h"

/* Never a pattern byte (those are below 251), so a stale byte shows. */
#define RMA_POISON 0xff

void rma_data_alloc(struct rma_run *r, size_t max_elems)
{
    if (!r->opts.validate || r->op->combine != RMA_SUM)
        return;
    size_t n = max_elems ? max_elems : 1;
    r->expect_local = calloc(n, sizeof *r->expect_local);
    r->expect_remote = calloc(n, sizeof *r->expect_remote);
    bool bad = !r->expect_local || !r->expect_remote;
    err_any(MPI_COMM_WORLD, bad, ERR_STATUS_USAGE,
            "cannot allocate %zu bytes for the expected values of -c", 2 * n * sizeof(uint64_t));
}

void rma_data_free(struct rma_run *r)
{
    free(r->expect_local);
    free(r->expect_remote);
    r->expect_local = r->expect_remote = NULL;
}


static size_t bytes_per_epoch(const struct rma_run *r)
{
    return r->elems * r->op->elem;
}

static enum rma_local local_access(const struct rma_run *r, enum rma_local locked)
{
    return rma_sync_needs_self_lock(&r->epoch) ? locked : RMA_LOCAL_DIRECT;
}

void rma_data_setup(struct rma_run *r)
{
    size_t bytes = bytes_per_epoch(r);
    struct buf win = buf_view(&r->window.mem, 0, bytes);
    /* No epoch is open here in any mode, so the owner may always lock itself. */
    rma_window_local_begin(&r->window, RMA_LOCAL_WRITE);
    if (r->op->reads_target) {
        buf_fill_bytes(&win, r->rank, 0);
        if (r->corrupt && bytes)
            buf_flip_byte(&win, 0);
    } else {
        buf_zero(&win);
    }
    rma_window_local_end(&r->window, RMA_LOCAL_WRITE);
    if (r->expect_local) {
        memset(r->expect_local, 0, r->elems * sizeof *r->expect_local);
        memset(r->expect_remote, 0, r->elems * sizeof *r->expect_remote);
    }
}

/* Operand of the previous iteration: what the peer's window holds before a
 * compare-and-swap of iteration it (0 at the start of a size). */
static uint64_t previous_value(const struct rma_run *r, size_t it, size_t idx)
{
    return it == 0 ? 0 : r->op->value(r->rank, it - 1, idx);
}

void rma_data_prepare(struct rma_run *r, size_t it)
{
    if (!r->was_origin)
        return;
    size_t bytes = bytes_per_epoch(r);
    struct buf origin = buf_view(&r->origin, 0, bytes);
    if (r->op->reads_target) {
        buf_set_bytes(&origin, RMA_POISON);
        return;
    }
    if (r->op->elem == 1) {
        buf_fill_bytes(&origin, r->rank, it);
    } else {
        for (size_t i = 0; i < r->elems; i++)
            rma_elem_store(r->origin.ptr, i, r->op->elem, r->op->value(r->rank, it, i));
    }
    if (r->op->compares)
        r->compare = previous_value(r, it, 0);
    if (r->op->fetches) {
        struct buf result = buf_view(&r->result, 0, bytes);
        buf_set_bytes(&result, RMA_POISON);
    }
    if (r->corrupt && it == r->warmup && bytes)
        buf_flip_byte(&origin, 0);
}

/* The window after the peer's operations of iteration it: the first wrong
 * element, or SIZE_MAX. Every element is visited: the running sums of the
 * summing operations must stay up to date. */
static size_t window_bad(struct rma_run *r, size_t it)
{
    const struct rma_op *op = r->op;
    struct buf win = buf_view(&r->window.mem, 0, bytes_per_epoch(r));
    enum rma_local how = local_access(r, RMA_LOCAL_READ);
    size_t bad = SIZE_MAX;
    rma_window_local_begin(&r->window, how);
    if (op->elem == 1) {
        bad = buf_check_bytes(&win, 0, r->elems, r->peer, it);
    } else {
        for (size_t i = 0; i < r->elems; i++) {
            uint64_t before = r->expect_local ? r->expect_local[i] : 0;
            uint64_t want =
                rma_combine_value(op->combine, before, op->value(r->peer, it, i), op->elem);
            if (r->expect_local)
                r->expect_local[i] = want;
            if (rma_elem_load(win.ptr, i, op->elem) != want && bad == SIZE_MAX)
                bad = i;
        }
    }
    rma_window_local_end(&r->window, how);
    return bad;
}

/* What the origin fetched (the peer's window before its own operation): the
 * first wrong element, or SIZE_MAX. */
static size_t fetched_bad(struct rma_run *r, size_t it)
{
    const struct rma_op *op = r->op;
    size_t bad = SIZE_MAX;
    for (size_t i = 0; i < r->elems; i++) {
        uint64_t before = r->expect_remote ? r->expect_remote[i] : previous_value(r, it, i);
        if (r->expect_remote)
            r->expect_remote[i] =
                rma_combine_value(op->combine, before, op->value(r->rank, it, i), op->elem);
        if (rma_elem_load(r->result.ptr, i, op->elem) != before && bad == SIZE_MAX)
            bad = i;
    }
    return bad;
}

/* Counts a wrong buffer; the first of the size is kept for the message. */
static void record(struct rma_run *r, size_t bad, const char *what, size_t it)
{
    if (bad == SIZE_MAX)
        return;
    if (r->failed_checks++ == 0)
        r->first_failure = (struct rma_failure){what, bad, it};
}

void rma_data_check(struct rma_run *r, size_t it)
{
    const struct rma_op *op = r->op;
    if (r->was_target && !op->reads_target)
        record(r, window_bad(r, it), "its window", it);
    if (!r->was_origin)
        return;
    if (op->reads_target)
        record(r, buf_check_bytes(&r->origin, 0, r->elems, r->peer, 0), "the data it got", it);
    if (op->fetches)
        record(r, fetched_bad(r, it), "the values it fetched", it);
}

bool rma_data_corrupts(const struct rma_run *r)
{
    return buf_corrupt_requested(r->op->reads_target ? r->peer : r->rank);
}
