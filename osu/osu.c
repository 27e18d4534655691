/* osu: shared options, defaults and output of the OSU-style programs. */
#include "osu.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "devmem.h"
#include "osu_defaults.h"
#include "report.h"
#include "stats.h"
#include "watchdog.h"

/* Index = enum buf_memory; OMB spells HIP "rocm" and host "none". */
const char *const osu_device_names[] = {"none", "cuda", "rocm", "openacc", "managed", NULL};

static int parse_range(const char *arg, void *dest, char *err, size_t errlen)
{
    struct osu_opts *o = dest;
    size_t lo = o->min_size, hi = o->max_size;
    if (opt_to_range(arg, "size range", &lo, &hi, err, errlen))
        return -1;
    o->min_size = lo;
    o->max_size = hi;
    return 0;
}

/* One rank's placement letter: H host, D device (the -d memory; managed on
 * the device with -d managed), MH / MD managed preferred on host / device. */
static enum buf_where placement(const char *a, enum buf_where dev, bool *host_for_d)
{
    if (strcasecmp(a, "H") == 0)
        return BUF_HOST;
    if (strcasecmp(a, "D") == 0 && !devmem_vendor()) {
        /* OMB 7.4 built without GPU support takes D and uses host memory;
         * frameworks' device checks run so on CPU builds. Said, not hidden. */
        *host_for_d = true;
        return BUF_HOST;
    }
    if (strcasecmp(a, "D") == 0)
        return dev == BUF_MANAGED_DEVICE ? dev : BUF_DEVICE;
    if (strcasecmp(a, "MH") == 0 || strcasecmp(a, "MD") == 0) {
        /* Taken together, as every device verdict (buf.h). */
        err_any_rank(mpistart_comm(), !devmem_has_managed(), ERR_STATUS_USAGE,
                     "placement %s: managed memory needs a build with CUDA=1 or HIP=1", a);
        return a[1] == 'H' || a[1] == 'h' ? BUF_MANAGED_HOST : BUF_MANAGED_DEVICE;
    }
    err_usage("invalid buffer placement '%s': use H (host), D (device), MH or MD (managed, "
              "preferred on host or device)", a);
}

/* The buffers of a program whose library reads and writes them
 * (struct osu_offload): device memory of every rank, without -d as with
 * the build's own, as OMB 7.4 forces its accelerator; managed memory
 * (-d managed) cannot stand in for it. MPI never reads them, so only the
 * device is required, whatever MPI can read, and nothing is staged. */
static void offload_buffers(struct osu_opts *o, enum buf_where dev)
{
    if (dev == BUF_MANAGED_DEVICE)
        err_usage("-d managed: the library's calls read and write device memory only (-d %s, "
                  "or no -d)",
                  osu_device_names[devmem_api() == DEVMEM_API_HIP ? BUF_MEM_HIP : BUF_MEM_CUDA]);
    if (o->staging)
        err_usage("--staging: the library reads and writes the device buffers itself, MPI "
                  "never does, so there is nothing to stage");
    for (int r = 0; r < OSU_MAX_PLACEMENT; r++)
        o->where[r] = BUF_DEVICE;
    buf_require_device();
}

