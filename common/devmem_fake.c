/* devmem_fake: host memory posing as a device; see devmem_fake.h. */
#include "devmem_fake.h"
#include "late_queue.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct devmem_fake_state devmem_fake = {.devices = 1, .api = DEVMEM_API_HOST,
                                        .managed_on_host = true, .managed_on_device = true};

#define FAKE_AREAS 64
static struct area {
    char *p;
    size_t n;
    enum devmem_kind kind;
    int device; /* the allocating thread's current device */
} areas[FAKE_AREAS];
static int selected = -1;
/* This thread's current device: 0 until it selects one, as in CUDA. */
static _Thread_local int current;

const char *devmem_vendor(void) { return "fake"; }
bool devmem_has_managed(void) { return true; }
const char *devmem_pinned_name(void) { return "pinned"; }
int devmem_device_count(void) { return devmem_fake.devices; }
enum devmem_api devmem_api(void) { return devmem_fake.api; }

int devmem_select(int local_rank, const char **err)
{
    static char text[96];
    if (devmem_fake.devices <= 0) {
        *err = "fake device: none to select";
        return -1;
    }
    int dev = (local_rank < 0 ? 0 : local_rank) % devmem_fake.devices;
    if (devmem_fake.fail_select) {
        snprintf(text, sizeof text, "fake device: cannot select device %d of %d", dev,
                 devmem_fake.devices);
        *err = text;
        return -1;
    }
    selected = current = dev;
    devmem_fake.selections++;
    return 0;
}

int devmem_select_thread(const char **err)
{
    (void)err;
    if (selected >= 0)
        current = selected;
    return 0;
}

int devmem_selected(void) { return selected; }

void devmem_managed_where(struct devmem_managed *m)
{
    m->on_host = devmem_fake.managed_on_host;
    m->on_device = devmem_fake.managed_on_device;
    snprintf(m->where, sizeof m->where, "fake:%d: managed memory%s%s", selected,
             m->on_host ? " on the host" : "", m->on_device ? " or on the device" : "");
}

const char *devmem_unavailable_reason(void)
{
    return devmem_fake.devices > 0 ? NULL : "device buffers requested, but no fake device";
}

void devmem_describe(char *text, size_t len) { snprintf(text, len, "fake:%d", selected); }

/* The area that is not pinned host memory and holds [p, p + n), or NULL. */
static const struct area *device_area(const void *p, size_t n)
{
    const char *c = p;
    for (int i = 0; i < FAKE_AREAS; i++)
        if (areas[i].p && areas[i].kind != DEVMEM_PINNED && c >= areas[i].p &&
            n <= areas[i].n && (size_t)(c - areas[i].p) <= areas[i].n - n)
            return &areas[i];
    return NULL;
}

static bool on_device(const void *p, size_t n) { return device_area(p, n) != NULL; }

/* A thread that never selected the device works on device 0: the fake
 * refuses what a real runtime would do on the wrong GPU. */
static bool wrong_thread(const void *p, size_t n)
{
    const struct area *a = device_area(p, n);
    return a && a->device != current;
}

int devmem_alloc(void **ptr, size_t bytes, enum devmem_kind kind, const char **err)
{
    *ptr = NULL;
    if (selected < 0) { /* a real runtime would pick device 0 behind our back */
        *err = "fake device: allocation before a device was selected";
        return -1;
    }
    for (int i = 0; i < FAKE_AREAS; i++) {
        if (areas[i].p)
            continue;
        if (!(areas[i].p = malloc(bytes ? bytes : 1)))
            break;
        areas[i].n = bytes;
        areas[i].kind = kind;
        areas[i].device = current;
        devmem_fake.live++;
        *ptr = areas[i].p;
        return 0;
    }
    *err = "fake device: out of memory";
    return -1;
}

static void land(void);

void devmem_free(void *ptr, enum devmem_kind kind)
{
    land(); /* cudaFree and hipFree wait for the device */
    for (int i = 0; ptr && i < FAKE_AREAS; i++) {
        if (areas[i].p == ptr && areas[i].kind == kind) {
            free(ptr);
            areas[i].p = NULL;
            devmem_fake.live--;
            return;
        }
    }
    if (ptr) {
        fprintf(stderr, "fake device: free of %p (kind %d) that it did not allocate\n", ptr,
                (int)kind);
        abort();
    }
}

