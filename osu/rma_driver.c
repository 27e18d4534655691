/* rma_driver: options, sweep, timing and output of the one-sided programs;
 * see rma_driver.h. */
#include "rma_driver.h"

#include <stdio.h>

#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "osu_compat.h"
#include "osu_defaults.h"
#include "report.h"
#include "rma_data.h"
#include "rma_run.h"
#include "watchdog.h"


/* Times of the timed iterations of one size on this rank. */
struct rma_times {
    double total; /* seconds */
    double min, max; /* per iteration, -f */
};

/* The seed spells the option "-no-hints"; getopt would read it as letters. */
static void accept_seed_spelling(int argc, char **argv)
{
    static char long_form[] = "--no-hints";
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "-no-hints") == 0)
            argv[i] = long_form;
}

/* -T: the types of the sweeps. MPI_Compare_and_swap takes no floating-point
 * type, so there "all" leaves MPI_FLOAT out and mpi_float is refused. */
static void choose_types(struct rma_run *r, const struct rma_bench *b, int choice)
{
    const struct rma_op *op = b->op;
    r->ntypes = 0;
    if (!b->omb_types) {
        r->types[r->ntypes++] = op->type;
        return;
    }
    if (choice < RMA_OMB_TYPES && !rma_op_takes(op, (enum rma_type)choice))
        err_usage("-T %s: %s takes integer types only (MPI standard); use mpi_char or mpi_int",
                  rma_type_choices[choice], op->call);
    for (int t = 0; t < RMA_OMB_TYPES; t++)
        if ((choice == t || choice == RMA_OMB_TYPES) && rma_op_takes(op, (enum rma_type)t))
            r->types[r->ntypes++] = (enum rma_type)t;
}

/* The largest element of the sweeps' types, in bytes. */
static size_t largest_elem(const struct rma_run *r)
{
    size_t most = 1;
    for (size_t t = 0; t < r->ntypes; t++) {
        size_t size = rma_type_elem(r->types[t]).size;
        most = size > most ? size : most;
    }
    return most;
}

/* -m given to fetch-and-op or compare-and-swap: MAX bytes, for the note
 * after the table (0: not given). */
static size_t one_element_max;

/* -m against the operation: one element of each type for fetch-and-op and
 * compare-and-swap (OMB 7.4 takes -m there and only sizes its memory with
 * MAX: so here the buffers, and the window made once, hold MAX bytes, at
 * least the largest element), whole elements for the bandwidth programs. */
static void check_sizes(struct rma_run *r, const struct rma_bench *b)
{
    const struct rma_op *op = b->op;
    size_t elem = largest_elem(r);
    if (op->one_element) {
        if (r->opts.min_size != b->prog.min_size || r->opts.max_size != b->prog.max_size)
            one_element_max = r->opts.max_size;
        /* Buffers and the -M cap count the largest element at least. */
        r->opts.min_size = elem;
        r->opts.max_size = one_element_max > elem ? one_element_max : elem;
    }
    /* Latency programs follow OMB 7.4's rule: a size carries its whole
     * elements (sizes below one element are skipped); the bandwidth slots
     * must stay element-aligned, so there sizes are whole elements. */
    if (r->opts.min_size % elem && b->shape != RMA_SHAPE_LATENCY)
        err_usage("message sizes must be multiples of the %zu-byte element: minimum %zu is not",
                  elem, r->opts.min_size);
}