void osu_parse(struct osu_opts *o, const struct osu_program *p, int argc, char **argv,
               const struct opt_spec *extra, size_t nextra)
{
    memset(o, 0, sizeof *o);
    o->min_size = p->min_size;
    o->max_size = p->max_size;
    o->warmup = SIZE_MAX;
    o->mem_limit = OSU_DEFAULT_MEM_LIMIT;
    o->window = 0; /* -W takes no 0: still 0 after parsing means not given */

    struct opt_spec base[] = {
        {.long_name = "message-size", .short_name = 'm', .kind = OPT_CUSTOM, .dest = o,
         .metavar = "[MIN:]MAX", .help = "message sizes from MIN to MAX bytes, doubling",
         .parse = parse_range},
        {.long_name = "iterations", .short_name = 'i', .kind = OPT_SIZE, .dest = &o->iterations,
         .metavar = "N", .help = "timed iterations per size (default depends on size)",
         .min = 1},
        {.long_name = "warmup", .short_name = 'x', .kind = OPT_SIZE, .dest = &o->warmup,
         .metavar = "N", .help = "warm-up iterations per size (default depends on size)"},
        {.long_name = "mem-limit", .short_name = 'M', .kind = OPT_SIZE, .dest = &o->mem_limit,
         .metavar = "BYTES", .help = "memory limit per process (default 536870912)", .min = 1},
        {.long_name = "full", .short_name = 'f', .kind = OPT_FLAG, .dest = &o->full,
         .help = "print min, max and iteration count too"},
        {.long_name = "validation", .short_name = 'c', .kind = OPT_FLAG, .dest = &o->validate,
         .help = "check received data, add a Validation column"},
        {.long_name = "accelerator", .short_name = 'd', .kind = OPT_CHOICE,
         .dest = &o->device_kind, .metavar = "cuda|rocm|openacc|managed",
         .help = "device buffers (the vendor of this build, or CUDA/HIP managed memory)",
         .choices = osu_device_names},
        BUF_STAGING_OPT(&o->staging),
        {.long_name = "window-size", .short_name = 'W', .kind = OPT_SIZE, .dest = &o->window,
         .metavar = "N", .help = "messages in flight per iteration", .min = 1, .max = 1u << 20},
    };
    size_t nbase = sizeof base / sizeof base[0];
    if (!p->default_window)
        nbase--; /* -W is last: only programs with a window take it */
    bool start_here = !harness_started();
    struct opt_spec all[nbase + nextra + PRECISION_NOPTIONS + 1];
    memcpy(all, base, nbase * sizeof base[0]);
    if (nextra)
        memcpy(all + nbase, extra, nextra * sizeof extra[0]);
    size_t nall = nbase + nextra;
    precision_options(all + nall);
    nall += PRECISION_NOPTIONS;
    if (start_here)
        all[nall++] = osu_session_option(&o->session);
    struct opt_usage usage = {p->synopsis ? p->synopsis : "[options]", p->description, false,
                              true, "osu", NULL, NULL};
    int pos = osu_parse_and_start(argc, argv, all, nall, &usage, p->thread_level, &o->session);

    precision_settle(NULL);
    buf_set_staging(o->staging);
    o->window_set = o->window != 0;
    if (!o->window_set)
        o->window = p->default_window;
    char spelled[32];
    snprintf(spelled, sizeof spelled, "-d %s", osu_device_names[o->device_kind]);
    enum buf_where dev = buf_memory_where((enum buf_memory)o->device_kind, spelled);
    for (int r = 0; r < OSU_MAX_PLACEMENT; r++)
        o->where[r] = dev;
    if (p->placement && pos < argc) {
        if (argc - pos != OSU_MAX_PLACEMENT)
            err_usage("give buffer placement for both ranks (H|D|MH|MD H|D|MH|MD), or none "
                      "(try --help)");
        for (int r = 0; r < OSU_MAX_PLACEMENT; r++) {
            if (p->offload && strcasecmp(argv[pos + r], "D") != 0)
                err_usage("placement %s: the library's calls read and write device memory "
                          "only: D D, or none",
                          argv[pos + r]);
            o->where[r] = placement(argv[pos + r], dev, &o->host_for_d);
        }
        pos += OSU_MAX_PLACEMENT;
    }
    o->first_positional = pos;
    /* The test hook: the frameworks' own command lines, whose default
     * sweeps run thousands of iterations, in a few seconds. */
    const char *hook = getenv("COMMSWEEP_TEST_ITERATIONS");
    char why[128];
    if (hook && *hook &&
        opt_to_size(hook, "COMMSWEEP_TEST_ITERATIONS", 1, 1000000, &o->test_iterations, why,
                    sizeof why))
        err_usage("%s", why);
    if (o->min_size > o->max_size)
        err_usage("minimum message size %zu is above maximum %zu", o->min_size, o->max_size);
    if (p->offload) {
        offload_buffers(o, dev);
        return;
    }
    for (int r = 0; r < OSU_MAX_PLACEMENT; r++)
        buf_require(o->where[r]);
}

