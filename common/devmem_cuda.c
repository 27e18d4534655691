/* devmem_cuda: device and managed memory with the CUDA runtime (CUDA=1). */
#include "devmem.h"

#include <cuda_runtime_api.h>
#include <stdio.h>

static int selected = -1;
static int count = -1;
static char reason[256];

const char *devmem_vendor(void) { return "cuda"; }
bool devmem_has_managed(void) { return true; }
const char *devmem_pinned_name(void) { return "pinned"; }
enum devmem_api devmem_api(void) { return DEVMEM_API_CUDA; }

int devmem_device_count(void)
{
    if (count < 0) {
        int n = 0;
        cudaError_t rc = cudaGetDeviceCount(&n);
        if (rc != cudaSuccess)
            snprintf(reason, sizeof reason,
                     "device buffers requested, but no CUDA device is usable "
                     "(cudaGetDeviceCount: %s)",
                     cudaGetErrorString(rc));
        else if (n == 0)
            snprintf(reason, sizeof reason,
                     "device buffers requested, but no CUDA device is visible");
        count = rc == cudaSuccess ? n : 0;
    }
    return count;
}

int devmem_select(int local_rank, const char **err)
{
    static char text[320];
    int n = devmem_device_count();
    if (n <= 0) {
        *err = reason;
        return -1;
    }
    int dev = (local_rank < 0 ? 0 : local_rank) % n;
    cudaError_t rc = cudaSetDevice(dev);
    if (rc != cudaSuccess) {
        snprintf(text, sizeof text,
                 "cudaSetDevice(%d) failed (device %d of %d visible, local rank %d): %s", dev, dev,
                 n, local_rank, cudaGetErrorString(rc));
        *err = text;
        return -1;
    }
    selected = dev;
    return 0;
}

int devmem_select_thread(const char **err)
{
    static _Thread_local char text[256];
    if (selected < 0)
        return 0;
    cudaError_t rc = cudaSetDevice(selected);
    if (rc == cudaSuccess)
        return 0;
    snprintf(text, sizeof text, "cudaSetDevice(%d) failed in a thread: %s", selected,
             cudaGetErrorString(rc));
    *err = text;
    return -1;
}

int devmem_selected(void) { return selected; }

/* An attribute of the selected device, -1 when the runtime cannot say. */
static int attribute(enum cudaDeviceAttr attr)
{
    int value = 0;
    return cudaDeviceGetAttribute(&value, attr, selected < 0 ? 0 : selected) == cudaSuccess
               ? value
               : -1;
}

/* Whether pages follow a preferred location (advice and prefetch work). */
static bool concurrent_managed(void)
{
    return attribute(cudaDevAttrConcurrentManagedAccess) == 1;
}

void devmem_managed_where(struct devmem_managed *m)
{
    int managed = attribute(cudaDevAttrManagedMemory);
    int concurrent = attribute(cudaDevAttrConcurrentManagedAccess);
    int pageable = attribute(cudaDevAttrPageableMemoryAccess);
    m->on_host = m->on_device = managed == 1 && concurrent == 1;
    if (managed != 1)
        snprintf(m->where, sizeof m->where,
                 "cuda:%d has no managed memory (cudaDevAttrManagedMemory=%d)", selected,
                 managed);
    else if (concurrent != 1)
        snprintf(m->where, sizeof m->where,
                 "cuda:%d: the driver moves managed memory as a whole, no preferred location "
                 "holds (cudaDevAttrConcurrentManagedAccess=%d)",
                 selected, concurrent);
    else
        snprintf(m->where, sizeof m->where,
                 "cuda:%d: pages migrate on demand, advised and prefetched to their preferred "
                 "location (cudaDevAttrConcurrentManagedAccess=1); the GPU %s pageable host "
                 "memory (cudaDevAttrPageableMemoryAccess=%d)",
                 selected, pageable == 1 ? "reads" : "does not read", pageable);
}

const char *devmem_unavailable_reason(void)
{
    return devmem_device_count() > 0 ? NULL : reason;
}

void devmem_describe(char *text, size_t len)
{
    char pci[32] = "?";
    if (selected < 0) {
        snprintf(text, len, "cuda: no device");
        return;
    }
    if (cudaDeviceGetPCIBusId(pci, (int)sizeof pci, selected) != cudaSuccess)
        snprintf(pci, sizeof pci, "?");
    snprintf(text, len, "cuda:%d pci=%s", selected, pci);
}