static void parse(struct rma_run *r, const struct rma_bench *b, int argc, char **argv)
{
    /* -1: not given, settled by the defaults in force after parsing. */
    int win = -1, sync = -1, lock = -1, type = RMA_TYPE_CHAR, memory = -1;
    static const char *const lock_names[] = {"shared", "exclusive", NULL};
    bool no_hints = false;
    char sync_help[160];
    rma_mode_sync_help(&b->rules, b->default_sync, b->omb.in_omb ? (int)b->omb.sync : -1,
                       sync_help, sizeof sync_help);
    struct opt_spec extra[] = {
        {.long_name = "window-creation", .short_name = 'w', .kind = OPT_CHOICE, .dest = &win,
         .metavar = "KIND",
         .help = "create (MPI_Win_create; the seed's default), allocate (MPI_Win_allocate; "
                 "OMB 7.4's) or dynamic (MPI_Win_create_dynamic)",
         .choices = rma_win_names},
        {.long_name = "sync", .short_name = 's', .kind = OPT_CHOICE, .dest = &sync,
         .metavar = "MODE", .help = sync_help, .choices = rma_sync_names},
        {.long_name = "no-hints", .short_name = 'n', .kind = OPT_FLAG, .dest = &no_hints,
         .help = "no alloc_shm info hint for the window memory (also -no-hints)"},
        {.long_name = "lock-type", .kind = OPT_CHOICE, .dest = &lock, .metavar = "shared|exclusive",
         .help = "lock of -s lock (default: the program's, see osu/README.md)",
         .choices = lock_names},
        osu_tail_option(&r->tail),
        {.long_name = "win-per-size", .kind = OPT_FLAG, .dest = &r->win_per_size,
         .help = "create the window again for every size, of size x window bytes (OMB 7.4's "
                 "default; the seed's: once, at the largest size)"},
        {.long_name = "win-memory", .kind = OPT_CHOICE, .dest = &memory,
         .metavar = "alloc_mem|malloc",
         .help = "memory of -w create and dynamic windows: alloc_mem (MPI_Alloc_mem, the "
                 "seed's) or malloc (page-aligned, touched, OMB 7.4's)",
         .choices = rma_win_memory_names},
        osu_compat_graph_option(),
        {0},
        {0},
        {.long_name = "type", .short_name = 'T', .kind = OPT_CHOICE, .dest = &type,
         .metavar = "mpi_char|mpi_int|mpi_float|all",
         .help = b->op->integers_only
                     ? "element type (default mpi_char); all: one sweep with each integer type"
                     : "element type (default mpi_char); all: one sweep with each",
         .choices = rma_type_choices},
    };
    extra[8] = osu_alias(&extra[0], "win-options");
    extra[9] = osu_alias(&extra[1], "sync-option");
    size_t nextra = sizeof extra / sizeof extra[0] - (b->omb_types ? 0 : 1);
    accept_seed_spelling(argc, argv);
    osu_parse(&r->opts, &b->prog, argc, argv, extra, nextra);
    if (r->opts.first_positional < argc)
        err_usage("unexpected argument '%s' (try --help)", argv[r->opts.first_positional]);
    bool omb = b->omb.in_omb && !osu_seed_defaults();
    if (omb)
        r->win_per_size = true;
    bool device = r->opts.where[0] != BUF_HOST || r->opts.where[1] != BUF_HOST;
    /* MPI_Win_allocate gives host memory: device buffers take OMB's other
     * window, as its help says allocate is not for them. */
    r->win_kind = (enum rma_win_kind)(win >= 0                               ? win
                                      : omb && !(device && b->omb.win == RMA_WIN_ALLOCATE)
                                          ? (int)b->omb.win
                                          : RMA_WIN_CREATE);
    r->sync = (enum rma_sync)(sync >= 0 ? sync : omb ? (int)b->omb.sync : (int)b->default_sync);
    r->hints = !no_hints;
    r->memory = (enum rma_win_memory)(memory >= 0 ? memory
                                      : omb     ? RMA_MEM_MALLOC
                                                : RMA_MEM_ALLOC_MEM);
    r->lock_shared = lock >= 0 ? lock == 0 : omb ? !b->omb.exclusive_lock : b->shared_lock;

    if (r->opts.staging)
        err_usage("--staging: one-sided programs have no staged mode (a window is read by the "
                  "peer's MPI, not copied by this rank)");
    char why[256];
    if (rma_mode_check(&b->rules, r->sync, r->win_kind, device, why, sizeof why))
        err_usage("%s", why);
    if (r->opts.full && b->shape != RMA_SHAPE_LATENCY)
        err_usage("-f applies to the latency programs only");
    choose_types(r, b, type);
    check_sizes(r, b);
    if (harness.size != 2)
        err_usage("needs exactly 2 processes (got %d)", harness.size);
}