struct opt_spec osu_session_option(bool *on)
{
    return (struct opt_spec){
        .long_name = "session", .short_name = 'I', .kind = OPT_FLAG, .dest = on,
        .help = mpistart_sessions_missing()
                    ? "start MPI in an MPI session: not in this MPI library (refused)"
                    : "start MPI in an MPI session (MPI_Session_init, process set mpi://WORLD)"};
}

_Static_assert(MPI_THREAD_SINGLE == 0, "a program that sets no thread_level asks for SINGLE");

int osu_parse_and_start(int argc, char **argv, const struct opt_spec *specs, size_t nspecs,
                        const struct opt_usage *usage, int thread_level, const bool *session)
{
    /* Every OSU program takes --defaults and --timeout after its own
     * options (OMB 7.4 has no --timeout). */
    static double timeout;
    struct opt_spec all[nspecs + 3];
    if (nspecs)
        memcpy(all, specs, nspecs * sizeof specs[0]);
    all[nspecs++] = osu_defaults_option();
    all[nspecs++] = osu_describe_option();
    all[nspecs++] = (struct opt_spec)WATCHDOG_OPT(&timeout);
    watchdog_name_step("size");
    if (harness_started()) {
        int pos = opt_parse_or_exit(argc, argv, all, nspecs, usage);
        osu_defaults_settle();
        watchdog_configure(timeout);
        return pos;
    }
    /* Nothing can be printed once per job before MPI runs: the verdict waits
     * until it does. */
    harness_prepare(argv);
    struct opt_result result;
    opt_parse(argc, argv, all, nspecs, usage, &result);
    bool in_session = session && *session && !mpistart_sessions_missing();
    harness_start(&argc, &argv, thread_level, in_session ? MPISTART_SESSION : MPISTART_WORLD);
    int pos = opt_result_or_exit(&result, all, nspecs, usage);
    if (session && *session && !in_session)
        err_usage("-I: %s", mpistart_sessions_missing());
    osu_defaults_settle();
    watchdog_configure(timeout);
    return pos;
}

struct opt_spec osu_alias(const struct opt_spec *of, const char *long_name)
{
    struct opt_spec a = *of;
    a.long_name = long_name;
    a.short_name = 0;
    a.help = "OMB 7.4's name of the option above";
    return a;
}

enum buf_where osu_where_for_rank(const struct osu_opts *o, int rank, int nranks)
{
    return o->where[rank < (nranks + 1) / 2 ? 0 : 1];
}

/* At most COMMSWEEP_TEST_ITERATIONS (a test hook: command lines kept as
 * given, -i and -x included, run in seconds). */
static size_t capped(const struct osu_opts *o, size_t n)
{
    return o->test_iterations && n > o->test_iterations ? o->test_iterations : n;
}

size_t osu_iterations(const struct osu_opts *o, const struct osu_program *p, size_t size)
{
    if (o->iterations)
        return capped(o, o->iterations);
    return capped(o, size > p->large_threshold ? p->iter_large : p->iter_small);
}

size_t osu_warmup(const struct osu_opts *o, const struct osu_program *p, size_t size)
{
    if (o->warmup != SIZE_MAX)
        return capped(o, o->warmup);
    return capped(o, size > p->large_threshold ? p->warm_large : p->warm_small);
}

bool osu_cap_to_memory(struct osu_opts *o, size_t buffers_per_size)
{
    if (buffers_per_size == 0)
        return true;
    size_t limit = o->mem_limit / buffers_per_size;
    if (o->max_size <= limit)
        return true;
    size_t cap = 0;
    for (size_t s = o->min_size; s <= limit; s = s ? s * 2 : 1) {
        cap = s;
        if (s > SIZE_MAX / 2)
            break;
    }
    if (o->min_size > limit) {
        return false;
    }
    out_comment("warning: maximum message size lowered from %zu to %zu bytes to stay within "
                "the memory limit of %zu bytes per process (-M)",
                o->max_size, cap, o->mem_limit);
    if (out_is_printer()) /* OMB warns on stderr; scripts that read stdout see the '#' line */
        fprintf(stderr, "warning: maximum message size lowered from %zu to %zu bytes to stay "
                "within the memory limit of %zu bytes per process (-M)\n",
                o->max_size, cap, o->mem_limit);
    o->max_size = cap;
    return true;
}

