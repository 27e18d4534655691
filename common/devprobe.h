/*
 * devprobe: proves, before anything is timed, that the MPI library reads
 * device memory when it says it does. A library's own answer
 * (MPIX_Query_cuda_support, MPICH_GPU_SUPPORT_ENABLED, COMMSWEEP_GPU_AWARE)
 * can be wrong: Open MPI built with CUDA but running a transport without
 * it, or a variable set by hand. Such a library dereferences the device
 * pointer as host memory and the program dies of a segmentation fault in
 * the middle of MPI, which is what users of other suites report. The probe
 * sends a device buffer to the rank itself (MPI_COMM_SELF) with the fault
 * signals caught, and checks the bytes that arrive.
 *
 * Limit: the probe follows the library's path to the rank itself; a
 * library that reads device memory there but not on the path to another
 * process or node is not caught by it (the data checks, -c, are).
 */
#ifndef COMMSWEEP_DEVPROBE_H
#define COMMSWEEP_DEVPROBE_H

#include <stddef.h>

/* Bytes the probe moves: above the eager limits of the usual transports, so
 * the rendezvous path is taken where the library has one for itself. */
#define DEVPROBE_BYTES ((size_t)256 << 10)

/* Local: sends DEVPROBE_BYTES of device memory to this rank and checks
 * them. 0 when they arrived intact; otherwise -1 and *why says what went
 * wrong ("faulted (SIGSEGV) reading device memory", "arrived wrong at byte
 * 17", or the device call that failed). Call after the device is selected,
 * on the main thread, with no other thread in MPI. */
int devprobe_direct(const char **why);

#endif
