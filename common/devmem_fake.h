/*
 * devmem_fake: host memory behind the device interface, for unit tests (not
 * part of libcommon; a test links devmem_fake.o before the library). Every
 * area it hands out is recorded, and each copy checks its direction: a
 * "device" pointer where host memory belongs (or the other way round) makes
 * the call fail, so a caller that treats device memory as host memory is
 * caught. Copies land late, as CUDA's may: a raw copy to device memory
 * (from the host or from device memory) and a raw memset are queued and
 * land only at devmem_synchronize, at a raw copy to the host or at
 * devmem_free (the calls that wait for the device on a real GPU); until
 * then the target holds its old bytes, which is what MPI would read. An
 * allocation before devmem_select fails (a real runtime would quietly use
 * device 0), and so does a copy from a thread whose current device (0 until
 * it calls devmem_select_thread, as in CUDA) is not the memory's. Streams
 * are non-blocking, as CUDA's made by devmem_cuda.c: synchronising one does
 * not land the queued copies (they are the default stream's work). These
 * knobs let a test shape the fake device.
 */
#ifndef COMMSWEEP_DEVMEM_FAKE_H
#define COMMSWEEP_DEVMEM_FAKE_H

#include <stdbool.h>
#include <stddef.h>

#include "devmem.h"

struct devmem_fake_state {
    int devices;          /* visible devices (default 1; 0 tests the refusal) */
    bool fail_select;     /* devmem_select fails, naming the device */
    bool managed_on_host, managed_on_device; /* devmem_managed_where (default both) */
    size_t selections;    /* devmem_select calls that succeeded */
    enum devmem_api api;  /* what MPI is told the pointers are (default host) */
    size_t calls_to_device, calls_to_host, calls_copy, calls_memset;
    size_t live;          /* areas allocated and not freed */
    size_t pending;       /* copies and memsets queued, not landed yet */
    size_t streams;       /* streams made and not destroyed */
};
extern struct devmem_fake_state devmem_fake;

#endif