/* Prints text line by line (each line ended by a newline); in JSON the
 * lines become notes. */
static void print_lines(const char *text)
{
    while (text && *text) {
        const char *end = strchr(text, '\n');
        int n = end ? (int)(end - text) : (int)strlen(text);
        if (report_jsonl() && n > 0) { /* OMB's lines without a '#' are notes too */
            int skip = text[0] != '#' ? 0 : n > 1 && text[1] == ' ' ? 2 : 1;
            out_comment("%.*s", n - skip, text + skip);
        } else {
            out_line("%.*s", n, text);
        }
        text += n + (end ? 1 : 0);
    }
}

void osu_print_preamble(const struct osu_opts *o, const struct osu_program *p, int argc,
                        char **argv, const char *before, const char *omb)
{
    if (p->offload)
        print_lines(p->offload->omb_line());
    print_lines(before);
    if (!p->no_blank_line)
        out_line("%s", "");
    osu_print_title(p->title, !p->not_in_omb);
    print_lines(omb);
    osu_print_details(argc, argv);
    char buffers[128];
    if (p->placement)
        snprintf(buffers, sizeof buffers, "%s on %s, %s on %s",
                 p->placement_who[0] ? p->placement_who[0] : "rank 0",
                 buf_where_label(o->where[0]),
                 p->placement_who[1] ? p->placement_who[1] : "rank 1",
                 buf_where_label(o->where[1]));
    else
        snprintf(buffers, sizeof buffers, "%s", buf_where_label(o->where[0]));
    if (o->host_for_d && harness.rank == 0) /* once the run is sure to start */
        err_print("D: this build has no device support (make CUDA=1, HIP=1 or OPENACC=1): "
                  "those buffers are on the host, as in OMB 7.4 built without it");
    out_comment("buffers: %s%s", buffers,
                o->host_for_d ? " (D asked: this build has no device support, so host, as "
                                "OMB 7.4 built without it)"
                              : "");
    report_header_string("buffers", buffers);
    report_validation(o->validate);
    if (o->iterations)
        out_comment("iterations: %zu", o->iterations);
    else
        out_comment("iterations: %zu up to %zu bytes, %zu above", p->iter_small,
                    p->large_threshold, p->iter_large);
    if (o->warmup != SIZE_MAX)
        out_comment("warm-up iterations: %zu", o->warmup);
    else
        out_comment("warm-up iterations: %zu up to %zu bytes, %zu above", p->warm_small,
                    p->large_threshold, p->warm_large);
    precision_describe("each size", "mean",
                       "the first batch a tenth of the default count (at least 10; with -i "
                       "all of it), at most ten times that count");
    if (o->test_iterations)
        out_comment("test hook COMMSWEEP_TEST_ITERATIONS: at most %zu iterations and warm-up "
                    "iterations, whatever -i and -x say",
                    o->test_iterations);
    if (p->default_window)
        out_comment("window: %zu", o->window);
    out_comment("validation: %s", o->validate ? "on" : "off");
    if (p->offload) /* its device lines: MPI never reads these buffers */
        p->offload->describe();
    else
        buf_print_device_header(o->where, p->placement ? OSU_MAX_PLACEMENT : 1);
}

static void print_session_line(void)
{
    if (mpistart_model() == MPISTART_SESSION)
        out_comment("MPI start: MPI_Session_init, communicator from the process set %s (-I)",
                    MPISTART_PSET);
}

void osu_print_title(const char *title, bool in_omb)
{
    report_header_string("defaults", osu_defaults_name());
    if (osu_seed_defaults()) {
        out_title(title);
        return;
    }
    /* The version of the OMB test this is, where the frameworks' version
     * patterns read it; then only OMB's own lines until the table. */
    out_title_version(title, in_omb ? OSU_OMB_VERSION : NULL);
    out_hold_begin(osu_describe());
}