/* Who does what in one iteration (see rma_driver.h for the shapes). */
static void plan_roles(struct rma_run *r)
{
    bool first = r->rank == 0, active = rma_sync_is_active(r->sync);
    r->epochs = 1;
    if (r->bench->shape == RMA_SHAPE_BIBANDWIDTH) {
        r->roles[0] = RMA_ROLE_BOTH;
        r->was_origin = r->was_target = true;
    } else if (r->bench->shape == RMA_SHAPE_LATENCY && active) {
        r->epochs = 2;
        r->roles[0] = first ? RMA_ROLE_ORIGIN : RMA_ROLE_TARGET;
        r->roles[1] = first ? RMA_ROLE_TARGET : RMA_ROLE_ORIGIN;
        r->was_origin = r->was_target = true;
    } else {
        r->roles[0] = first ? RMA_ROLE_ORIGIN : active ? RMA_ROLE_TARGET : RMA_ROLE_IDLE;
        r->was_origin = first;
        r->was_target = !first;
    }
}

/* The names OMB 7.4 prints for a window creation and a synchronization. */
static const char *const omb_win_names[] = {"MPI_Win_create", "MPI_Win_allocate",
                                            "MPI_Win_create_dynamic"};
static const char *omb_sync_name(enum rma_sync s)
{
    switch (s) {
    case RMA_SYNC_PSCW: return "MPI_Win_post/start/complete/wait";
    case RMA_SYNC_FENCE: return "MPI_Win_fence";
    case RMA_SYNC_LOCK: return "MPI_Win_lock/unlock";
    case RMA_SYNC_LOCK_ALL: return "MPI_Win_lock_all/unlock_all";
    case RMA_SYNC_FLUSH: return "MPI_Win_flush";
    default: return "MPI_Win_flush_local";
    }
}

/* OMB 7.4's lines after its title for a sweep of type t, each ended by a
 * newline. */
static void omb_lines(const struct rma_run *r, enum rma_type t, char *text, size_t len)
{
    int n = snprintf(text, len, "# Window creation: %s\n# Synchronization: %s\n",
                     omb_win_names[r->win_kind], omb_sync_name(r->sync));
    if (r->bench->omb.no_datatype && !osu_seed_defaults())
        return; /* the type is in our description (describe_operation) */
    snprintf(text + n, len - (size_t)n, "# Datatype: %s.\n", rma_type_name(t));
}

/* "MPI_SIGNED_CHAR, MPI_INT": the MPI types of the sweeps, as the library
 * names them. */
static void mpi_type_list(const struct rma_run *r, char *text, size_t len)
{
    size_t used = 0;
    text[0] = '\0';
    for (size_t t = 0; t < r->ntypes && used < len; t++) {
        char name[MPI_MAX_OBJECT_NAME];
        int n = 0;
        MPI_CHECK(MPI_Type_get_name(rma_type_mpi(r->types[t]), name, &n));
        used += (size_t)snprintf(text + used, len - used, "%s%s", t ? ", " : "", name);
    }
}

/* Our lines on the operation and its elements. */
static void describe_operation(const struct rma_run *r)
{
    const struct rma_op *op = r->op;
    const char *swap = r->epochs == 2 ? ", origin and target swap after every epoch" : "";
    if (r->types[0] == RMA_TYPE_BYTE) {
        out_comment("operation: %s%s", op->call, swap);
        return;
    }
    char types[256];
    mpi_type_list(r, types, sizeof types);
    out_comment("operation: %s%s%s%s on %s elements%s%s", op->call, op->mpi_op ? " (" : "",
                op->mpi_op ? op->mpi_op : "", op->mpi_op ? ")" : "", types,
                r->ntypes > 1 ? ", one sweep each" : "", swap);
    if (r->bench->omb_types && r->types[0] == RMA_TYPE_CHAR)
        out_comment("-T mpi_char: MPI_SIGNED_CHAR, the same bytes in a type that %s takes "
                    "(MPI_CHAR is none)",
                    op->mpi_op ? op->mpi_op : op->call);
    if (r->ntypes > 1 && r->ntypes < RMA_OMB_TYPES)
        out_comment("-T all: no MPI_FLOAT sweep, %s takes integer types only", op->call);
}

