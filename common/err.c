/* err: messages and exit codes; see err.h for the rules. */
#include "err.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "heapcount.h"
#include "host.h"
#include "mpistart.h"

static const char *program_name = "commsweep";
static char last_message[1024];
static bool check_failed;
static bool write_failed;
static char write_text[sizeof last_message]; /* the message of the first failed write */
/* err_finish or err_fatal decide the status: err_exit_check keeps out. */
static bool ending;
#define ERR_MAX_EXIT_HOOKS 4
static void (*exit_hooks[ERR_MAX_EXIT_HOOKS])(int status);
static size_t nexit_hooks;

const char *err_message(void) { return last_message; }
bool err_check_failed(void) { return check_failed; }
void err_at_exit(void (*fn)(int status))
{
    for (size_t i = 0; i < nexit_hooks; i++)
        if (exit_hooks[i] == fn)
            return;
    if (nexit_hooks == ERR_MAX_EXIT_HOOKS)
        err_fatal("more than %d exit hooks", ERR_MAX_EXIT_HOOKS);
    exit_hooks[nexit_hooks++] = fn;
}

/* In the order they were set, each once, even when one of them fails. */
static void run_exit_hook(int status)
{
    while (nexit_hooks > 0) {
        void (*fn)(int) = exit_hooks[0];
        nexit_hooks--;
        memmove(exit_hooks, exit_hooks + 1, nexit_hooks * sizeof exit_hooks[0]);
        fn(status);
    }
}

void err_set_program(const char *name) { program_name = name; }
const char *err_program(void) { return program_name; }

/* This process's rank among all; 0 before MPI runs (every process then
 * speaks for itself). */
static int world_rank(void)
{
    int rank = 0;
    if (mpistart_running() && mpistart_comm() != MPI_COMM_NULL)
        MPI_Comm_rank(mpistart_comm(), &rank);
    return rank;
}

static void print_text(const char *text)
{
    if (text != last_message)
        snprintf(last_message, sizeof last_message, "%s", text);
    /* What stdout holds goes before the message (and is checked: a
     * failure found here would otherwise have lost its errno later). */
    int saved = errno;
    errno = 0;
    err_write_check(stdout, ERR_STDOUT_NAME);
    errno = saved;
    fprintf(stderr, "%s: %s\n", program_name, text);
    fflush(stderr);
}

static void print_message(const char *fmt, va_list ap)
{
    char text[sizeof last_message];
    vsnprintf(text, sizeof text, fmt, ap);
    print_text(text);
}

void err_print(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    print_message(fmt, ap);
    va_end(ap);
}

const char *err_errno_name(int errnum, char *buf, size_t len)
{
    const char *name = NULL;
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 32))
    name = strerrorname_np(errnum);
#endif
    if (name)
        return name;
    snprintf(buf, len, "errno %d", errnum);
    return buf;
}

void err_write_failed(const char *file, int errnum)
{
    if (write_failed)
        return;
    write_failed = true; /* before printing: print_text checks stdout again */
    char name[32];
    if (errnum)
        snprintf(write_text, sizeof write_text, "cannot write %s: %s (%s)", file,
                 strerror(errnum), err_errno_name(errnum, name, sizeof name));
    else
        snprintf(write_text, sizeof write_text, "cannot write %s: a write failed", file);
    err_print("%s", write_text);
}

void err_write_check(FILE *stream, const char *file)
{
    if (fflush(stream) == EOF || ferror(stream))
        err_write_failed(file, errno);
}

/* status, or ERR_STATUS_WRITE where it was 0 and a write failed on some
 * rank; then every rank keeps the lowest such rank's message (the JSON
 * summary's). Collective while MPI runs, whatever the status: the ranks
 * make the same calls. */
static int write_verdict(int status)
{
    if (!mpistart_running() || mpistart_comm() == MPI_COMM_NULL)
        return status == ERR_STATUS_OK && write_failed ? ERR_STATUS_WRITE : status;
    MPI_Comm comm = mpistart_comm();
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int mine = write_failed ? rank : size, first = mine;
    if (MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS)
        first = mine;
    if (first == size || (status != ERR_STATUS_OK && status != ERR_STATUS_WRITE))
        return status;
    char text[sizeof write_text];
    memcpy(text, write_text, sizeof text);
    if (MPI_Bcast(text, (int)sizeof text, MPI_CHAR, first, comm) == MPI_SUCCESS)
        snprintf(last_message, sizeof last_message, "%s", text);
    return ERR_STATUS_WRITE;
}

