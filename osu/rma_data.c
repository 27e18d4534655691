/* rma_data: -c data of the one-sided programs; see rma_data.h. */
#include "rma_data.h"

#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "harness.h"

/* Never a pattern byte (those are below 251), so a stale byte shows. */
#define RMA_POISON 0xff

void rma_data_alloc(struct rma_run *r, size_t bytes)
{
    if (!r->opts.validate || r->op->combine != RMA_SUM)
        return;
    /* Kept in the element's own representation: as many bytes as the
     * window part they describe (at least one element of any type). */
    size_t n = bytes > sizeof(uint64_t) ? bytes : sizeof(uint64_t);
    r->expect_local = calloc(n, 1);
    r->expect_remote = calloc(n, 1);
    bool bad = !r->expect_local || !r->expect_remote;
    err_any(harness.comm, bad, ERR_STATUS_USAGE,
            "cannot allocate %zu bytes for the expected values of -c", 2 * n);
}

void rma_data_free(struct rma_run *r)
{
    free(r->expect_local);
    free(r->expect_remote);
    r->expect_local = r->expect_remote = NULL;
}


static size_t bytes_per_epoch(const struct rma_run *r)
{
    return r->elems * r->elem.size;
}

/* Put and get move plain bytes: the byte pattern of buf.h, no arithmetic. */
static bool plain_bytes(const struct rma_run *r)
{
    return r->type == RMA_TYPE_BYTE;
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
        memset(r->expect_local, 0, bytes);
        memset(r->expect_remote, 0, bytes);
    }
}

/* Operand of the previous iteration: what the peer's window holds before a
 * compare-and-swap of iteration it (0 at the start of a size). */
static uint64_t previous_value(const struct rma_run *r, size_t it, size_t idx)
{
    return it == 0 ? 0 : r->op->value(r->elem, r->rank, it - 1, idx);
}

/* The COMMSWEEP_CORRUPT hook: one wrong operand, wrong in a way -c must see
 * whatever the target already holds (rma_value_damage). */
static void damage_operand(const struct rma_run *r, struct buf *origin)
{
    if (plain_bytes(r)) {
        buf_flip_byte(origin, 0);
        return;
    }
    size_t size = r->elem.size;
    rma_elem_store(origin->ptr, 0, size,
                   rma_value_damage(r->elem, rma_elem_load(origin->ptr, 0, size)));
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
    if (plain_bytes(r)) {
        buf_fill_bytes(&origin, r->rank, it);
    } else {
        for (size_t i = 0; i < r->elems; i++)
            rma_elem_store(r->origin.ptr, i, r->elem.size,
                           r->op->value(r->elem, r->rank, it, i));
    }
    /* The comparand's first bytes are the element, whatever the byte order. */
    if (r->op->compares)
        rma_elem_store(&r->compare, 0, r->elem.size, previous_value(r, it, 0));
    if (r->op->fetches) {
        struct buf result = buf_view(&r->result, 0, bytes);
        buf_set_bytes(&result, RMA_POISON);
    }
    if (r->corrupt && it == r->warmup && bytes)
        damage_operand(r, &origin);
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
    size_t size = r->elem.size;
    if (plain_bytes(r)) {
        bad = buf_check_bytes(&win, 0, r->elems, r->peer, it);
    } else {
        for (size_t i = 0; i < r->elems; i++) {
            uint64_t before = r->expect_local ? rma_elem_load(r->expect_local, i, size) : 0;
            uint64_t want = rma_combine_value(op->combine, r->elem, before,
                                              op->value(r->elem, r->peer, it, i));
            if (r->expect_local)
                rma_elem_store(r->expect_local, i, size, want);
            if (rma_elem_load(win.ptr, i, size) != want && bad == SIZE_MAX)
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
    size_t size = r->elem.size, bad = SIZE_MAX;
    for (size_t i = 0; i < r->elems; i++) {
        uint64_t before = r->expect_remote ? rma_elem_load(r->expect_remote, i, size)
                                           : previous_value(r, it, i);
        if (r->expect_remote)
            rma_elem_store(r->expect_remote, i, size,
                           rma_combine_value(op->combine, r->elem, before,
                                             op->value(r->elem, r->rank, it, i)));
        if (rma_elem_load(r->result.ptr, i, size) != before && bad == SIZE_MAX)
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
