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
    int where = kind == DEVMEM_MANAGED_HOST ? hipCpuDeviceId : (selected < 0 ? 0 : selected);
    return check(hipMemAdvise(*ptr, n, hipMemAdviseSetPreferredLocation, where),
                 "hipMemAdvise", err);
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