static void print_preamble(const struct rma_run *r, int argc, char **argv)
{
    char omb[256];
    omb_lines(r, r->types[0], omb, sizeof omb);
    osu_print_preamble(&r->opts, &r->bench->prog, argc, argv, NULL, omb);
    bool device = r->opts.where[0] != BUF_HOST || r->opts.where[1] != BUF_HOST;
    char text[256];
    rma_window_describe(r->win_kind, r->memory, r->hints, device, text, sizeof text);
    out_comment("window creation: %s; %s", text,
                r->win_per_size ? "a window of size x window bytes for every size (outside "
                                  "the timing)"
                                : "one window, at the largest size, for all sizes");
    if (r->sync == RMA_SYNC_LOCK)
        out_comment("synchronization: lock (MPI_Win_lock %s/MPI_Win_unlock per epoch)",
                    r->lock_shared ? "shared" : "exclusive");
    else
        out_comment("synchronization: %s", rma_sync_describe(r->sync));
    describe_operation(r);
}

/* Before each sweep of -T all after the first, OMB 7.4's header again:
 * the title (with OMB's version under its defaults; the seed's print it in
 * the first title alone), its lines, then the columns. */
static void print_sweep_header(const struct rma_run *r)
{
    char omb[256];
    omb_lines(r, r->type, omb, sizeof omb);
    omb[strlen(omb) - 1] = '\0';
    bool version = !osu_seed_defaults() && !r->bench->prog.not_in_omb;
    out_comment("%s%s", r->bench->prog.title, version ? " " OSU_OMB_VERSION : "");
    out_line("%s", omb);
}

static void print_columns(const struct rma_run *r)
{
    static const char *const latency[] = {"Latency (us)"};
    static const char *const bandwidth[] = {"Bandwidth (MB/s)"};
    static const char *const full[] = {"Min Latency(us)", "Max Latency(us)", "Iterations"};
    bool lat = r->bench->shape == RMA_SHAPE_LATENCY;
    char tail_names[OSU_NTAIL][32];
    const char *tails[OSU_NTAIL];
    osu_tail_names(lat, tail_names);
    for (size_t k = 0; k < OSU_NTAIL; k++)
        tails[k] = tail_names[k];
    osu_print_columns_trailing(&r->opts, lat ? latency : bandwidth, 1, full, 3, tails,
                               r->tail ? OSU_NTAIL : 0);
}

/* The window (bytes of window memory) and its synchronization state. */
static void open_window(struct rma_run *r, size_t bytes)
{
    enum buf_where where = osu_where_for_rank(&r->opts, r->rank, 2);
    rma_window_open(&r->window, r->win_kind, r->memory, bytes, where, r->hints, r->rank,
                    r->peer, harness.comm);
    rma_sync_init(&r->epoch, r->sync, r->window.win, r->peer, r->rank == 0, harness.comm);
    r->epoch.lock_type = r->lock_shared ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE;
    r->xfer.base = r->window.peer_base;
    r->xfer.win = r->window.win;
    r->win_open = true;
}

