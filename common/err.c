/* err: messages and exit codes; see err.h for the rules. */
#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpistart.h"

static const char *program_name = "commsweep";

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

static void print_message(const char *fmt, va_list ap)
{
    char text[1024];
    vsnprintf(text, sizeof text, fmt, ap);
    fflush(stdout);
    fprintf(stderr, "%s: %s\n", program_name, text);
    fflush(stderr);
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

void err_any(MPI_Comm comm, bool local_bad, int status, const char *fmt, ...)
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
    if (rank == first) {
        va_list ap;
        va_start(ap, fmt);
        print_message(fmt, ap);
        va_end(ap);
    }
    err_finish(status);
}

_Noreturn void err_fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    print_message(fmt, ap);
    va_end(ap);
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
