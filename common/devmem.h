/*
 * devmem: GPU memory behind one small interface, one file per vendor, picked
 * by the Makefile: devmem_cuda.c (CUDA=1), devmem_hip.c (HIP=1),
 * devmem_openacc.c (OPENACC=1), devmem_none.c (default), and devmem_fake.c
 * (host memory posing as a device, linked by the unit tests so every device
 * path runs without a GPU). Callers never test for a vendor. devmem.c holds
 * what needs none: the copies everyone calls (below), the launcher's local
 * rank, and whether the MPI library says it can read device pointers.
 *
 * Device selection is lazy: nothing touches the GPU runtime until a
 * program asks for device or managed memory (buf_require, on every rank,
 * after MPI_Init, before any device allocation), so a run on host buffers
 * creates no GPU context (since CUDA 12, cudaSetDevice creates the primary
 * context). Then device = local rank modulo visible devices (the vendor
 * runtime applies CUDA_VISIBLE_DEVICES, ROCR_VISIBLE_DEVICES,
 * HIP_VISIBLE_DEVICES). The trade-off: MPI_Init now runs with no device
 * chosen. Libraries that set up GPU resources inside MPI_Init (Open MPI's
 * smcuda BTL and PSM2, by Open MPI's own documentation) bind them to the
 * device current then, device 0; where each rank sees only its own GPU
 * (srun --gpus-per-task=1 or --gpu-bind, CUDA_VISIBLE_DEVICES or
 * ROCR_VISIBLE_DEVICES per rank), device 0 is the rank's own and the two
 * agree. Libraries that set up when a device buffer first reaches them
 * (Open MPI's usual way, by the same documentation) find the selected one.
 *
 * Synchronisation rule: when devmem_to_device, devmem_copy,
 * devmem_copy_pieces or devmem_memset returns 0, the bytes are in place, so
 * MPI, a data check or another stream may read them at once. CUDA and HIP
 * do not promise that by themselves: a device-to-device cudaMemcpy or
 * hipMemcpy, a copy from pageable host memory to the device and a memset
 * may return before they land. devmem.c therefore synchronises the device
 * after the vendor's raw call, in the one place every caller goes through;
 * the vendor files export only the raw calls (devmem_raw_*), which nothing
 * else uses. A copy to the host has landed when it returns (the runtimes
 * order it after earlier work on the device and wait for it).
 */
#ifndef COMMSWEEP_DEVMEM_H
#define COMMSWEEP_DEVMEM_H

#include <stdbool.h>
#include <stddef.h>

/* What a devmem_alloc call asks for. Pinned is page-locked host memory for
 * staging (plain page-aligned host memory where the vendor has no such
 * thing: OpenACC; devmem_pinned_name says which). Managed memory is
 * advised to its preferred location and prefetched there, then the device
 * is synchronised, so it starts where it is said to be. */
enum devmem_kind {
    DEVMEM_DEVICE,
    DEVMEM_MANAGED_HOST,   /* managed, preferred location the host */
    DEVMEM_MANAGED_DEVICE, /* managed, preferred location the device */
    DEVMEM_PINNED,
};

/* Where managed memory lives on the selected device, as its runtime says:
 * whether a preferred location on the host (OSU MH) and on the device (MD,
 * --memory=managed) can be kept there, and one line for the header that
 * says where the pages are and which attributes say so. CUDA:
 * cudaDevAttrConcurrentManagedAccess (without it the driver moves managed
 * memory as a whole and no preferred location holds) and
 * cudaDevAttrPageableMemoryAccess; HIP: hipDeviceAttributeManagedMemory
 * and hipDeviceAttributeConcurrentManagedAccess, which is 0 on an MI250X
 * without HSA_XNACK=1: managed memory then stays in host memory. */
struct devmem_managed {
    bool on_host, on_device;
    char where[256];
};

/* Which GPU support an MPI library needs to read DEVMEM_DEVICE pointers. */
enum devmem_api {
    DEVMEM_API_HOST, /* none: the "device" memory is host memory */
    DEVMEM_API_CUDA,
    DEVMEM_API_HIP,
};

/* ---- one file per vendor ---- */

/* The vendor's name as --memory spells it ("cuda", "hip", "openacc",
 * "fake"), or NULL in a build without device support. */
const char *devmem_vendor(void);
/* True when the vendor has managed memory (CUDA, HIP, fake). */
bool devmem_has_managed(void);
/* What DEVMEM_PINNED memory is, for "staged through %s host buffers":
 * "pinned" (CUDA, HIP), or "page-aligned (not page-locked)" (OpenACC). */
const char *devmem_pinned_name(void);
/* Number of usable devices (0 without a GPU or without device support). */
int devmem_device_count(void);
/* Selects device local_rank % devmem_device_count() for this process (a
 * negative local_rank counts as 0) and makes it current in the calling
 * thread; the first call creates the GPU context. 0 on success, or -1 with
 * *err naming the call, the device and the runtime's error. buf_require
 * calls it once, after MPI_Init, before any device allocation. */
