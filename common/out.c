/* out: rank-0 output, flushed per line; see out.h. */
#include "out.h"

#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "err.h"
#include "mpistart.h"
#include "report.h"
#include "runinfo.h"
#include "version.h"

static bool printer = true;

void out_set_printer(bool is_printer) { printer = is_printer; }
bool out_is_printer(void) { return printer; }

void out_line(const char *fmt, ...)
{
    if (!printer || report_jsonl())
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
    if (report_jsonl()) {
        char text[2048];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(text, sizeof text, fmt, ap);
        va_end(ap);
        report_note(text);
        return;
    }
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
    if (!printer || report_jsonl())
        return;
    fputs("\n\n", stdout);
    fflush(stdout);
}

void out_title(const char *title)
{
    report_header_string("title", title);
    if (!printer || report_jsonl())
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
    MPI_Comm_size(mpistart_comm(), &size);
    /* jsonl: the header has these already (report_environment). */
    if (!printer || report_jsonl())
        return;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING + 1], date[64];
    runinfo_mpi_library(lib, sizeof lib);
    runinfo_date(date, sizeof date);

    printf("# command:");
    for (int i = 0; i < argc; i++)
        printf(" %s", argv[i]);
    printf("\n# date: %s\n# ranks: %d\n# mpi: %s\n", date, size, lib);
    fflush(stdout);
}

void out_comment_per_rank(MPI_Comm comm, const char *label, const char *json_key,
                          const char *text, size_t len)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    char *mine = calloc(1, len);
    char *all = rank == 0 ? malloc((size_t)size * len) : NULL;
    if (!mine || (rank == 0 && !all))
        err_fatal("cannot allocate %d lines of %zu bytes for a per-rank report", size, len);
    snprintf(mine, len, "%s", text);
    MPI_CHECK(MPI_Gather(mine, (int)len, MPI_CHAR, all, (int)len, MPI_CHAR, 0, comm));
    for (int r = 0; rank == 0 && r < size; r++)
        out_comment("rank %d%s: %s", r, label, all + (size_t)r * len);
    if (rank == 0 && report_jsonl() && json_key) {
        const char **each = malloc((size_t)size * sizeof *each);
        if (!each)
            err_fatal("cannot allocate a list of %d ranks", size);
        for (int r = 0; r < size; r++)
            each[r] = all + (size_t)r * len;
        report_header_strings(json_key, each, (size_t)size);
        free(each);
    }
    free(all);
    free(mine);
}