/* A managed area's location, and its prefetch there on the default stream:
 * CUDA 13 made the location a struct and gave the prefetch flags. */
#if CUDART_VERSION >= 13000
typedef struct cudaMemLocation location_t;
static location_t location(bool host, int device)
{
    return (location_t){host ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice,
                        host ? 0 : device};
}
static cudaError_t prefetch(const void *p, size_t n, location_t where)
{
    return cudaMemPrefetchAsync(p, n, where, 0, 0);
}
#else
typedef int location_t;
static location_t location(bool host, int device) { return host ? cudaCpuDeviceId : device; }
static cudaError_t prefetch(const void *p, size_t n, location_t where)
{
    return cudaMemPrefetchAsync(p, n, where, 0);
}
#endif

static int check(cudaError_t rc, const char *call, const char **err)
{
    static char text[256];
    if (rc == cudaSuccess)
        return 0;
    snprintf(text, sizeof text, "%s failed: %s", call, cudaGetErrorString(rc));
    *err = text;
    return -1;
}

int devmem_alloc(void **ptr, size_t bytes, enum devmem_kind kind, const char **err)
{
    *ptr = NULL;
    size_t n = bytes ? bytes : 1;
    if (kind == DEVMEM_PINNED)
        return check(cudaMallocHost(ptr, n), "cudaMallocHost", err);
    if (kind == DEVMEM_DEVICE)
        return check(cudaMalloc(ptr, n), "cudaMalloc", err);
    if (check(cudaMallocManaged(ptr, n, cudaMemAttachGlobal), "cudaMallocManaged", err))
        return -1;
    if (!concurrent_managed()) /* buf_require refused both placements */
        return 0;
    /* Advised, then moved there now (not by the first timed call), and
     * there when this returns. */
    location_t where = location(kind == DEVMEM_MANAGED_HOST, selected < 0 ? 0 : selected);
    if (check(cudaMemAdvise(*ptr, n, cudaMemAdviseSetPreferredLocation, where), "cudaMemAdvise",
              err) ||
        check(prefetch(*ptr, n, where), "cudaMemPrefetchAsync", err))
        return -1;
    return devmem_synchronize(err);
}

void devmem_free(void *ptr, enum devmem_kind kind)
{
    if (!ptr)
        return;
    if (kind == DEVMEM_PINNED)
        cudaFreeHost(ptr);
    else
        cudaFree(ptr);
}

/* With unified addressing the runtime tells the directions apart. A copy
 * to the device or between two device areas may return before it lands;
 * devmem.c synchronises after it (the rule in devmem.h). */
static int copy(void *dst, const void *src, size_t bytes, const char **err)
{
    return check(cudaMemcpy(dst, src, bytes, cudaMemcpyDefault), "cudaMemcpy", err);
}

int devmem_raw_to_device(void *dst, const void *src, size_t bytes, const char **err)
{
    return copy(dst, src, bytes, err);
}

int devmem_raw_to_host(void *dst, const void *src, size_t bytes, const char **err)
{
    return copy(dst, src, bytes, err);
}

int devmem_raw_copy(void *dst, const void *src, size_t bytes, const char **err)
{
    return copy(dst, src, bytes, err);
}

int devmem_raw_memset(void *dst, int value, size_t bytes, const char **err)
{
    return check(cudaMemset(dst, value, bytes), "cudaMemset", err);
}

int devmem_synchronize(const char **err)
{
    return check(cudaDeviceSynchronize(), "cudaDeviceSynchronize", err);
}

/* Non-blocking: the legacy default stream, where the copies above run,
 * does not serialise with it (devmem.h). */
int devmem_stream_create(void **stream, const char **err)
{
    cudaStream_t s = NULL;
    *stream = NULL;
    if (check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreateWithFlags",
              err))
        return -1;
    *stream = s;
    return 0;
}

int devmem_stream_synchronize(void *stream, const char **err)
{
    return check(cudaStreamSynchronize((cudaStream_t)stream), "cudaStreamSynchronize", err);
}

void devmem_stream_destroy(void *stream)
{
    if (stream)
        cudaStreamDestroy((cudaStream_t)stream);
}
