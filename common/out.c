/* out: rank-0 output, flushed per line; see out.h. */
#include "out.h"

#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "version.h"

static bool printer = true;

void out_set_printer(bool is_printer) { printer = is_printer; }
bool out_is_printer(void) { return printer; }

void out_line(const char *fmt, ...)
{
    if (!printer)
        return;
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

void out_comment(const char *fmt, ...)
{
    if (!printer)
        return;
    va_list ap;
    va_start(ap, fmt);
    fputs("# ", stdout);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

void out_block_end(void)
{
    if (!printer)
        return;
    fputs("\n\n", stdout);
    fflush(stdout);
}

void out_title(const char *title)
{
    if (!printer)
        return;
    printf("# %s (commsweep %s)\n", title, COMMSWEEP_VERSION);
    fflush(stdout);
}

void out_header(const char *title, int argc, char **argv)
{
    out_title(title);
    out_header_details(argc, argv);
}

void out_header_details(int argc, char **argv)
{
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (!printer)
        return;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(lib, &len);
    for (int i = 0; i < len; i++)
        if (lib[i] == '\n' || lib[i] == '\r')
            lib[i] = ' ';
    while (len > 0 && lib[len - 1] == ' ')
        lib[--len] = '\0';
    char date[64];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S%z", localtime(&now));

    printf("# command:");
    for (int i = 0; i < argc; i++)
        printf(" %s", argv[i]);
    printf("\n# date: %s\n# ranks: %d\n# mpi: %.*s\n", date, size, len, lib);
    fflush(stdout);
}