static void allocate(struct rma_run *r)
{
    size_t per_op = r->opts.max_size;
    size_t bytes = per_op * r->slots;
    enum buf_where where = osu_where_for_rank(&r->opts, r->rank, 2);
    buf_alloc_all(&r->origin, bytes, where, harness.comm);
    buf_zero(&r->origin);
    if (r->op->fetches) {
        buf_alloc_all(&r->result, bytes, where, harness.comm);
        buf_zero(&r->result);
    }
    if (!r->win_per_size)
        open_window(r, bytes);
    rma_data_alloc(r, bytes);
    r->xfer.origin = r->origin.ptr;
    r->xfer.result = r->result.ptr;
    r->xfer.compare = &r->compare;
    r->xfer.peer = r->peer;
}

static void close_window(struct rma_run *r)
{
    if (!r->win_open)
        return;
    rma_sync_free(&r->epoch);
    rma_window_close(&r->window);
    r->win_open = false;
}

static void release(void *arg)
{
    struct rma_run *r = arg;
    rma_data_free(r);
    close_window(r);
    buf_free(&r->result);
    buf_free(&r->origin);
}

static void run_epoch(struct rma_run *r, enum rma_role role)
{
    rma_sync_begin(&r->epoch, role);
    if (role == RMA_ROLE_ORIGIN || role == RMA_ROLE_BOTH)
        for (size_t s = 0; s < r->slots; s++)
            r->op->issue(&r->xfer, s);
    rma_sync_end(&r->epoch, role);
}

/* -c between iterations, untimed: the data must be complete at the target
 * before it looks, and both ranks resume together. */
static void validate_between(struct rma_run *r, size_t it)
{
    rma_sync_settle(&r->epoch);
    MPI_CHECK(MPI_Barrier(harness.comm));
    rma_data_check(r, it);
    rma_data_prepare(r, it + 1);
    MPI_CHECK(MPI_Barrier(harness.comm));
}

/* Iterations it .. it + n - 1, counted from the first warm-up one; the
 * timed ones (from r->warmup on) are added to t. Without -c, -f, -z,
 * --stats, --samples and --precision a stretch of them is timed as one;
 * with them each iteration is timed on its own (one clock read more per
 * iteration) so checks stay outside the time. */
static void run_iterations(struct rma_run *r, size_t from, size_t n, struct rma_times *t)
{
    bool validate = r->opts.validate;
    bool per_iteration = validate || r->opts.full || r->iteration_times;
    double start = timing_now();
    for (size_t it = from; it < from + n; it++) {
        double begin = per_iteration ? timing_now() : 0;
        rma_sync_iteration(&r->epoch);
        for (size_t e = 0; e < r->epochs; e++)
            run_epoch(r, r->roles[e]);
        if (!per_iteration)
            continue;
        double took = timing_now() - begin;
        if (it >= r->warmup) {
            if (r->iteration_times)
                r->iteration_times[it - r->warmup] = took;
            t->total += took;
            t->min = took < t->min ? took : t->min;
            t->max = took > t->max ? took : t->max;
        }
        if (validate)
            validate_between(r, it);
    }
    if (!per_iteration && from >= r->warmup)
        t->total += timing_now() - start;
}

struct rma_batch {
    struct rma_run *r;
    struct rma_times *t;
};

static void run_batch(void *arg, size_t first, size_t n)
{
    struct rma_batch *a = arg;
    run_iterations(a->r, a->r->warmup + first, n, a->t);
}

/* The warm-up, then floor timed iterations or, with --precision, batches
 * until precise (rank 0's times decide: its figure is the row's). Returns
 * the timed iterations. */
static size_t measure(struct rma_run *r, size_t floor, size_t cap, struct rma_times *t,
                      struct precision_result *precision)
{
    t->total = 0;
    t->min = DBL_MAX;
    t->max = 0;
    if (r->opts.validate) {
        rma_data_setup(r);
        rma_data_prepare(r, 0);
    }
    MPI_CHECK(MPI_Barrier(harness.comm));
    rma_sync_open(&r->epoch);
    run_iterations(r, 0, r->warmup, t);
    struct rma_batch batch = {r, t};
    size_t iters = precision_measure(floor, cap, r->iteration_times, r->rank == 0,
                                     PRECISION_MEAN, harness.comm, run_batch, &batch, precision);
    rma_sync_close(&r->epoch);
    MPI_CHECK(MPI_Barrier(harness.comm));
    return iters;
}

