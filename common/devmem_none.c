/* devmem_none: a build without device support: every request is refused
 * with a reason, so programs can print one clear line. */
#include "devmem.h"

#include <stdio.h>

static const char *const no_device =
    "device buffers requested, but this build has no device support "
    "(rebuild with make CUDA=1, HIP=1 or OPENACC=1)";

const char *devmem_vendor(void) { return NULL; }
bool devmem_has_managed(void) { return false; }
const char *devmem_pinned_name(void) { return "pinned"; }
int devmem_device_count(void) { return 0; }
int devmem_select(int local_rank, const char **err)
{
    (void)local_rank;
    *err = no_device;
    return -1;
}
int devmem_select_thread(const char **err)
{
    (void)err;
    return 0;
}
int devmem_selected(void) { return -1; }

void devmem_managed_where(struct devmem_managed *m)
{
    m->on_host = m->on_device = false;
    snprintf(m->where, sizeof m->where, "no managed memory in this build");
}
const char *devmem_unavailable_reason(void) { return no_device; }
enum devmem_api devmem_api(void) { return DEVMEM_API_HOST; }
void devmem_describe(char *text, size_t len) { snprintf(text, len, "none"); }

static int refuse(const char **err)
{
    *err = no_device;
    return -1;
}

int devmem_alloc(void **ptr, size_t bytes, enum devmem_kind kind, const char **err)
{
    (void)bytes, (void)kind;
    *ptr = NULL;
    return refuse(err);
}

void devmem_free(void *ptr, enum devmem_kind kind) { (void)ptr, (void)kind; }

int devmem_raw_to_device(void *dst, const void *src, size_t bytes, const char **err)
{
    (void)dst, (void)src, (void)bytes;
    return refuse(err);
}

int devmem_raw_to_host(void *dst, const void *src, size_t bytes, const char **err)
{
    (void)dst, (void)src, (void)bytes;
    return refuse(err);
}

int devmem_raw_copy(void *dst, const void *src, size_t bytes, const char **err)
{
    (void)dst, (void)src, (void)bytes;
    return refuse(err);
}

int devmem_raw_memset(void *dst, int value, size_t bytes, const char **err)
{
    (void)dst, (void)value, (void)bytes;
    return refuse(err);
}

int devmem_synchronize(const char **err) { return refuse(err); }

int devmem_stream_create(void **stream, const char **err)
{
    *stream = NULL;
    return refuse(err);
}

int devmem_stream_synchronize(void *stream, const char **err)
{
    (void)stream;
    return refuse(err);
}

/* devmem_stream_create never made one. */
void devmem_stream_destroy(void *stream) { (void)stream; }