int devmem_select(int local_rank, const char **err);
/* Makes the selected device current in the calling thread. CUDA, HIP and
 * OpenACC keep the current device per thread, and a thread that never
 * selected one works on device 0 (a context there, on another rank's GPU):
 * every thread that touches device memory calls this first. Nothing to do
 * before devmem_select or without a device; 0, or -1 with *err naming the
 * call and the device. */
int devmem_select_thread(const char **err);
/* Device index selected, or -1 (none yet, or none to select). */
int devmem_selected(void);
/* Where managed memory lives on the selected device (after devmem_select). */
void devmem_managed_where(struct devmem_managed *m);
/* Why device memory cannot be used, or NULL when it can. */
const char *devmem_unavailable_reason(void);
/* The selected device for headers and --topology: vendor, index and PCI
 * bus id where the runtime gives one ("cuda:0 pci=0000:41:00.0"), or what
 * the memory is ("openacc host device"). */
void devmem_describe(char *text, size_t len);
/* Which GPU support MPI needs for DEVMEM_DEVICE pointers. */
enum devmem_api devmem_api(void);

/* 0 on success; on failure *err names the call and the runtime's error. */
int devmem_alloc(void **ptr, size_t bytes, enum devmem_kind kind, const char **err);
void devmem_free(void *ptr, enum devmem_kind kind);
/* The vendor's copies as its runtime makes them: between host memory and
 * memory from devmem_alloc (any kind), between two devmem_alloc areas
 * (raw_copy), and a memset. They may return before the data has landed.
 * Only devmem.c calls them (and the unit test that shows why it must
 * synchronise); everyone else calls the devmem_to_device, ... below. */
int devmem_raw_to_device(void *dst, const void *src, size_t bytes, const char **err);
int devmem_raw_to_host(void *dst, const void *src, size_t bytes, const char **err);
int devmem_raw_copy(void *dst, const void *src, size_t bytes, const char **err);
int devmem_raw_memset(void *dst, int value, size_t bytes, const char **err);
/* Waits until all work issued to the device has finished. */
int devmem_synchronize(const char **err);

/* A stream of the vendor's own, for a library that queues its work on a
 * stream (NCCL and RCCL in the xccl programs, osu/xccl.h): the handle is a
 * cudaStream_t or hipStream_t, what such a library takes as its stream
 * (OpenACC: the number of an async queue of its own). CUDA and HIP streams are made non-blocking, so that
 * they neither wait for the default stream nor make it wait: what is queued
 * on one has landed only once devmem_stream_synchronize (or the whole
 * device's devmem_synchronize) returned 0; a copy to the host does not wait
 * for it. Create after devmem_select; 0, or -1 with *err naming the call
 * and the runtime's error. */
int devmem_stream_create(void **stream, const char **err);
int devmem_stream_synchronize(void *stream, const char **err);
/* After the last synchronisation; NULL does nothing. */
void devmem_stream_destroy(void *stream);

/* ---- devmem.c: the same for every vendor ---- */

/* The copies and the memset every caller uses: the raw call, then, where it
 * may return early, devmem_synchronize, so that the data has landed when
 * they return 0 (the rule at the top). On failure *err names the call. */
int devmem_to_device(void *dst, const void *src, size_t bytes, const char **err);
int devmem_to_host(void *dst, const void *src, size_t bytes, const char **err);
int devmem_copy(void *dst, const void *src, size_t bytes, const char **err);
int devmem_memset(void *dst, int value, size_t bytes, const char **err);
/* n device-to-device copies (each moves bytes from src + from to dst + to)
 * and one synchronisation after the last: what a rearrangement of blocks
 * needs, without waiting for each block. */
struct devmem_piece {
    size_t to, from, bytes;
};
int devmem_copy_pieces(void *dst, const void *src, const struct devmem_piece *pieces, size_t n,
                       const char **err);

/* Local rank from the launcher's environment: the launchers' own variables
 * first (Open MPI, MPICH/Hydra, Slurm, PALS, MVAPICH, PMI_LOCAL_RANK), then
 * LOCAL_RANK, which torchrun and others also set; -1 when none is set. */
int devmem_local_rank(void);
/* Whether the MPI library can read pointers needing api: 1 yes, 0 no, -1 it
 * cannot tell. COMMSWEEP_GPU_AWARE=1 or 0 in the environment overrides the
 * library; otherwise Open MPI's MPIX_Query_cuda_support /
 * MPIX_Query_rocm_support or MPICH's MPIX_GPU_query_support answer, then
 * MPICH_GPU_SUPPORT_ENABLED=1 (Cray MPICH) where the library has no query;
 * DEVMEM_API_HOST is always 1. how (may be NULL) gets where the answer came
 * from, e.g. "MPIX_Query_cuda_support". Call after MPI_Init. */
int devmem_mpi_aware(enum devmem_api api, const char **how);
/* "cuda", "hip" or "host". */
const char *devmem_api_name(enum devmem_api api);

#endif