static int wrong(const char **err, const char *what)
{
    *err = what;
    return -1;
}

static int check_thread(const void *a, const void *b, size_t n, const char **err)
{
    if (wrong_thread(a, n) || wrong_thread(b, n))
        return wrong(err, "fake device: device memory used from a thread whose current device "
                          "is another (devmem_select_thread first)");
    return 0;
}

/* What the fake device has been asked to do and may not have done yet
 * (late_queue.h); devmem_fake.pending says how much. */
static struct late_queue queue;

static void land(void)
{
    late_queue_land(&queue);
    devmem_fake.pending = 0;
}

/* rc of a late_queue call: the op queued, or out of memory. */
static int queued(int rc, const char **err)
{
    devmem_fake.pending = queue.n;
    return rc ? wrong(err, "fake device: out of memory") : 0;
}

int devmem_raw_to_device(void *dst, const void *src, size_t bytes, const char **err)
{
    devmem_fake.calls_to_device++;
    if (!on_device(dst, bytes) || on_device(src, bytes))
        return wrong(err, "fake device: to_device needs a host source and a device target");
    if (check_thread(dst, src, bytes, err))
        return -1;
    return queued(late_queue_from_host(&queue, dst, src, bytes), err);
}

int devmem_raw_to_host(void *dst, const void *src, size_t bytes, const char **err)
{
    devmem_fake.calls_to_host++;
    if (on_device(dst, bytes) || !on_device(src, bytes))
        return wrong(err, "fake device: to_host needs a device source and a host target");
    if (check_thread(dst, src, bytes, err))
        return -1;
    land(); /* stream order: after everything issued before it */
    memcpy(dst, src, bytes);
    return 0;
}

int devmem_raw_copy(void *dst, const void *src, size_t bytes, const char **err)
{
    devmem_fake.calls_copy++;
    if (!on_device(dst, bytes) || !on_device(src, bytes))
        return wrong(err, "fake device: copy needs device memory on both sides");
    if (check_thread(dst, src, bytes, err))
        return -1;
    return queued(late_queue_copy(&queue, dst, src, bytes), err);
}

int devmem_raw_memset(void *dst, int value, size_t bytes, const char **err)
{
    devmem_fake.calls_memset++;
    if (!on_device(dst, bytes))
        return wrong(err, "fake device: memset needs device memory");
    if (check_thread(dst, dst, bytes, err))
        return -1;
    return queued(late_queue_memset(&queue, dst, value, bytes), err);
}

int devmem_synchronize(const char **err)
{
    (void)err;
    land();
    return 0;
}

/* Streams: a handle is the address of a slot here. None is made before
 * devmem_select (a real runtime would make it on device 0). Nothing is
 * queued on them, and synchronising one lands none of the queued copies:
 * those are the default stream's, which a non-blocking stream does not
 * wait for (devmem.h). */
#define FAKE_STREAMS 8
static bool stream_live[FAKE_STREAMS];

static int stream_slot(const void *stream)
{
    const bool *p = stream;
    return p >= stream_live && p < stream_live + FAKE_STREAMS && *p ? (int)(p - stream_live)
                                                                   : -1;
}

int devmem_stream_create(void **stream, const char **err)
{
    *stream = NULL;
    if (selected < 0)
        return wrong(err, "fake device: stream made before devmem_select");
    for (int i = 0; i < FAKE_STREAMS; i++)
        if (!stream_live[i]) {
            stream_live[i] = true;
            devmem_fake.streams++;
            *stream = &stream_live[i];
            return 0;
        }
    return wrong(err, "fake device: out of streams");
}

int devmem_stream_synchronize(void *stream, const char **err)
{
    return stream_slot(stream) < 0 ? wrong(err, "fake device: not a live stream") : 0;
}

void devmem_stream_destroy(void *stream)
{
    int i = stream_slot(stream);
    if (i < 0)
        return;
    stream_live[i] = false;
    devmem_fake.streams--;
}
