/* devmem_hip: device and managed memory with the HIP runtime (HIP=1; its C
 * API is enough, no kernels are compiled). */
#include "devmem.h"

#include <hip/hip_runtime_api.h>
#include <stdio.h>

static int selected = -1;
static int count = -1;
static char reason[256];

const char *devmem_vendor(void) { return "hip"; }
bool devmem_has_managed(void) { return true; }
const char *devmem_pinned_name(void) { return "pinned"; }
enum devmem_api devmem_api(void) { return DEVMEM_API_HIP; }

int devmem_device_count(void)
{
    if (count < 0) {
        int n = 0;
        hipError_t rc = hipGetDeviceCount(&n);
        if (rc != hipSuccess)
            snprintf(reason, sizeof reason,
                     "device buffers requested, but no HIP device is usable "
                     "(hipGetDeviceCount: %s)",
                     hipGetErrorString(rc));
        else if (n == 0)
            snprintf(reason, sizeof reason,
                     "device buffers requested, but no HIP device is visible");
        count = rc == hipSuccess ? n : 0;
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
    hipError_t rc = hipSetDevice(dev);
    if (rc != hipSuccess) {
        snprintf(text, sizeof text,
                 "hipSetDevice(%d) failed (device %d of %d visible, local rank %d): %s", dev, dev,
                 n, local_rank, hipGetErrorString(rc));
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
    hipError_t rc = hipSetDevice(selected);
    if (rc == hipSuccess)
        return 0;
    snprintf(text, sizeof text, "hipSetDevice(%d) failed in a thread: %s", selected,
             hipGetErrorString(rc));
    *err = text;
    return -1;
}

int devmem_selected(void) { return selected; }

/* An attribute of the selected device, -1 when the runtime cannot say. */
static int attribute(hipDeviceAttribute_t attr)
{
    int value = 0;
    return hipDeviceGetAttribute(&value, attr, selected < 0 ? 0 : selected) == hipSuccess
               ? value
               : -1;
}

/* Whether pages migrate and follow a preferred location: on an MI250X only
 * with HSA_XNACK=1; otherwise managed memory stays in host memory. */
static bool concurrent_managed(void)
{
    return attribute(hipDeviceAttributeConcurrentManagedAccess) == 1;
}

void devmem_managed_where(struct devmem_managed *m)
{
    int managed = attribute(hipDeviceAttributeManagedMemory);
    int concurrent = attribute(hipDeviceAttributeConcurrentManagedAccess);
    m->on_host = managed == 1;
    m->on_device = managed == 1 && concurrent == 1;
    if (managed != 1)
        snprintf(m->where, sizeof m->where,
                 "hip:%d has no managed memory (hipDeviceAttributeManagedMemory=%d)", selected,
                 managed);
    else if (concurrent != 1)
        snprintf(m->where, sizeof m->where,
                 "hip:%d: managed memory stays in host memory, the GPU reads it over the link "
                 "(hipDeviceAttributeConcurrentManagedAccess=%d; HSA_XNACK=1 lets pages "
                 "migrate where the GPU supports it)",
                 selected, concurrent);
    else
        snprintf(m->where, sizeof m->where,
                 "hip:%d: pages migrate on demand, advised and prefetched to their preferred "
                 "location (hipDeviceAttributeConcurrentManagedAccess=1)",
                 selected);
}

const char *devmem_unavailable_reason(void)
{
    return devmem_device_count() > 0 ? NULL : reason;
}

void devmem_describe(char *text, size_t len)
{
    char pci[32] = "?";
    if (selected < 0) {
        snprintf(text, len, "hip: no device");
        return;
    }
    if (hipDeviceGetPCIBusId(pci, (int)sizeof pci, selected) != hipSuccess)
        snprintf(pci, sizeof pci, "?");
    snprintf(text, len, "hip:%d pci=%s", selected, pci);
}

static int check(hipError_t rc, const char *call, const char **err)
{
    static char text[256];
    if (rc == hipSuccess)
        return 0;
    snprintf(text, sizeof text, "%s failed: %s", call, hipGetErrorString(rc));
    *err = text;
    return -1;
}

int devmem_alloc(void **ptr, size_t bytes, enum devmem_kind kind, const char **err)
{
    *ptr = NULL;
    size_t n = bytes ? bytes : 1;
    if (kind == DEVMEM_PINNED)
        return check(hipHostMalloc(ptr, n, hipHostMallocDefault), "hipHostMalloc", err);
    if (kind == DEVMEM_DEVICE)
        return check(hipMalloc(ptr, n), "hipMalloc", err);
    if (check(hipMallocManaged(ptr, n, hipMemAttachGlobal), "hipMallocManaged", err))
        return -1;
    /* Without migration the pages are in host memory already, where MH
     * wants them (buf_require refused MD). */
    if (!concurrent_managed())
        return 0;
    /* Advised, then moved there now (not by the first timed call), and
     * there when this returns. */
    int where = kind == DEVMEM_MANAGED_HOST ? hipCpuDeviceId : (selected < 0 ? 0 : selected);
    if (check(hipMemAdvise(*ptr, n, hipMemAdviseSetPreferredLocation, where), "hipMemAdvise",
              err) ||
        check(hipMemPrefetchAsync(*ptr, n, where, 0), "hipMemPrefetchAsync", err))
        return -1;
    return devmem_synchronize(err);
}

void devmem_free(void *ptr, enum devmem_kind kind)
{
    if (!ptr)
        return;
    if (kind == DEVMEM_PINNED)
        hipHostFree(ptr);
    else
        hipFree(ptr);
}

/* With unified addressing the runtime tells the directions apart. A copy
 * to the device or between two device areas may return before it lands;
 * devmem.c synchronises after it (the rule in devmem.h). */
static int copy(void *dst, const void *src, size_t bytes, const char **err)
{
    return check(hipMemcpy(dst, src, bytes, hipMemcpyDefault), "hipMemcpy", err);
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
    return check(hipMemset(dst, value, bytes), "hipMemset", err);
}

int devmem_synchronize(const char **err)
{
    return check(hipDeviceSynchronize(), "hipDeviceSynchronize", err);
}

/* Non-blocking: the null stream, where the copies above run, does not
 * serialise with it (devmem.h). */
int devmem_stream_create(void **stream, const char **err)
{
    hipStream_t s = NULL;
    *stream = NULL;
    if (check(hipStreamCreateWithFlags(&s, hipStreamNonBlocking), "hipStreamCreateWithFlags",
              err))
        return -1;
    *stream = s;
    return 0;
}

int devmem_stream_synchronize(void *stream, const char **err)
{
    return check(hipStreamSynchronize((hipStream_t)stream), "hipStreamSynchronize", err);
}

void devmem_stream_destroy(void *stream)
{
    if (stream)
        hipStreamDestroy((hipStream_t)stream);
}
