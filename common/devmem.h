/*
 * devmem: GPU memory behind one small interface, one file per vendor, picked
 * by the Makefile: devmem_cuda.c (CUDA=1), devmem_hip.c (HIP=1),
 * devmem_openacc.c (OPENACC=1), devmem_none.c (default), and devmem_fake.c
 * (host memory posing as a device, linked by the unit tests so every device
 * path runs without a GPU). Callers never test for a vendor. devmem.c holds
 * what needs none: the launcher's local rank, and whether the MPI library
 * says it can read device pointers. Device selection happens before
 * MPI_Init: device = local rank modulo visible devices (the vendor runtime
 * applies CUDA_VISIBLE_DEVICES, ROCR_VISIBLE_DEVICES, HIP_VISIBLE_DEVICES).
 */
#ifndef COMMSWEEP_DEVMEM_H
#define COMMSWEEP_DEVMEM_H

#include <stdbool.h>
#include <stddef.h>

/* What a devmem_alloc call asks for. Pinned is page-locked host memory for
 * staging (plain host memory where the vendor has no such thing). */
enum devmem_kind {
    DEVMEM_DEVICE,
    DEVMEM_MANAGED_HOST,   /* managed, preferred location the host */
    DEVMEM_MANAGED_DEVICE, /* managed, preferred location the device */
    DEVMEM_PINNED,
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
/* Number of usable devices (0 without a GPU or without device support). */
int devmem_device_count(void);
/* Called before MPI_Init; selects local rank % count when a device exists. */
void devmem_select_before_init(void);
/* Device index selected, or -1. */
int devmem_selected(void);
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
/* Copies between host memory and memory from devmem_alloc (any kind), and
 * between two devmem_alloc areas (devmem_copy). */
int devmem_to_device(void *dst, const void *src, size_t bytes, const char **err);
int devmem_to_host(void *dst, const void *src, size_t bytes, const char **err);
int devmem_copy(void *dst, const void *src, size_t bytes, const char **err);
int devmem_memset(void *dst, int value, size_t bytes, const char **err);
int devmem_synchronize(const char **err);

/* ---- devmem.c: the same for every vendor ---- */

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