/* rank 0's iterations as latencies or bandwidths: the values of -z,
 * --stats and --samples. */
static void iteration_values(struct rma_run *r, size_t iters)
{
    if (!r->iteration_times)
        return;
    double directions = r->bench->shape == RMA_SHAPE_BIBANDWIDTH ? 2.0 : 1.0;
    double bytes = (double)r->size * (double)r->slots * directions;
    for (size_t i = 0; i < iters; i++) {
        double took = r->iteration_times[i];
        r->iteration_times[i] = r->bench->shape == RMA_SHAPE_LATENCY
                                    ? took * 1e6 / (double)r->epochs
                                    : osu_mb_per_s(bytes, took);
    }
}

/* -z: OMB's percentiles of rank 0's iteration values. */
static void add_tail(struct rma_run *r, size_t iters, struct osu_row *row)
{
    if (!r->tail)
        return;
    double tail[OSU_NTAIL];
    osu_tail_values(r->iteration_times, iters, tail);
    for (size_t k = 0; k < OSU_NTAIL; k++)
        osu_row_trailing(row, tail[k]);
}

/* The row of one size; under -c a wrong buffer on either rank makes it
 * "Fail" and ends the program with status 1 and one message. */
static void print_row(struct rma_run *r, size_t iters, const struct rma_times *t,
                      const struct precision_result *precision)
{
    struct osu_row row;
    osu_row_begin(&row, r->size);
    if (r->bench->shape == RMA_SHAPE_LATENCY) {
        double per = 1e6 / (double)r->epochs;
        osu_row_value(&row, t->total * per / (double)iters);
        if (r->opts.full) {
            osu_row_value(&row, t->min * per);
            osu_row_value(&row, t->max * per);
            osu_row_count(&row, iters);
        }
    } else {
        double directions = r->bench->shape == RMA_SHAPE_BIBANDWIDTH ? 2.0 : 1.0;
        double bytes = (double)r->size * (double)r->slots * (double)iters * directions;
        osu_row_value(&row, osu_mb_per_s(bytes, t->total));
    }
    iteration_values(r, iters);
    osu_row_measured(&row, iters, report_per_iteration() ? r->iteration_times : NULL);
    osu_row_precision(&row, precision);
    add_tail(r, iters, &row);
    const struct rma_failure *f = &r->first_failure;
    osu_row_end_checked(&row, r->opts.validate, r->failed_checks > 0, release, r,
                        "validation failed at message size %zu: rank %d found %s wrong at "
                        "element %zu in iteration %zu of %zu (warm-up included); wrong "
                        "buffers in all: %zu",
                        r->size, r->rank, f->what, f->element, f->iteration, r->warmup + iters,
                        r->failed_checks);
}

static void run_size(struct rma_run *r, size_t size)
{
    const struct rma_bench *b = r->bench;
    size_t elem = r->elem.size;
    r->size = size;
    r->elems = r->slots * (size / elem);
    r->xfer.elem = rma_type_mpi(r->type);
    if (msg_type_make(size / elem, r->xfer.elem, &r->xfer.type))
        err_fatal("cannot describe a message of %zu bytes", size);
    r->xfer.size = size;
    size_t floor, cap;
    osu_precision_counts(&r->opts, &b->prog, size, &floor, &cap);
    r->warmup = osu_warmup(&r->opts, &b->prog, size);
    r->failed_checks = 0;
    /* A zero-byte size still gets a window of one element. */
    if (r->win_per_size)
        open_window(r, (size ? size : elem) * r->slots);
    struct rma_times t;
    watchdog_arm(NULL, "size %zu", size);
    watchdog_enter_phase("the warm-up and timed iterations");
    struct precision_result precision;
    size_t iters = measure(r, floor, cap, &t, &precision);
    watchdog_leave();
    watchdog_disarm();
    msg_type_free(&r->xfer.type);
    print_row(r, iters, &t, &precision);
    if (r->win_per_size)
        close_window(r);
}

