/*
 * late_queue: the device work a fake device has been asked to do and has not
 * done yet, for the fakes that stand in for a GPU in the tests
 * (common/devmem_fake.c, tests/device/fake_cudart.c). A real GPU may finish
 * a copy to device memory or a memset after the call returned; a fake
 * queues them and lands them, in order, only where a real runtime would
 * wait for the device (a synchronisation, a copy to the host, a free), so
 * that code which reads too early reads the old bytes.
 */
#ifndef COMMSWEEP_LATE_QUEUE_H
#define COMMSWEEP_LATE_QUEUE_H

#include <stddef.h>

struct late_op {
    char *dst;
    const char *src; /* a device source, read when the op lands; or NULL */
    char *held;      /* a host source's bytes, taken at the call; or NULL */
    int value;       /* a memset: src and held both NULL */
    size_t n;
};

struct late_queue {
    struct late_op *ops;
    size_t n, cap;
};

/* Queue a copy from host memory (its bytes are taken now, as CUDA stages
 * pageable memory), a copy between two device areas, or a memset. 0, or -1
 * when out of memory. */
int late_queue_from_host(struct late_queue *q, void *dst, const void *src, size_t n);
int late_queue_copy(struct late_queue *q, void *dst, const void *src, size_t n);
int late_queue_memset(struct late_queue *q, void *dst, int value, size_t n);
/* Does every queued op, in order, and empties the queue. */
void late_queue_land(struct late_queue *q);

#endif
