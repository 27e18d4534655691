/* err: messages and exit codes; see err.h for the rules. */
#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "mpistart.h"

static const char *program_name = "commsweep";
static char last_message[1024];
static bool check_failed;
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
    fflush(stdout);
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

_Noreturn void err_finish(int status)
{
    fflush(stdout);
    run_exit_hook(status);
    mpistart_end();
    exit(status);
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
    int mine = local_bad ? rank : size, first = size;
    MPI_CHECK(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm));
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
