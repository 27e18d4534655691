/* devmem_none: device memory in a build without CUDA: every request is refused
 * with a reason, so programs can print one clear line. */
#include "devmem.h"

static const char *const no_cuda =
    "device buffers requested, but this build has no CUDA support (rebuild with make CUDA=1)";

bool devmem_built(void) { return false; }
int devmem_device_count(void) { return 0; }
void devmem_select_before_init(void) {}
int devmem_selected(void) { return -1; }
const char *devmem_unavailable_reason(void) { return no_cuda; }
int devmem_mpi_cuda_aware(void) { return -1; }

int devmem_alloc(void **ptr, size_t bytes, const char **err)
{
    (void)bytes;
    *ptr = NULL;
    *err = no_cuda;
    return -1;
}

void devmem_free(void *ptr) { (void)ptr; }

int devmem_to_device(void *dst, const void *src, size_t bytes, const char **err)
{
    (void)dst, (void)src, (void)bytes;
    *err = no_cuda;
    return -1;
}

int devmem_to_host(void *dst, const void *src, size_t bytes, const char **err)
{
    (void)dst, (void)src, (void)bytes;
    *err = no_cuda;
    return -1;
}

int devmem_memset(void *dst, int value, size_t bytes, const char **err)
{
    (void)dst, (void)value, (void)bytes;
    *err = no_cuda;
    return -1;
}

int devmem_synchronize(const char **err)
{
    *err = no_cuda;
    return -1;
}