void osu_print_details(int argc, char **argv)
{
    out_header_details(argc, argv);
    if (osu_seed_defaults())
        out_comment("defaults: the seed's (--defaults=seed or COMMSWEEP_DEFAULTS=seed)");
    else
        out_comment("defaults: OMB 7.4's (--defaults=seed or COMMSWEEP_DEFAULTS=seed for the "
                    "seed's); this run description follows the table (--describe)");
    print_session_line();
}


/* Headings printed under another name (osu_heading_alias). */
#define MAX_ALIASES 8
static struct {
    char name[48], printed[48];
} aliases[MAX_ALIASES];
static size_t naliases;

void osu_heading_alias(const char *name, const char *printed)
{
    size_t i = 0;
    while (i < naliases && strcmp(aliases[i].name, name) != 0)
        i++;
    if (i == MAX_ALIASES)
        err_fatal("osu: more than %d heading aliases", MAX_ALIASES);
    snprintf(aliases[i].name, sizeof aliases[i].name, "%s", name);
    snprintf(aliases[i].printed, sizeof aliases[i].printed, "%s", printed);
    naliases += i == naliases;
}

static const char *printed_name(const char *name)
{
    for (size_t i = 0; i < naliases; i++)
        if (strcmp(aliases[i].name, name) == 0)
            return aliases[i].printed;
    return name;
}

/* A column heading: OSU_WIDTH wide, the Iterations column OSU_ITER_WIDTH. */
static void heading(struct osu_row *r, const char *name)
{
    name = printed_name(name);
    if (strcmp(name, "Iterations") == 0)
        r->used += (size_t)snprintf(r->text + r->used, sizeof r->text - r->used, "%*s",
                                    OSU_ITER_WIDTH, name);
    else
        osu_row_text(r, name);
}

/* The value columns of a table: the program's, then -f's. */
static size_t value_columns(const struct osu_opts *o, const char *const *columns,
                            size_t ncolumns, const char *const *full_columns, size_t nfull,
                            const char **all)
{
    size_t n = 0;
    for (size_t i = 0; i < ncolumns && n < OSU_MAX_FIELDS; i++)
        all[n++] = columns[i];
    for (size_t i = 0; o->full && i < nfull && n < OSU_MAX_FIELDS; i++)
        all[n++] = full_columns[i];
    return n;
}

/* --stats: the spread of the first column, in its unit, after everything. */
static void spread_headings(struct osu_row *r)
{
    const struct osu_field *main = osu_fields_value(0);
    if (!report_stats() || !main)
        return;
    static const char *const names[] = {"Median", "P5", "P95"};
    for (size_t k = 0; k < 3; k++) {
        char text[40];
        snprintf(text, sizeof text, "%s(%s)", names[k], main->unit);
        osu_row_text(r, text);
    }
    osu_row_text(r, "CV(%)");
    osu_row_text(r, "First/Median");
    if (straggler_enabled()) {
        osu_row_text(r, "SlowestRank");
        osu_row_text(r, "AboveMedian(%)");
        osu_row_text(r, "SlowestHost");
    }
    if (!precision_on())
        return;
    osu_row_text(r, "Iters");
    osu_row_text(r, "CI95(%)");
    osu_row_text(r, "Reached");
}

/* The JSON table of the rows, once: its fields, and --stats' slowest rank
 * where the rows name one. */
static void declare_table(bool sized, const char *const *values, size_t nvalues,
                          bool validation, const char *const *trailing, size_t ntrailing)
{
    bool fresh = !report_has_table("osu");
    osu_fields_declare(sized, values, nvalues, validation, trailing, ntrailing);
    if (!fresh || !report_has_table("osu"))
        return;
    if (report_stats() && straggler_enabled()) {
        report_value("slowest_rank", REPORT_UNIT_COUNT);
        report_value("slowest_above_median_pct", REPORT_UNIT_PERCENT);
        report_value("slowest_host", REPORT_UNIT_TEXT);
    }
    if (report_stats())
        report_value("first_over_median", REPORT_UNIT_RATIO);
    if (precision_on()) {
        report_value("ci95_pct", REPORT_UNIT_PERCENT);
        report_value("precision_reached", REPORT_UNIT_BOOL);
    }
}

