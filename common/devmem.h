/*
 * devmem: GPU device memory behind one small interface. Built from
 * devmem_cuda.c with CUDA=1 and from devmem_none.c otherwise; callers never
 * test for CUDA themselves. Device selection happens before MPI_Init, from the
 * launcher's local-rank variable: device = local rank modulo visible devices.
 */
#ifndef COMMSWEEP_DEVMEM_H
#define COMMSWEEP_DEVMEM_H

#include <stdbool.h>
#include <stddef.h>

/* True when the build has CUDA support. */
bool devmem_built(void);
/* Number of visible devices (0 without CUDA or without a GPU). */
int devmem_device_count(void);
/* Local rank from the launcher's environment (LOCAL_RANK, Open MPI,
 * MPICH/Hydra, Slurm, PALS, MVAPICH, PMI_LOCAL_RANK), or -1 when none is set. */
int devmem_local_rank(void);
/* Called before MPI_Init; selects local rank % count when a device exists. */
void devmem_select_before_init(void);
/* Device index selected, or -1. */
int devmem_selected(void);
/* Why device memory cannot be used, or NULL when it can. */
const char *devmem_unavailable_reason(void);

/* 0 on success; on failure *err names the call and the CUDA error string. */
int devmem_alloc(void **ptr, size_t bytes, const char **err);
void devmem_free(void *ptr);
int devmem_to_device(void *dst, const void *src, size_t bytes, const char **err);
int devmem_to_host(void *dst, const void *src, size_t bytes, const char **err);
int devmem_memset(void *dst, int value, size_t bytes, const char **err);
int devmem_synchronize(const char **err);

/* 1 when the MPI library says it is CUDA-aware, 0 when it says it is not,
 * -1 when it cannot tell. */
int devmem_mpi_cuda_aware(void);

#endif
