/* host: see host.h. */
#include "host.h"

#include <errno.h>
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "mpistart.h"

/* Room for any name Linux gives (HOST_NAME_MAX is 64) and MPI's longest. */
#define NAME_ROOM (MPI_MAX_PROCESSOR_NAME > 255 ? MPI_MAX_PROCESSOR_NAME + 1 : 256)
static char name[NAME_ROOM];
static int error;
static bool read_already;

/* gethostname's name into out (terminated), or -1 with errno. */
static int system_name(char *out, size_t room)
{
    if (gethostname(out, room) != 0)
        return -1;
    /* gethostname need not terminate a name that it cut. */
    out[room - 1] = '\0';
    return 0;
}

/* MPI's name, or gethostname's when that is MPI's with a domain after it. */
static void read_from_mpi(void)
{
    char mpi[MPI_MAX_PROCESSOR_NAME + 1];
    int len = 0;
    if (MPI_Get_processor_name(mpi, &len) != MPI_SUCCESS || len <= 0) {
        if (system_name(name, sizeof name) != 0) {
            error = errno;
            snprintf(name, sizeof name, "?");
        }
        return;
    }
    mpi[len < MPI_MAX_PROCESSOR_NAME ? len : MPI_MAX_PROCESSOR_NAME] = '\0';
    size_t n = strlen(mpi);
    if (system_name(name, sizeof name) == 0 && strncmp(name, mpi, n) == 0 && name[n] == '.')
        return;
    snprintf(name, sizeof name, "%s", mpi);
}

static void read_once(void)
{
    if (read_already)
        return;
    if (!mpistart_running()) {
        error = system_name(name, sizeof name) == 0 ? 0 : errno;
        if (error)
            snprintf(name, sizeof name, "?");
        return;
    }
    read_already = true;
    error = 0;
    read_from_mpi();
}

const char *host_name(void)
{
    read_once();
    return name;
}

int host_name_error(void)
{
    read_once();
    return error;
}
