/* fake_cudart: the CUDA runtime calls common/devmem_cuda.c makes, on host
 * memory, preloaded (LD_PRELOAD) into a CUDA=1 program by
 * tests/device/check.sh, so the CUDA build's device paths run on a machine
 * without a GPU, with MPI reading "device" memory as host memory
 * (COMMSWEEP_GPU_AWARE=1) or staged. It models what the real runtime does
 * that a program can get wrong, more strictly than the real one:
 *   - a copy to device or managed memory (from the host or from the device)
 *     and a memset land late: they are queued and land at
 *     cudaDeviceSynchronize, at a copy to the host, or at cudaFree; until
 *     then MPI reads the old bytes;
 *   - the current device is per thread, 0 until the thread calls
 *     cudaSetDevice; using memory of another device fails
 *     (cudaErrorInvalidDevice), where CUDA would quietly work on device 0;
 *   - advice and prefetch of managed memory fail without concurrent managed
 *     access, as CUDA's prefetch does.
 * Environment: FAKE_CUDART_DEVICES (visible devices, default 1),
 * FAKE_CUDART_CONCURRENT_MANAGED (cudaDevAttrConcurrentManagedAccess,
 * default 1), FAKE_CUDART_FAIL_SET_DEVICE=N (cudaSetDevice(N) fails),
 * FAKE_CUDART_LOG=1 (each call that selects a device or moves managed
 * memory is named on stderr: "fake cudart[PID]: CALL(ARGS)"),
 * FAKE_CUDART_UNREADABLE=1 (device memory is mapped without access, as a
 * real GPU's is to the host: the fake's own copies open it for their
 * moment, and an MPI library that reads it as host memory faults, as one
 * that is not CUDA-aware does on a GPU). */
#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "late_queue.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local int current = -1; /* this thread's cudaSetDevice, -1: never */

static int env_int(const char *name, int otherwise)
{
    const char *v = getenv(name);
    return v && *v ? atoi(v) : otherwise;
}

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
    if (!env_int("FAKE_CUDART_LOG", 0))
        return;
    char text[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    fprintf(stderr, "fake cudart[%ld]: %s\n", (long)getpid(), text);
}

static const char *place(struct cudaMemLocation l)
{
    return l.type == cudaMemLocationTypeHost ? "host" : "device";
}

enum area_kind { AREA_DEVICE, AREA_MANAGED, AREA_PINNED };
struct area {
    char *p;
    size_t n;
    enum area_kind kind;
    int device;
};
static struct area *areas;
static size_t nareas, areas_cap;

/* Queued copies and memsets (the lock held). */
static struct late_queue queue;

static int device_now(void) { return current < 0 ? 0 : current; }

static struct area *find(const void *p)
{
    const char *c = p;
    for (size_t i = 0; i < nareas; i++)
        if (c >= areas[i].p && c < areas[i].p + (areas[i].n ? areas[i].n : 1))
            return &areas[i];
    return NULL;
}

static bool on_device(const void *p)
{
    const struct area *a = find(p);
    return a && a->kind != AREA_PINNED;
}

/* Memory of another device than this thread's current one. */
static bool foreign(const void *p)
{
    const struct area *a = find(p);
    return a && a->kind != AREA_PINNED && a->device != device_now();
}

static bool unreadable(void) { return env_int("FAKE_CUDART_UNREADABLE", 0) != 0; }

static size_t pages(size_t n)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    return (n ? n : 1) + page - 1 - ((n ? n : 1) + page - 1) % page;
}

/* In the unreadable mode, device memory is open only while the fake itself
 * moves bytes (the lock held). */
static void device_access(int prot)
{
    if (!unreadable())
        return;
    for (size_t i = 0; i < nareas; i++)
        if (areas[i].kind == AREA_DEVICE)
            mprotect(areas[i].p, pages(areas[i].n), prot);
}

static void land(void)
{
    device_access(PROT_READ | PROT_WRITE);
    late_queue_land(&queue);
    device_access(PROT_NONE);
}

/* A late_queue call's status as CUDA's. */
static cudaError_t queued(int rc) { return rc ? cudaErrorMemoryAllocation : cudaSuccess; }

static cudaError_t record(void *p, size_t n, enum area_kind kind)
{
    if (nareas == areas_cap) {
        size_t cap = areas_cap ? 2 * areas_cap : 64;
        struct area *more = realloc(areas, cap * sizeof *more);
        if (!more)
            return cudaErrorMemoryAllocation;
        areas = more;
        areas_cap = cap;
    }
    areas[nareas++] = (struct area){p, n, kind, device_now()};
    return cudaSuccess;
}

