/* late_queue: device work queued by a fake device; see late_queue.h. */
#include "late_queue.h"

#include <stdlib.h>
#include <string.h>

static int push(struct late_queue *q, struct late_op op)
{
    if (q->n == q->cap) {
        size_t cap = q->cap ? 2 * q->cap : 64;
        struct late_op *more = realloc(q->ops, cap * sizeof *more);
        if (!more)
            return -1;
        q->ops = more;
        q->cap = cap;
    }
    q->ops[q->n++] = op;
    return 0;
}

int late_queue_from_host(struct late_queue *q, void *dst, const void *src, size_t n)
{
    char *held = malloc(n ? n : 1);
    if (!held)
        return -1;
    memcpy(held, src, n);
    if (push(q, (struct late_op){dst, NULL, held, 0, n}) == 0)
        return 0;
    free(held);
    return -1;
}

int late_queue_copy(struct late_queue *q, void *dst, const void *src, size_t n)
{
    return push(q, (struct late_op){dst, src, NULL, 0, n});
}

int late_queue_memset(struct late_queue *q, void *dst, int value, size_t n)
{
    return push(q, (struct late_op){dst, NULL, NULL, value, n});
}

void late_queue_land(struct late_queue *q)
{
    for (size_t i = 0; i < q->n; i++) {
        struct late_op *op = &q->ops[i];
        if (op->held)
            memcpy(op->dst, op->held, op->n);
        else if (op->src)
            memmove(op->dst, op->src, op->n);
        else
            memset(op->dst, op->value, op->n);
        free(op->held);
    }
    q->n = 0;
}
