/* devmem_openacc: device memory from the OpenACC runtime (OPENACC=1, gcc
 * -fopenacc): acc_malloc, the acc_memcpy calls to and from the host, and
 * compute regions for device-to-device copies and memsets. Its staging
 * memory is page-aligned host memory, not page-locked (devmem_pinned_name). Where the compiler has an
 * offload target (Debian's gcc-12-offload-nvptx) and a GPU is visible, the
 * buffers are on the GPU (CUDA memory to an MPI library, or HIP memory on
 * an AMD GPU with gcc's amdgcn offload); otherwise the
 * runtime's host device serves them from host memory, and the header says so. */
#include "devmem.h"

#include <openacc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int gpus = -1;  /* GPUs the runtime can offload to */
static int selected = -1;

const char *devmem_vendor(void) { return "openacc"; }
bool devmem_has_managed(void) { return false; }
/* OpenACC has no page-locked allocation: the staging copies are plain
 * host memory, which the header must not call pinned. */
const char *devmem_pinned_name(void) { return "page-aligned (not page-locked)"; }

static int offload_devices(void)
{
    if (gpus < 0)
        gpus = acc_get_num_devices(acc_device_not_host);
    return gpus;
}

/* The host device always exists, so there is always one. */
int devmem_device_count(void) { return offload_devices() > 0 ? offload_devices() : 1; }

/* The runtime ends the program itself when it cannot set a device. */
int devmem_select(int local_rank, const char **err)
{
    (void)err;
    int n = offload_devices();
    if (n <= 0) {
        acc_set_device_type(acc_device_host);
        selected = 0;
        return 0;
    }
    selected = (local_rank < 0 ? 0 : local_rank) % n;
    acc_set_device_num(selected, acc_device_not_host);
    return 0;
}

/* The runtime ends the program itself when it cannot set a device. */
int devmem_select_thread(const char **err)
{
    (void)err;
    if (selected < 0)
        return 0;
    if (offload_devices() > 0)
        acc_set_device_num(selected, acc_device_not_host);
    else
        acc_set_device_type(acc_device_host);
    return 0;
}

int devmem_selected(void) { return selected; }

void devmem_managed_where(struct devmem_managed *m)
{
    m->on_host = m->on_device = false;
    snprintf(m->where, sizeof m->where, "openacc has no managed memory");
}
const char *devmem_unavailable_reason(void) { return NULL; }

enum devmem_api devmem_api(void)
{
    if (offload_devices() <= 0)
        return DEVMEM_API_HOST;
    return acc_get_device_type() == acc_device_radeon ? DEVMEM_API_HIP : DEVMEM_API_CUDA;
}

void devmem_describe(char *text, size_t len)
{
    if (offload_devices() <= 0) {
        snprintf(text, len, "openacc host device");
        return;
    }
    acc_device_t t = acc_get_device_type();
    const char *name = acc_get_property_string(selected, t, acc_property_name);
    snprintf(text, len, "openacc %s:%d (%s)",
             t == acc_device_nvidia ? "nvidia" : t == acc_device_radeon ? "radeon" : "offload",
             selected, name ? name : "?");
}

static char failure[128];

int devmem_alloc(void **ptr, size_t bytes, enum devmem_kind kind, const char **err)
{
    size_t n = bytes ? bytes : 1;
    *ptr = NULL;
    if (kind == DEVMEM_PINNED) {
        if (posix_memalign(ptr, 4096, n) != 0)
            *ptr = NULL;
    } else if (kind == DEVMEM_DEVICE) {
        *ptr = acc_malloc(n);
    } else {
        *err = "managed memory needs a CUDA or HIP build (make CUDA=1 or HIP=1)";
        return -1;
    }
    if (*ptr)
        return 0;
    snprintf(failure, sizeof failure, "%s failed",
             kind == DEVMEM_PINNED ? "posix_memalign" : "acc_malloc");
    *err = failure;
    return -1;
}

void devmem_free(void *ptr, enum devmem_kind kind)
{
    if (!ptr)
        return;
    if (kind == DEVMEM_PINNED)
        free(ptr);
    else
        acc_free(ptr);
}

/* The OpenACC runtime ends the program itself when a copy fails. */
int devmem_raw_to_device(void *dst, const void *src, size_t bytes, const char **err)
{
    (void)err;
    if (bytes)
        acc_memcpy_to_device(dst, (void *)src, bytes);
    return 0;
}

int devmem_raw_to_host(void *dst, const void *src, size_t bytes, const char **err)
{
    (void)err;
    if (bytes)
        acc_memcpy_from_device(dst, (void *)src, bytes);
    return 0;
}

/* Device to device, and memset, in compute regions on the device: gcc 12's
 * runtime has no acc_memcpy_device (OpenACC 3.3), and a bounce through
 * host memory would time two bus copies and a malloc instead of one device
 * copy. Whole 8-byte words where both ends allow it (every block of
 * longs or doubles), bytes otherwise. The regions are synchronous: the
 * data has landed when they end. The areas must not overlap. */
int devmem_raw_copy(void *dst, const void *src, size_t bytes, const char **err)
{
    (void)err;
    if (((uintptr_t)dst | (uintptr_t)src | bytes) % sizeof(uint64_t) == 0) {
        uint64_t *d = dst, *s = (uint64_t *)src;
        size_t n = bytes / sizeof(uint64_t);
#pragma acc parallel loop deviceptr(d, s)
        for (size_t i = 0; i < n; i++)
            d[i] = s[i];
        return 0;
    }
    unsigned char *d = dst, *s = (unsigned char *)src;
#pragma acc parallel loop deviceptr(d, s)
    for (size_t i = 0; i < bytes; i++)
        d[i] = s[i];
    return 0;
}

int devmem_raw_memset(void *dst, int value, size_t bytes, const char **err)
{
    (void)err;
    unsigned char *d = dst, v = (unsigned char)value;
#pragma acc parallel loop deviceptr(d)
    for (size_t i = 0; i < bytes; i++)
        d[i] = v;
    return 0;
}

int devmem_synchronize(const char **err)
{
    (void)err;
    acc_wait_all();
    return 0;
}

/* A stream is an async queue, one of its own for each stream made (from 1
 * up: 0 is where gcc puts plain async work, the negative numbers are
 * acc_async_sync and acc_async_noval). The handle carries its number:
 * work queued with async(number) has landed after acc_wait on it. OpenACC
 * cannot release a queue; destroying one waits for what it still holds. */
static int next_queue = 1;

int devmem_stream_create(void **stream, const char **err)
{
    (void)err;
    *stream = (void *)(intptr_t)next_queue++;
    return 0;
}

int devmem_stream_synchronize(void *stream, const char **err)
{
    (void)err;
    acc_wait((int)(intptr_t)stream);
    return 0;
}

void devmem_stream_destroy(void *stream)
{
    if (stream)
        acc_wait((int)(intptr_t)stream);
}
