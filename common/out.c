/* out: rank-0 output, flushed per line; see out.h. */
#include "out.h"

#include <errno.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "mpistart.h"
#include "report.h"
#include "runinfo.h"
#include "version.h"
#include "watchdog.h"

static bool printer = true;

/* The comment lines held for after the table (out_hold_begin). */
static struct {
    bool holding, dropping;
    char *text;
    size_t used, cap;
} held;

void out_set_printer(bool is_printer) { printer = is_printer; }

/* Every write ends here. errno is cleared before each line: a line that
 * fails in printf leaves only the error flag, and errno says why. */
static void line_written(void) { err_write_check(stdout, ERR_STDOUT_NAME); }
bool out_is_printer(void) { return printer; }

/* Writes a comment line to stdout, or keeps it while lines are held. */
static void comment_put(const char *line)
{
    if (held.holding && held.dropping)
        return;
    if (!held.holding) {
        errno = 0;
        printf("# %s\n", line);
        line_written();
        return;
    }
    size_t need = held.used + strlen(line) + 4;
    if (need > held.cap) {
        size_t cap = held.cap ? held.cap : 4096;
        while (cap < need)
            cap *= 2;
        char *grown = realloc(held.text, cap);
        if (!grown)
            err_fatal("cannot keep %zu bytes of header lines", cap);
        held.text = grown;
        held.cap = cap;
    }
    held.used += (size_t)sprintf(held.text + held.used, "# %s\n", line);
}

static void release_at_exit(int status)
{
    (void)status;
    out_release_held();
}

void out_hold_begin(bool print_later)
{
    if (!printer || report_jsonl())
        return;
    held.holding = true;
    held.dropping = !print_later;
    err_at_exit(release_at_exit);
}

void out_hold_end(void) { held.holding = false; }

void out_release_held(void)
{
    held.holding = false;
    if (!held.used)
        return;
    errno = 0;
    fputs(held.text, stdout);
    line_written();
    held.used = 0;
}

void out_line(const char *fmt, ...)
{
    if (!printer || report_jsonl())
        return;
    va_list ap;
    va_start(ap, fmt);
    errno = 0;
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    line_written();
}

void out_comment(const char *fmt, ...)
{
    if (!printer)
        return;
    va_list ap;
    va_start(ap, fmt);
    char *text = NULL;
    int n = vasprintf(&text, fmt, ap);
    va_end(ap);
    if (n < 0)
        err_fatal("cannot format a comment line");
    if (report_jsonl())
        report_note(text);
    else
        comment_put(text);
    free(text);
}

void out_block_end(void)
{
    if (!printer || report_jsonl())
        return;
    errno = 0;
    fputs("\n\n", stdout);
    line_written();
}

void out_title(const char *title) { out_title_version(title, NULL); }

void out_title_version(const char *title, const char *version)
{
    report_header_string("title", title);
    if (!printer || report_jsonl())
        return;
    errno = 0;
    if (version)
        printf("# %s %s (commsweep %s)\n", title, version, COMMSWEEP_VERSION);
    else
        printf("# %s (commsweep %s)\n", title, COMMSWEEP_VERSION);
    line_written();
}

void out_header(const char *title, int argc, char **argv)
{
    out_title(title);
    out_header_details(argc, argv);
}

/* The command, date, ranks and MPI lines (jsonl: the header has these
 * already, from report_environment). */
static void print_run_lines(int argc, char **argv)
{
    int size;
    MPI_Comm_size(mpistart_comm(), &size);
    if (!printer || report_jsonl())
        return;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING + 1], date[64];
    runinfo_mpi_library(lib, sizeof lib);
    runinfo_date(date, sizeof date);

    size_t len = sizeof "command:";
    for (int i = 0; i < argc; i++)
        len += strlen(argv[i]) + 1;
    char *command = malloc(len);
    if (!command)
        err_fatal("cannot allocate %zu bytes for the command line", len);
    size_t used = (size_t)sprintf(command, "command:");
    for (int i = 0; i < argc; i++)
        used += (size_t)sprintf(command + used, " %s", argv[i]);
    comment_put(command);
    free(command);
    out_comment("date: %s", date);
    out_comment("ranks: %d", size);
    out_comment("mpi: %s", lib);
}

void out_header_details(int argc, char **argv)
{
    print_run_lines(argc, argv);
    /* Said once here for every program with --timeout; in jsonl a note,
     * as the environment of the header does not hold it. */
    if (watchdog_seconds() > 0 && watchdog_not_enforced())
        out_comment("timeout: %g s per %s, not enforced: %s", watchdog_seconds(),
                    watchdog_step_noun(), watchdog_not_enforced());
    else if (watchdog_seconds() > 0)
        out_comment("timeout: a %s that takes longer than %g s ends the run with status %d",
                    watchdog_step_noun(), watchdog_seconds(), WATCHDOG_STATUS);
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
