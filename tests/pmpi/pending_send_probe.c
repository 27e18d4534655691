/* pending_send_probe: a PMPI wrapper, preloaded (LD_PRELOAD) into a
 * program by tests/device/check.sh. MPI forbids writing to a send buffer
 * while its send is pending; this makes the whole pages of every pending
 * MPI_Isend's buffer read-only until MPI_Wait or MPI_Waitall completes it,
 * and ends the process (status 3) with one line on stderr when something
 * writes to them meanwhile, e.g. --staging copying the next message of a
 * window into a host buffer that earlier sends still read. Only for
 * programs that complete their sends with MPI_Wait or MPI_Waitall. */
#include <mpi.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PROBE_MAX 4096

static struct guard {
    MPI_Request req;
    uintptr_t start, len; /* whole pages inside the send buffer */
} guards[PROBE_MAX];
static int nguards;
static volatile sig_atomic_t installed;
static struct sigaction previous;

static void on_fault(int sig, siginfo_t *info, void *context)
{
    (void)context;
    uintptr_t at = (uintptr_t)info->si_addr;
    for (int i = 0; i < nguards; i++) {
        if (at >= guards[i].start && at < guards[i].start + guards[i].len) {
            static const char text[] = "pending_send_probe: a send buffer was written while its "
                                       "MPI_Isend was pending\n";
            ssize_t ignored = write(STDERR_FILENO, text, sizeof text - 1);
            (void)ignored;
            _exit(3);
        }
    }
    sigaction(sig, &previous, NULL); /* not ours: fault again, as before */
}

static void install(void)
{
    if (installed)
        return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &previous);
    installed = 1;
}

static void protect_all(int prot)
{
    for (int i = 0; i < nguards; i++)
        mprotect((void *)guards[i].start, guards[i].len, prot);
}

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              MPI_Request *request)
{
    int rc = PMPI_Isend(buf, count, type, dest, tag, comm, request);
    MPI_Aint lb, extent, true_lb, true_extent;
    if (rc != MPI_SUCCESS || count <= 0 || nguards == PROBE_MAX ||
        PMPI_Type_get_extent(type, &lb, &extent) != MPI_SUCCESS ||
        PMPI_Type_get_true_extent(type, &true_lb, &true_extent) != MPI_SUCCESS)
        return rc;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t first = (uintptr_t)buf + (uintptr_t)true_lb;
    uintptr_t end = first + (uintptr_t)((count - 1) * extent + true_extent);
    uintptr_t start = (first + page - 1) / page * page, stop = end / page * page;
    if (stop <= start)
        return rc;
    install();
    guards[nguards++] = (struct guard){*request, start, stop - start};
    mprotect((void *)start, stop - start, PROT_READ);
    return rc;
}

/* Drops the guards of requests (their handles before completion), then
 * protects what the remaining pending sends still cover. */
static void completed(const MPI_Request *done, int n)
{
    protect_all(PROT_READ | PROT_WRITE);
    for (int i = 0; i < nguards;) {
        int hit = 0;
        for (int k = 0; k < n && !hit; k++)
            hit = done[k] != MPI_REQUEST_NULL && guards[i].req == done[k];
        if (hit)
            guards[i] = guards[--nguards];
        else
            i++;
    }
    protect_all(PROT_READ);
}

int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
    MPI_Request before = *request;
    int rc = PMPI_Wait(request, status);
    completed(&before, 1);
    return rc;
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
    MPI_Request before[PROBE_MAX];
    int n = count < PROBE_MAX ? count : PROBE_MAX;
    memcpy(before, requests, (size_t)n * sizeof *before);
    int rc = PMPI_Waitall(count, requests, statuses);
    completed(before, n);
    return rc;
}