static size_t next_size(size_t size, size_t elem)
{
    return size ? size * 2 : elem;
}

/* The sizes of one element type: fetch-and-op and compare-and-swap one
 * element, the others the -m range in whole elements, as OMB 7.4 (sizes
 * below one element are left out, size 0 is kept). */
static void sweep(struct rma_run *r)
{
    size_t elem = r->elem.size;
    if (r->op->one_element) {
        run_size(r, elem);
        return;
    }
    for (size_t size = r->opts.min_size; size <= r->opts.max_size; size = next_size(size, elem)) {
        if (size == 0 || size >= elem)
            run_size(r, size);
        if (size > SIZE_MAX / 2)
            break;
    }
}

/* OMB 7.4's atomics end a -c run with a block per rank; the verdict is
 * ours: a run gets here only when every rank's checks of every sweep
 * passed. */
static void print_atomics_report(const struct rma_run *r)
{
    static const char rule[] = "-------------------------------------------";
    for (int rank = 0; rank < harness.size; rank++) {
        out_line("%s", rule);
        out_line("Atomic Data Validation results for Rank=%d:", rank);
        out_line("PASSED: All %zu combinations of ops and datatypes tested passed.", r->ntypes);
        out_line("%s", rule);
    }
}

_Noreturn void rma_main(const struct rma_bench *b, int argc, char **argv)
{
    struct rma_run r;
    memset(&r, 0, sizeof r);
    r.bench = b;
    r.op = b->op;
    parse(&r, b, argc, argv); /* osu_parse starts MPI */
    r.rank = harness.rank;
    r.peer = 1 - r.rank;
    r.slots = b->shape == RMA_SHAPE_LATENCY ? 1 : r.opts.window;
    r.corrupt = rma_data_corrupts(&r);
    plan_roles(&r);

    bool atomics_report = r.opts.validate && b->omb.atomics_report && !osu_seed_defaults();
    if (atomics_report)
        osu_validation_words("passed", "failed");
    print_preamble(&r, argc, argv);
    size_t buffers = (b->op->fetches ? 3 : 2) * r.slots;
    if (!osu_cap_to_memory(&r.opts, buffers))
        err_usage("even %zu-byte messages need more than the memory limit of %zu bytes (-M)",
                  r.opts.min_size, r.opts.mem_limit);
    allocate(&r);
    if (r.tail || report_per_iteration() || precision_on()) {
        size_t floor, small, large;
        osu_precision_counts(&r.opts, &b->prog, 0, &floor, &small);
        osu_precision_counts(&r.opts, &b->prog, SIZE_MAX, &floor, &large);
        size_t most = small > large ? small : large;
        /* calloc: most * 8 may overflow (-i takes any count). */
        r.iteration_times = calloc(most, sizeof *r.iteration_times);
        err_any(harness.comm, !r.iteration_times, ERR_STATUS_USAGE,
                "cannot allocate the times of %zu iterations (-z, --stats)", most);
    }
    for (size_t t = 0; t < r.ntypes; t++) {
        r.type = r.types[t];
        r.elem = rma_type_elem(r.type);
        if (t > 0)
            print_sweep_header(&r);
        osu_fields_datatype(rma_type_name(r.type));
        print_columns(&r);
        sweep(&r);
    }
    if (one_element_max)
        out_comment("-m: %s works on one element of the -T type, one row each, as in OMB 7.4, "
                    "where -m only sizes the memory (here: buffers of %zu bytes)",
                    r.op->call, r.opts.max_size);
    if (atomics_report) /* every rank's checks passed, or the run ended at the first failure */
        print_atomics_report(&r);
    osu_compat_notes(NULL);
    release(&r);
    free(r.iteration_times);
    harness_finish(ERR_STATUS_OK);
}