void osu_print_columns_trailing(const struct osu_opts *o, const char *const *columns,
                                size_t ncolumns, const char *const *full_columns, size_t nfull,
                                const char *const *trailing, size_t ntrailing)
{
    const char *values[OSU_MAX_FIELDS];
    size_t nvalues = value_columns(o, columns, ncolumns, full_columns, nfull, values);
    declare_table(true, values, nvalues, o->validate, trailing, ntrailing);
    out_hold_end();
    if (report_jsonl())
        return;
    struct osu_row r;
    osu_row_begin(&r, 0);
    r.used = (size_t)snprintf(r.text, sizeof r.text, "%-*s", OSU_SIZE_WIDTH, "# Size");
    for (size_t i = 0; i < nvalues; i++)
        heading(&r, values[i]);
    if (o->validate)
        osu_row_text(&r, "Validation");
    for (size_t i = 0; i < ntrailing; i++)
        heading(&r, trailing[i]);
    spread_headings(&r);
    osu_row_end(&r);
}

void osu_print_columns(const struct osu_opts *o, const char *const *columns, size_t ncolumns,
                       const char *const *full_columns, size_t nfull)
{
    osu_print_columns_trailing(o, columns, ncolumns, full_columns, nfull, NULL, 0);
}

const int osu_tail_percent[OSU_NTAIL] = {50, 90, 99};

struct opt_spec osu_tail_option(bool *on)
{
    return (struct opt_spec){.long_name = "tail-lat", .short_name = 'z', .kind = OPT_FLAG,
                             .dest = on,
                             .help = "add OMB's P50, P90 and P99 columns of single iterations"};
}

struct opt_spec osu_validation_warmup_option(size_t *n)
{
    return (struct opt_spec){.long_name = "validation-warmup", .short_name = 'u',
                             .kind = OPT_SIZE, .dest = n, .metavar = "N",
                             .help = "with -c: N untimed calls before each timed one (default 0)",
                             .max = 1000000};
}

void osu_tail_values(double *values, size_t n, double out[OSU_NTAIL])
{
    stats_sort(values, n);
    for (size_t k = 0; k < OSU_NTAIL; k++) {
        size_t at = (size_t)((double)n * osu_tail_percent[k] / 100.0 + 0.5);
        out[k] = n ? values[at > 0 ? at - 1 : 0] : 0.0;
    }
}

void osu_tail_names(bool latency, char names[OSU_NTAIL][32])
{
    for (size_t k = 0; k < OSU_NTAIL; k++)
        snprintf(names[k], sizeof names[k], latency ? "P%d Tail Lat(us)" : "P%d Tail BW(MB/s)",
                 osu_tail_percent[k]);
}

void osu_print_columns_unsized(const struct osu_opts *o, const char *const *columns,
                               size_t ncolumns, const char *const *full_columns, size_t nfull,
                               const char *const *trailing, size_t ntrailing)
{
    const char *values[OSU_MAX_FIELDS];
    size_t n = value_columns(o, columns, ncolumns, full_columns, nfull, values);
    if (n == 0)
        return;
    declare_table(false, values, n, false, trailing, ntrailing);
    out_hold_end();
    if (report_jsonl())
        return;
    struct osu_row r;
    osu_row_begin(&r, 0);
    r.used = (size_t)snprintf(r.text, sizeof r.text, "# %s", printed_name(values[0]));
    for (size_t i = 1; i < n; i++)
        heading(&r, values[i]);
    for (size_t i = 0; i < ntrailing; i++)
        heading(&r, trailing[i]);
    spread_headings(&r);
    osu_row_end(&r);
}

/* Appends to text[0..cap) at *used; a full buffer keeps what it has. */
static void append_to(char *text, size_t cap, size_t *used, const char *fmt, va_list ap)
{
    if (*used >= cap)
        return;
    *used += (size_t)vsnprintf(text + *used, cap - *used, fmt, ap);
}