_Noreturn void err_finish(int status)
{
    errno = 0;
    err_write_check(stdout, ERR_STDOUT_NAME);
    status = write_verdict(status);
    run_exit_hook(status);
    /* The JSON summary, the last line, may fail too. */
    errno = 0;
    err_write_check(stdout, ERR_STDOUT_NAME);
    status = write_verdict(status);
    ending = true;
    if (mpistart_running())
        heapcount_report(mpistart_comm());
    mpistart_end();
    exit(status);
}

void err_exit_check(void)
{
    if (ending)
        return;
    errno = 0;
    err_write_check(stdout, ERR_STDOUT_NAME);
    if (write_failed)
        _exit(ERR_STATUS_WRITE);
}

_Noreturn void err_exit_all(int status, const char *fmt, ...)
{
    if (world_rank() == 0) {
        va_list ap;
        va_start(ap, fmt);
        print_message(fmt, ap);
        va_end(ap);
    }
    err_finish(status);
}

_Noreturn void err_usage(const char *fmt, ...)
{
    if (world_rank() == 0) {
        va_list ap;
        va_start(ap, fmt);
        print_message(fmt, ap);
        va_end(ap);
    }
    err_finish(ERR_STATUS_USAGE);
}

/* err_any and err_check: the lowest bad rank formats and prints its
 * message (after its rank and host when name_rank), which every rank then
 * keeps (err_message). */
static void any_bad(MPI_Comm comm, bool local_bad, int status, bool data_check, bool name_rank,
                    const char *fmt, va_list ap)
{
    int rank, size, world;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    MPI_Comm_size(mpistart_comm(), &world);
    if (size != world)
        err_fatal("err_any needs a communicator of all %d ranks, got one of %d", world, size);
    /* A write that failed anywhere rides along: every rank learns it
     * here, with no collective call of its own. */
    int mine[2] = {local_bad ? rank : size, write_failed ? 0 : 1}, got[2];
    MPI_CHECK(MPI_Allreduce(mine, got, 2, MPI_INT, MPI_MIN, comm));
    int first = got[0];
    if (first == size && got[1] == 0)
        err_finish(ERR_STATUS_WRITE);
    if (first == size)
        return;
    check_failed |= data_check;
    if (rank == first) {
        size_t used = 0;
        if (name_rank) {
            used = (size_t)snprintf(last_message, sizeof last_message, "rank %d on %s: ", rank,
                                    host_name());
        }
        if (used < sizeof last_message)
            vsnprintf(last_message + used, sizeof last_message - used, fmt, ap);
    }
    MPI_CHECK(MPI_Bcast(last_message, (int)sizeof last_message, MPI_CHAR, first, comm));
    if (rank == first)
        print_text(last_message);
    err_finish(status);
}

void err_any(MPI_Comm comm, bool local_bad, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    any_bad(comm, local_bad, status, false, false, fmt, ap);
    va_end(ap);
}

void err_any_rank(MPI_Comm comm, bool local_bad, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    any_bad(comm, local_bad, status, false, true, fmt, ap);
    va_end(ap);
}

void err_check(MPI_Comm comm, bool local_bad, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    any_bad(comm, local_bad, ERR_STATUS_FAIL, true, false, fmt, ap);
    va_end(ap);
}

_Noreturn void err_fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    print_message(fmt, ap);
    va_end(ap);
    ending = true;
    run_exit_hook(ERR_STATUS_FAIL);
    if (mpistart_running())
        mpistart_abort(ERR_STATUS_FAIL);
    exit(ERR_STATUS_FAIL);
}

void err_mpi_check(int rc, const char *call, const char *file, int line)
{
    if (rc == MPI_SUCCESS)
        return;
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS)
        snprintf(text, sizeof text, "error code %d", rc);
    const char *paren = strchr(call, '(');
    int name_len = paren ? (int)(paren - call) : (int)strlen(call);
    err_fatal("%.*s failed (%s:%d): %s", name_len, call, file, line, text);
}