static cudaError_t allocate(void **ptr, size_t n, enum area_kind kind)
{
    if (kind == AREA_DEVICE && unreadable()) {
        *ptr = mmap(NULL, pages(n), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (*ptr == MAP_FAILED)
            return cudaErrorMemoryAllocation;
    } else if (posix_memalign(ptr, 4096, n ? n : 1) != 0) {
        return cudaErrorMemoryAllocation;
    }
    pthread_mutex_lock(&lock);
    cudaError_t rc = record(*ptr, n, kind);
    pthread_mutex_unlock(&lock);
    return rc;
}

static cudaError_t release(void *p)
{
    if (!p)
        return cudaSuccess;
    pthread_mutex_lock(&lock);
    land(); /* cudaFree waits for the device */
    struct area *a = find(p);
    bool mapped = a && a->kind == AREA_DEVICE && unreadable();
    size_t n = a ? a->n : 0;
    if (a)
        *a = areas[--nareas];
    pthread_mutex_unlock(&lock);
    if (!a)
        return cudaErrorInvalidValue;
    if (mapped)
        munmap(p, pages(n));
    else
        free(p);
    return cudaSuccess;
}

cudaError_t cudaGetDeviceCount(int *count)
{
    *count = env_int("FAKE_CUDART_DEVICES", 1);
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int device)
{
    say("cudaSetDevice(%d)", device);
    if (device < 0 || device >= env_int("FAKE_CUDART_DEVICES", 1))
        return cudaErrorInvalidDevice;
    if (device == env_int("FAKE_CUDART_FAIL_SET_DEVICE", -1))
        return cudaErrorDevicesUnavailable;
    current = device;
    return cudaSuccess;
}

const char *cudaGetErrorString(cudaError_t error)
{
    switch (error) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorDevicesUnavailable: return "CUDA-capable device(s) is/are busy or unavailable";
    default: return "unknown error (fake cudart)";
    }
}

cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device)
{
    snprintf(pciBusId, (size_t)len, "0000:%02x:00.0", (unsigned)device + 1);
    return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
    (void)device;
    *value = attr == cudaDevAttrManagedMemory               ? 1
             : attr == cudaDevAttrConcurrentManagedAccess ? env_int("FAKE_CUDART_CONCURRENT_MANAGED", 1)
                                                          : 0;
    return cudaSuccess;
}

cudaError_t cudaMalloc(void **devPtr, size_t size) { return allocate(devPtr, size, AREA_DEVICE); }
cudaError_t cudaMallocHost(void **ptr, size_t size) { return allocate(ptr, size, AREA_PINNED); }
cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags)
{
    (void)flags;
    return allocate(devPtr, size, AREA_MANAGED);
}
cudaError_t cudaFree(void *devPtr) { return release(devPtr); }
cudaError_t cudaFreeHost(void *ptr) { return release(ptr); }

cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                          struct cudaMemLocation location)
{
    (void)devPtr, (void)count, (void)advice;
    say("cudaMemAdvise(%s,%d)", place(location), location.id);
    return env_int("FAKE_CUDART_CONCURRENT_MANAGED", 1) ? cudaSuccess : cudaErrorInvalidDevice;
}

cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, struct cudaMemLocation location,
                                 unsigned int flags, cudaStream_t stream)
{
    (void)devPtr, (void)count, (void)flags, (void)stream;
    say("cudaMemPrefetchAsync(%s,%d)", place(location), location.id);
    return env_int("FAKE_CUDART_CONCURRENT_MANAGED", 1) ? cudaSuccess : cudaErrorInvalidDevice;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    (void)kind; /* cudaMemcpyDefault: the pointers tell */
    pthread_mutex_lock(&lock);
    cudaError_t rc = cudaSuccess;
    if (foreign(dst) || foreign(src)) {
        rc = cudaErrorInvalidDevice;
    } else if (on_device(dst)) {
        rc = queued(on_device(src) ? late_queue_copy(&queue, dst, src, count)
                                   : late_queue_from_host(&queue, dst, src, count));
    } else {
        land(); /* to the host: after everything before it, and complete */
        device_access(PROT_READ | PROT_WRITE);
        memcpy(dst, src, count);
        device_access(PROT_NONE);
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
    pthread_mutex_lock(&lock);
    cudaError_t rc = foreign(devPtr) ? cudaErrorInvalidDevice
                                     : queued(late_queue_memset(&queue, devPtr, value, count));
    pthread_mutex_unlock(&lock);
    return rc;
}

static void land_streams(void); /* the streams' block below */

cudaError_t cudaDeviceSynchronize(void)
{
    pthread_mutex_lock(&lock);
    land();
    land_streams(); /* the whole device: every stream too */
    pthread_mutex_unlock(&lock);
    return cudaSuccess;
}

/* ---- Streams, and the results tests/device/fake_nccl.c queues on them ----
 * Every stream is non-blocking (as devmem_cuda.c makes them; the stricter
 * model for one made without the flag): what is queued on it lands at
 * cudaStreamSynchronize of it, at cudaDeviceSynchronize, or when it is
 * destroyed, never at a copy to the host (which follows the default
 * stream only), so a program that reads a result before it synchronised
 * the stream reads the old bytes. A result whose memory was freed before
 * it landed is dropped (cudaFree waits for the device on a real GPU: the
 * result would have landed in memory nobody may read any more). The
 * default stream (0) takes no results: the fake NCCL wants a stream of the
 * program's own, as the xccl programs make. */
struct fake_stream {
    struct late_queue results;
    struct fake_stream *next;
};
static struct fake_stream *streams; /* the live ones, the lock held */

static struct fake_stream *stream_of(cudaStream_t s)
{
    for (struct fake_stream *f = streams; f; f = f->next)
        if ((void *)f == (void *)s)
            return f;
    return NULL;
}

static void land_stream(struct fake_stream *f)
{
    for (size_t i = 0; i < f->results.n; i++)
        if (!on_device(f->results.ops[i].dst))
            f->results.ops[i].n = 0;
    device_access(PROT_READ | PROT_WRITE);
    late_queue_land(&f->results);
    device_access(PROT_NONE);
}

static void land_streams(void)
{
    for (struct fake_stream *f = streams; f; f = f->next)
        land_stream(f);
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags)
{
    (void)flags;
    struct fake_stream *f = calloc(1, sizeof *f);
    if (!f)
        return cudaErrorMemoryAllocation;
    pthread_mutex_lock(&lock);
    f->next = streams;
    streams = f;
    pthread_mutex_unlock(&lock);
    *pStream = (cudaStream_t)(void *)f;
    return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t *pStream)
{
    return cudaStreamCreateWithFlags(pStream, cudaStreamDefault);
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    pthread_mutex_lock(&lock);
    struct fake_stream *f = stream_of(stream);
    if (f)
        land_stream(f);
    pthread_mutex_unlock(&lock);
    return f ? cudaSuccess : cudaErrorInvalidResourceHandle;
}

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    pthread_mutex_lock(&lock);
    struct fake_stream **at = &streams;
    while (*at && (void *)*at != (void *)stream)
        at = &(*at)->next;
    struct fake_stream *f = *at;
    if (f) {
        land_stream(f); /* its work completes, as on a real GPU */
        *at = f->next;
    }
    pthread_mutex_unlock(&lock);
    if (!f)
        return cudaErrorInvalidResourceHandle;
    free(f->results.ops);
    free(f);
    return cudaSuccess;
}

/* Whether [p, p + n) lies in one area of device or managed memory. */
static bool device_range(const void *p, size_t n)
{
    const struct area *a = find(p);
    return a && a->kind != AREA_PINNED && (const char *)p + n <= a->p + a->n;
}

/* For the fake NCCL (found with dlsym): n bytes of device or managed
 * memory as they are now (what is queued and not landed is not in them),
 * copied to host; 0, or -1 when [dev, dev + n) is not such memory, which
 * NCCL's calls do not take. */
int fake_cudart_read_device(void *host, const void *dev, size_t n)
{
    pthread_mutex_lock(&lock);
    bool ok = device_range(dev, n);
    if (ok) {
        device_access(PROT_READ | PROT_WRITE);
        memcpy(host, dev, n);
        device_access(PROT_NONE);
    }
    pthread_mutex_unlock(&lock);
    return ok ? 0 : -1;
}

/* For the fake NCCL: n bytes of a result, taken now, to land at dst when
 * stream is synchronised. 0; -1 when stream is no live stream of this
 * runtime, dst is not device memory, or memory ran out. */
int fake_cudart_stream_result(cudaStream_t stream, void *dst, const void *src, size_t n)
{
    pthread_mutex_lock(&lock);
    struct fake_stream *f = stream_of(stream);
    int rc = f && device_range(dst, n) ? late_queue_from_host(&f->results, dst, src, n) : -1;
    pthread_mutex_unlock(&lock);
    return rc;
}