static void row_append(struct osu_row *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void row_append(struct osu_row *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    append_to(r->text, sizeof r->text, &r->used, fmt, ap);
    va_end(ap);
}

static void row_reset(struct osu_row *r)
{
    r->used = 0;
    r->text[0] = '\0';
    r->first_width = 0;
    r->trailing_used = 0;
    r->nvalues = r->ntrailing = 0;
    r->has_spread = false;
    r->straggler.known = false;
    r->precision.on = false;
    report_row_begin("osu");
}
void osu_row_begin(struct osu_row *r, size_t size)
{
    row_reset(r);
    row_append(r, "%-*zu", OSU_SIZE_WIDTH, size);
    report_row_size("size_bytes", size);
}
void osu_row_begin_unsized(struct osu_row *r, const char *first_heading)
{
    row_reset(r);
    r->first_width = (int)strlen(first_heading) + 2;
}

/* The JSON field of the next value (trailing: of the next trailing one);
 * NULL in text, where there is none to write. */
static const struct osu_field *next_field(struct osu_row *r, bool trailing)
{
    if (!report_row_open())
        return NULL;
    const struct osu_field *f =
        trailing ? osu_fields_trailing(r->ntrailing++) : osu_fields_value(r->nvalues++);
    if (!f)
        err_fatal("osu: a row has more values than its table has columns");
    return f;
}

static void json_number(struct osu_row *r, bool trailing, double v)
{
    const struct osu_field *f = next_field(r, trailing);
    if (f)
        report_row_double(f->name, v);
}
static int next_width(struct osu_row *r)
{
    int w = r->first_width ? r->first_width : OSU_WIDTH;
    r->first_width = 0;
    return w;
}
void osu_row_value(struct osu_row *r, double v)
{
    row_append(r, "%*.2f", next_width(r), v);
    json_number(r, false, v);
}
void osu_row_count(struct osu_row *r, size_t v)
{
    row_append(r, "%*zu", OSU_ITER_WIDTH, v);
    /* The Iterations column is the "iterations" field osu_row_measured writes. */
    const struct osu_field *f = next_field(r, false);
    if (f && strcmp(f->name, "iterations") != 0)
        report_row_size(f->name, v);
}
void osu_row_text(struct osu_row *r, const char *s) { row_append(r, "%*s", OSU_WIDTH, s); }
static void trailing_append(struct osu_row *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void trailing_append(struct osu_row *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    append_to(r->trailing, sizeof r->trailing, &r->trailing_used, fmt, ap);
    va_end(ap);
}
void osu_row_trailing(struct osu_row *r, double v)
{
    trailing_append(r, "%*.2f", OSU_WIDTH, v);
    json_number(r, true, v);
}
void osu_row_trailing_count(struct osu_row *r, size_t v)
{
    trailing_append(r, "%*zu", OSU_WIDTH, v);
    const struct osu_field *f = next_field(r, true);
    if (f)
        report_row_size(f->name, v);
}
/* First over median in time: a rate column (MB/s, messages/s) is inverted,
 * so that above 1 means the first iteration was the slower one. */
static double first_ratio(double first, double median)
{
    const struct osu_field *main = osu_fields_value(0);
    bool rate = main && (strcmp(main->unit, REPORT_UNIT_MB_S) == 0 ||
                         strcmp(main->unit, REPORT_UNIT_PER_S) == 0);
    double over = rate ? median : first, under = rate ? first : median;
    return under > 0 ? over / under : NAN;
}

void osu_row_measured(struct osu_row *r, size_t iterations, const double *values)
{
    report_row_iterations(values, iterations, &r->spread);
    r->has_spread = values && report_stats();
    if (!r->has_spread)
        return;
    r->first_ratio = iterations ? first_ratio(values[0], r->spread.median) : NAN;
    if (report_row_open())
        report_row_double("first_over_median", r->first_ratio);
}

void osu_row_precision(struct osu_row *r, const struct precision_result *p)
{
    r->precision = *p;
    if (!p->on || !report_row_open())
        return;
    report_row_double("ci95_pct", p->ci_pct);
    report_row_bool("precision_reached", p->reached);
}

void osu_precision_counts(const struct osu_opts *o, const struct osu_program *p, size_t size,
                          size_t *floor, size_t *cap)
{
    size_t count = osu_iterations(o, p, size);
    *floor = precision_floor(count, o->iterations != 0);
    *cap = precision_cap(count, o->iterations != 0);
}
/* --stats: the slowest rank, how far above the median rank, its host ("-"
 * where not known), and the same as JSON fields. */
static void straggler_columns(struct osu_row *r)
{
    const struct straggler *t = &r->straggler;
    if (!t->known) {
        row_append(r, "%*s%*s%*s", OSU_WIDTH, "-", OSU_WIDTH, "-", OSU_WIDTH, "-");
        return;
    }
    row_append(r, "%*d%*.2f%*s", OSU_WIDTH, t->rank, OSU_WIDTH, t->above_pct, OSU_WIDTH,
               t->host);
    if (report_row_open()) {
        report_row_size("slowest_rank", (size_t)t->rank);
        report_row_double("slowest_above_median_pct", t->above_pct);
        report_row_string("slowest_host", t->host);
    }
}

static char *capture_into;
static size_t capture_len;

void osu_row_capture(char *text, size_t len)
{
    capture_into = text;
    capture_len = len;
}

void osu_row_end(struct osu_row *r)
{
    if (r->trailing_used)
        row_append(r, "%s", r->trailing);
    r->trailing_used = 0;
    if (r->has_spread) {
        const struct stats_dispersion *d = &r->spread;
        row_append(r, "%*.2f%*.2f%*.2f%*.2f%*.2f", OSU_WIDTH, d->median, OSU_WIDTH, d->p5,
                   OSU_WIDTH, d->p95, OSU_WIDTH, 100.0 * d->cv, OSU_WIDTH, r->first_ratio);
        if (straggler_enabled())
            straggler_columns(r);
        const struct precision_result *p = &r->precision;
        if (precision_on())
            row_append(r, "%*zu%*.2f%*s", OSU_WIDTH, p->iterations, OSU_WIDTH, p->ci_pct,
                       OSU_WIDTH, p->reached ? "yes" : "no");
    }
    r->has_spread = false;
    if (capture_into)
        snprintf(capture_into, capture_len, "%s", r->text);
    else
        out_line("%s", r->text);
    report_row_end();
}

static const char *pass_word = "Pass", *fail_word = "Fail";

void osu_validation_words(const char *pass, const char *fail)
{
    pass_word = pass;
    fail_word = fail;
}

/* The row's Validation column from the verdict of comm's ranks; returns it. */
static bool end_with_verdict(struct osu_row *r, bool failed, MPI_Comm comm)
{
    int mine = failed, any = 0;
    MPI_CHECK(MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_LOR, comm));
    osu_row_text(r, any ? fail_word : pass_word);
    if (report_row_open())
        report_row_string("validation", any ? "fail" : "pass");
    osu_row_end(r);
    return any;
}

void osu_row_end_group_checked(struct osu_row *r, bool failed, MPI_Comm group)
{
    (void)end_with_verdict(r, failed, group);
}

void osu_row_end_checked(struct osu_row *r, bool validated, bool failed,
                         void (*release)(void *arg), void *arg, const char *fmt, ...)
{
    if (!validated) {
        osu_row_end(r);
        return;
    }
    if (!end_with_verdict(r, failed, harness.comm))
        return;
    char text[768] = "";
    if (failed) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(text, sizeof text, fmt, ap);
        va_end(ap);
    }
    if (release)
        release(arg);
    err_check(harness.comm, failed, "%s", text);
}

double osu_mb_per_s(double bytes, double seconds)
{
    return seconds > 0 ? bytes / 1e6 / seconds : 0.0;
}

double osu_msg_rate(double messages, double seconds)
{
    return seconds > 0 ? messages / seconds : 0.0;
}
