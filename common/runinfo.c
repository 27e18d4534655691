/* runinfo: date, MPI library and hosts of a run; see runinfo.h. */
#include "runinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "err.h"

void runinfo_date(char *text, size_t len)
{
    time_t now = time(NULL);
    strftime(text, len, "%Y-%m-%dT%H:%M:%S%z", localtime(&now));
}

void runinfo_mpi_library(char *text, size_t len)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int n = 0;
    MPI_Get_library_version(lib, &n);
    for (int i = 0; i < n; i++)
        if (lib[i] == '\n' || lib[i] == '\r')
            lib[i] = ' ';
    while (n > 0 && (lib[n - 1] == ' ' || lib[n - 1] == '\0'))
        n--;
    snprintf(text, len, "%.*s", n, lib);
}

size_t runinfo_hosts(MPI_Comm comm, struct runinfo_host **hosts)
{
    int rank, size, n = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    char mine[MPI_MAX_PROCESSOR_NAME] = "";
    MPI_CHECK(MPI_Get_processor_name(mine, &n));
    char *all = rank == 0 ? malloc((size_t)size * MPI_MAX_PROCESSOR_NAME) : NULL;
    struct runinfo_host *h = rank == 0 ? calloc((size_t)size, sizeof *h) : NULL;
    if (rank == 0 && (!all || !h))
        err_fatal("cannot allocate the host names of %d ranks", size);
    MPI_CHECK(MPI_Gather(mine, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all, MPI_MAX_PROCESSOR_NAME,
                         MPI_CHAR, 0, comm));
    *hosts = h;
    if (rank != 0)
        return 0;
    size_t count = 0, last = 0;
    for (int r = 0; r < size; r++) {
        const char *name = all + (size_t)r * MPI_MAX_PROCESSOR_NAME;
        /* Neighbouring ranks usually share a host: try the last one first. */
        size_t k = count && strcmp(h[last].name, name) == 0 ? last : 0;
        while (k < count && strcmp(h[k].name, name) != 0)
            k++;
        if (k == count) {
            snprintf(h[count].name, sizeof h[count].name, "%s", name);
            count++;
        }
        h[k].ranks++;
        last = k;
    }
    free(all);
    return count;
}
