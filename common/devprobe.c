/* devprobe: a device buffer sent to the rank itself, faults caught, bytes
 * checked; see devprobe.h. */
#include "devprobe.h"

#include <mpi.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devmem.h"

static sigjmp_buf back;
static volatile sig_atomic_t fault;

static void on_fault(int sig)
{
    fault = sig;
    siglongjmp(back, 1);
}

/* The transfer itself, with SIGSEGV and SIGBUS leading back here instead of
 * to the library's own handler (which prints a backtrace and aborts). 0, or
 * the signal that interrupted it. */
static int guarded_sendrecv(const void *src, void *dst, size_t bytes)
{
    struct sigaction sa, old_segv, old_bus;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fault;
    sigemptyset(&sa.sa_mask);
    fault = 0;
    sigaction(SIGSEGV, &sa, &old_segv);
    sigaction(SIGBUS, &sa, &old_bus);
    if (sigsetjmp(back, 1) == 0)
        MPI_Sendrecv(src, (int)bytes, MPI_BYTE, 0, 0, dst, (int)bytes, MPI_BYTE, 0, 0,
                     MPI_COMM_SELF, MPI_STATUS_IGNORE);
    sigaction(SIGSEGV, &old_segv, NULL);
    sigaction(SIGBUS, &old_bus, NULL);
    return fault;
}

static unsigned char pattern(size_t i) { return (unsigned char)(i * 7 + 3); }

int devprobe_direct(const char **why)
{
    static char text[160];
    const size_t n = DEVPROBE_BYTES;
    unsigned char *host = malloc(n);
    void *src = NULL, *dst = NULL;
    const char *err = NULL;
    *why = text;
    if (!host) {
        snprintf(text, sizeof text, "no host memory for the %zu-byte probe", n);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        host[i] = pattern(i);
    int rc = -1;
    if (devmem_alloc(&src, n, DEVMEM_DEVICE, &err) || devmem_alloc(&dst, n, DEVMEM_DEVICE, &err) ||
        devmem_to_device(src, host, n, &err) || devmem_memset(dst, 0, n, &err)) {
        snprintf(text, sizeof text, "%s", err);
        goto done;
    }
    int sig = guarded_sendrecv(src, dst, n);
    if (sig) {
        snprintf(text, sizeof text, "a probe transfer of %zu bytes from device memory faulted (%s)",
                 n, sig == SIGBUS ? "SIGBUS" : "SIGSEGV");
        /* The library is left in the middle of a call: its buffers are
         * not freed, so that nothing else touches them. */
        free(host);
        return -1;
    }
    if (devmem_to_host(host, dst, n, &err)) {
        snprintf(text, sizeof text, "%s", err);
        goto done;
    }
    size_t bad = n;
    for (size_t i = 0; i < n && bad == n; i++)
        if (host[i] != pattern(i))
            bad = i;
    if (bad < n)
        snprintf(text, sizeof text,
                 "a probe transfer of %zu bytes from device memory arrived wrong at byte %zu", n, bad);
    else
        rc = 0;
done:
    devmem_free(src, DEVMEM_DEVICE);
    devmem_free(dst, DEVMEM_DEVICE);
    free(host);
    return rc;
}
