/* devmem_cuda: device memory with the CUDA runtime (built with CUDA=1). */
#include "devmem.h"

#include <cuda_runtime_api.h>
#include <mpi.h>
#include <stdio.h>

#if defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h> /* Open MPI: MPIX_Query_cuda_support */
#endif
#endif

static int selected = -1;
static int count = -1;
static char reason[256];

bool devmem_built(void) { return true; }

int devmem_device_count(void)
{
    if (count < 0) {
        int n = 0;
        cudaError_t rc = cudaGetDeviceCount(&n);
        if (rc != cudaSuccess) {
            snprintf(reason, sizeof reason,
                     "device buffers requested, but no CUDA device is usable "
                     "(cudaGetDeviceCount: %s)",
                     cudaGetErrorString(rc));
            n = 0;
        } else if (n == 0) {
            snprintf(reason, sizeof reason,
                     "device buffers requested, but no CUDA device is visible");
        }
        count = n;
    }
    return count;
}

void devmem_select_before_init(void)
{
    int n = devmem_device_count();
    if (n <= 0)
        return;
    int local = devmem_local_rank();
    int dev = (local < 0 ? 0 : local) % n;
    if (cudaSetDevice(dev) == cudaSuccess)
        selected = dev;
}

int devmem_selected(void) { return selected; }

const char *devmem_unavailable_reason(void)
{
    return devmem_device_count() > 0 ? NULL : reason;
}

static int check(cudaError_t rc, const char *call, const char **err)
{
    static char text[256];
    if (rc == cudaSuccess)
        return 0;
    snprintf(text, sizeof text, "%s failed: %s", call, cudaGetErrorString(rc));
    *err = text;
    return -1;
}

int devmem_alloc(void **ptr, size_t bytes, const char **err)
{
    *ptr = NULL;
    return check(cudaMalloc(ptr, bytes ? bytes : 1), "cudaMalloc", err);
}

void devmem_free(void *ptr)
{
    if (ptr)
        cudaFree(ptr);
}

int devmem_to_device(void *dst, const void *src, size_t bytes, const char **err)
{
    return check(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice), "cudaMemcpy", err);
}

int devmem_to_host(void *dst, const void *src, size_t bytes, const char **err)
{
    return check(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy", err);
}

int devmem_memset(void *dst, int value, size_t bytes, const char **err)
{
    return check(cudaMemset(dst, value, bytes), "cudaMemset", err);
}

int devmem_synchronize(const char **err)
{
    return check(cudaDeviceSynchronize(), "cudaDeviceSynchronize", err);
}

int devmem_mpi_cuda_aware(void)
{
#if defined(MPIX_CUDA_AWARE_SUPPORT)
    return MPIX_Query_cuda_support() ? 1 : 0;
#else
    return -1;
#endif
}
