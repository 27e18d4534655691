/*
 * always/all and always/iall: all-to-alls of doubles over concurrent
 * subcommunicators, one source built twice (ALWAYS_NONBLOCKING picks
 * MPI_Ialltoall with one MPI_Waitall after the inner loop). The loops are
 * the seed program's:
 *   outer:  subcommunicators of targetSize = world .. 1 ranks (halving)
 *   middle: countMax = SIZE / targetSize doubles per peer; a warm-up of one
 *           call of countMax, then calls = 1, 2, 4, ... while calls < countMax,
 *           each call of count = countMax / calls; a row of 2 or more calls
 *           that takes longer than the time limit is the block's last
 *   inner:  the calls, back to back, call k on the pieces at
 *           k * targetSize * count of both buffers
 * countMax and the layout come from targetSize on every rank, never from the
 * size of a rank's own communicator: every rank runs the same rows, so the
 * world barrier and reductions of each row match where a communicator is
 * smaller than targetSize. Every row's data are checked, outside its timing.
 * One optional positional argument: the total message size per task in doubles.
 *
 * Test hook: COMMSWEEP_ROWS_FILE=PREFIX makes every rank write the rows it
 * ran and checked to PREFIX.RANK, so that tests can compare the loops of all
 * ranks: "block TARGET" per block, then "warmup|timed TARGET CALLS COUNT".
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "a2a.h"
#include "harness.h"
#include "msg.h"
#include "report.h"
#include "subcomm.h"
#include "watchdog.h"

#ifndef ALWAYS_NONBLOCKING
#error "build with -DALWAYS_NONBLOCKING=0 (always/all) or 1 (always/iall)"
#endif

#define ALWAYS_DEFAULT_SIZE ((size_t)640 * 640 * 640)
#define ALWAYS_DEFAULT_LIMIT 1.0
#define MIB ((double)(1u << 20))
#define GIB ((double)(1u << 30))

#define ALWAYS_SIZE_HELP                                                                   \
    "  SIZE  total message size per task in doubles (default 640*640*640;\n"                 \
    "        <= 0 means default)"

static const char *const partition_names[] = {"contiguous", "strided", NULL};

struct always_config {
    size_t total;      /* doubles per task */
    double time_limit; /* a row of 2 or more calls that takes longer ends a block */
    double timeout;    /* --timeout: seconds a row may take (0: no limit) */
    int memory;        /* enum buf_memory */
    int partition;     /* index in partition_names */
    bool topology;
    bool staging;
    enum buf_where where;
};

static void parse(int argc, char **argv, struct always_config *c)
{
    *c = (struct always_config){ALWAYS_DEFAULT_SIZE, ALWAYS_DEFAULT_LIMIT, 0.0, BUF_MEM_HOST,
                                0, false, false, BUF_HOST};
    const struct opt_spec specs[] = {
        BUF_MEMORY_OPT(&c->memory),
        BUF_STAGING_OPT(&c->staging),
        {.long_name = "time-limit", .kind = OPT_DOUBLE, .dest = &c->time_limit,
         .max = OPT_SECONDS_MAX, .metavar = "SECONDS",
         .help = "stop a block after a row of 2 or more calls that takes longer (default 1)"},
        {.long_name = "partition", .kind = OPT_CHOICE, .dest = &c->partition,
         .metavar = "contiguous|strided", .help = "how ranks are grouped (default contiguous)",
         .choices = partition_names},
        {.long_name = "topology", .kind = OPT_FLAG, .dest = &c->topology,
         .help = "print each rank's host, cores, NUMA node and GPU as # lines"},
        WATCHDOG_OPT(&c->timeout),
    };
    const struct opt_usage usage = {
        "[options] [SIZE]",
        ALWAYS_NONBLOCKING
            ? "MPI_Ialltoall calls, one MPI_Waitall per size, over concurrent subcommunicators.\n"
              ALWAYS_SIZE_HELP
            : "Blocking MPI_Alltoall calls over concurrent subcommunicators.\n" ALWAYS_SIZE_HELP,
        true, false, "always",
        "the calls of each size are timed as one stretch: there are no per-call times", NULL};
    int pos = opt_parse_or_exit(argc, argv, specs, sizeof specs / sizeof specs[0], &usage);
    if (argc - pos > 1)
        err_usage("too many arguments: '%s' (only SIZE; try --help)", argv[pos + 1]);
    if (argc - pos == 1)
        c->total = opt_positional_or_exit(argv[pos], "size", SIZE_MAX / sizeof(double) / 2,
                                          ALWAYS_DEFAULT_SIZE);
    c->where = buf_memory_setup((enum buf_memory)c->memory, c->staging);
    watchdog_name_step("row");
    watchdog_configure(c->timeout);
}

/* One block: the communicators of one target size and what its rows share. */
struct always_block {
    const struct always_config *c;
    struct subcomm sub;
    size_t target;    /* targetSize: the count and the layout come from it */
    size_t count_max; /* doubles per peer of the warm-up and the one-call row */
    struct buf *send, *recv;
    MPI_Request *reqs; /* iall: one per call */
    size_t reqs_cap;
};

/* The test hook's file (COMMSWEEP_ROWS_FILE), NULL when it is off. */
static FILE *rows_file;
static char rows_name[4096];

static void rows_file_open(void)
{
    const char *prefix = getenv("COMMSWEEP_ROWS_FILE");
    if (!prefix || !*prefix)
        return;
    snprintf(rows_name, sizeof rows_name, "%s.%d", prefix, harness.rank);
    rows_file = fopen(rows_name, "w");
    err_any(MPI_COMM_WORLD, !rows_file, ERR_STATUS_USAGE, "COMMSWEEP_ROWS_FILE: cannot write %s",
            rows_name);
}

/* Starts `calls` all-to-alls of count doubles per peer, call k on the pieces
 * at k * target * count of the buffers, and completes them. */
static void exchange(struct always_block *blk, size_t calls, size_t count)
{
    struct msg_type mt;
    if (msg_type_make(count, MPI_DOUBLE, &mt))
        err_fatal("cannot describe %zu doubles as an MPI datatype", count);
    size_t stride = count * blk->target;
    /* --staging: the calls' send data leaves the device first, and their
     * received data goes back once they are complete. */
    buf_stage_out(blk->send, 0, calls * stride * sizeof(double));
    for (size_t k = 0; k < calls; k++) {
        const double *s = (const double *)buf_mpi(blk->send) + k * stride;
        double *r = (double *)buf_mpi(blk->recv) + k * stride;
        if (ALWAYS_NONBLOCKING)
            MPI_CHECK(MPI_Ialltoall(s, mt.count, mt.type, r, mt.count, mt.type, blk->sub.comm,
                                    &blk->reqs[k]));
        else
            MPI_CHECK(MPI_Alltoall(s, mt.count, mt.type, r, mt.count, mt.type, blk->sub.comm));
    }
    if (ALWAYS_NONBLOCKING) {
        /* Waitall takes an int count: complete very long inner loops in parts. */
        for (size_t done = 0; done < calls; done += INT_MAX / 2) {
            size_t n = calls - done < INT_MAX / 2 ? calls - done : INT_MAX / 2;
            MPI_CHECK(MPI_Waitall((int)n, blk->reqs + done, MPI_STATUSES_IGNORE));
        }
    }
    buf_stage_in(blk->recv, 0, calls * stride * sizeof(double));
    msg_type_free(&mt);
}

/* Time of one inner loop: from a common start to the last rank's finish,
 * known to every rank so that all take the same stopping decision. */
static double timed_exchange(struct always_block *blk, bool warmup, size_t calls,
                             size_t count)
{
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    double t0 = timing_now();
    watchdog_enter(warmup ? 0 : 1);
    exchange(blk, calls, count);
    watchdog_leave();
    double local = timing_now() - t0, slowest;
    timing_allmax(&local, &slowest, 1, MPI_COMM_WORLD);
    return slowest;
}

/* The data of one row, checked by every rank together: a failure ends all
 * of them with status 1 and one line. */
static void check_row(struct always_block *blk, bool warmup, size_t calls, size_t count)
{
    a2a_corrupt_if_asked(blk->recv, A2A_DOUBLE, harness.rank);
    const struct a2a_layout layout = {calls, count * blk->target, count, blk->sub.size,
                                      blk->sub.rank, blk->sub.world_of};
    struct a2a_failure f;
    bool bad = a2a_check(blk->recv, A2A_DOUBLE, &layout, &f) != 0;
    err_check(MPI_COMM_WORLD, bad,
              "data check failed: rank %d, %s of %zu tasks, %zu calls of count %zu: call %zu, "
              "element %zu from communicator rank %zu is %.0f, expected %.0f",
              harness.rank, warmup ? "warm-up" : "row", blk->target, calls, count, f.call,
              f.element, f.peer, f.got, f.want);
}

/* JSON: a row per size, and one per block for its warm-up (phase). The
 * calls of a size are timed once together: one iteration. */
static void declare_table(void)
{
    report_table("always", "time_s", REPORT_LOWER_BETTER, NULL);
    report_key("phase", REPORT_UNIT_TEXT);
    report_key("tasks", REPORT_UNIT_COUNT);
    report_key("calls", REPORT_UNIT_COUNT);
    report_key("count", REPORT_UNIT_COUNT);
    report_value("mib_per_call", REPORT_UNIT_MIB);
    report_value("gib_total", REPORT_UNIT_GIB);
    report_value("time_s", REPORT_UNIT_S);
    report_value("gibps_task", REPORT_UNIT_GIB_S);
}

/* The seed's columns: tasks = targetSize, and the bytes of a call are those
 * of the send and the receive buffer, 2 * targetSize * count doubles. */
static void print_line(bool warmup, size_t target, size_t calls, size_t count, double time)
{
    double bytes_per_call = 2.0 * (double)target * (double)count * sizeof(double);
    double total_gib = bytes_per_call * (double)calls / GIB;
    out_line("%s%8zu %10zu %12zu %14.6e %14.6e %14.6e %14.6e", warmup ? "# warm-up: " : "",
             target, calls, count, bytes_per_call / MIB, total_gib, time, total_gib / time);
    report_row_begin("always");
    report_row_string("phase", warmup ? "warmup" : "timed");
    report_row_size("tasks", target);
    report_row_size("calls", calls);
    report_row_size("count", count);
    report_row_double("mib_per_call", bytes_per_call / MIB);
    report_row_double("gib_total", total_gib);
    report_row_double("time_s", time);
    report_row_double("gibps_task", total_gib / time);
    report_row_iterations(NULL, 1, NULL);
    report_row_end();
}

/* One row: calls all-to-alls of count, timed together, then their data
 * checked. Returns the time (the same on every rank). */
static double run_row(struct always_block *blk, bool warmup, size_t calls, size_t count)
{
    if (ALWAYS_NONBLOCKING && calls > blk->reqs_cap) {
        MPI_Request *more = realloc(blk->reqs, calls * sizeof *more);
        err_any(MPI_COMM_WORLD, !more, ERR_STATUS_FAIL, "cannot allocate %zu requests", calls);
        blk->reqs = more;
        blk->reqs_cap = calls;
    }
    /* What the calls write is poisoned first, so that no row passes its
     * check on what an earlier row left there. */
    struct buf span = buf_view(blk->recv, 0, calls * count * blk->target * sizeof(double));
    buf_set_bytes(&span, 0xFF);
    /* A row is one step: its calls, timed as one stretch, and its check. */
    watchdog_arm(NULL, "%s of %zu tasks, %zu calls of count %zu", warmup ? "warm-up" : "row",
                 blk->target, calls, count);
    double time = timed_exchange(blk, warmup, calls, count);
    check_row(blk, warmup, calls, count);
    watchdog_disarm();
    if (rows_file)
        fprintf(rows_file, "%s %zu %zu %zu\n", warmup ? "warmup" : "timed", blk->target, calls,
                count);
    print_line(warmup, blk->target, calls, count, time);
    return time;
}

/* The middle loop, as the seed's program runs it. */
static void run_rows(struct always_block *blk)
{
    size_t count_max = blk->count_max;
    if (count_max == 0) {
        out_comment("no call: countMax = %zu doubles / %zu tasks = 0 doubles per peer",
                    blk->c->total, blk->target);
        return;
    }
    run_row(blk, true, 1, count_max);
    if (count_max == 1)
        out_comment("no timed row: countMax = 1, and the calls double only while below it");
    for (size_t calls = 1; calls < count_max; calls *= 2) {
        double time = run_row(blk, false, calls, count_max / calls);
        /* The one-call row never ends a block: it is the first timed one. */
        if (calls >= 2 && time > blk->c->time_limit)
            break;
    }
}

static void run_block(const struct always_config *c, size_t target, struct buf *send,
                      struct buf *recv)
{
    struct always_block blk = {.c = c, .target = target, .count_max = c->total / target,
                               .send = send, .recv = recv};
    subcomm_open((int)target, c->partition == 1, &blk.sub);
    if (!report_jsonl()) /* the JSON table has the names */
        out_comment("%6s %10s %12s %14s %14s %14s %14s", "tasks", "calls", "count",
                    "MiB_per_call", "GiB_total", "time_s", "GiBps_task");
    if (rows_file)
        fprintf(rows_file, "block %zu\n", target);
    run_rows(&blk);
    free(blk.reqs);
    subcomm_close(&blk.sub);
}

int main(int argc, char **argv)
{
    harness_init(&argc, &argv, MPI_THREAD_SINGLE);
    struct always_config c;
    parse(argc, argv, &c);

    out_header(ALWAYS_NONBLOCKING ? "Always: MPI_Ialltoall over concurrent subcommunicators"
                                  : "Always: MPI_Alltoall over concurrent subcommunicators",
               argc, argv);
    out_comment("size: %zu doubles per task (%.3f GiB per buffer), time limit: %g s, "
                "partition: %s, buffers: %s",
                c.total, (double)c.total * sizeof(double) / GIB, c.time_limit,
                partition_names[c.partition], buf_where_label(c.where));
    out_comment("time: from a common start to the last rank's finish of all the calls; "
                "as the seed counts: MiB_per_call = 2 * tasks * count * 8 / 2^20 (send and "
                "receive buffers, tasks = targetSize), GiB_total = calls * MiB_per_call / 1024, "
                "GiBps_task = GiB_total / time_s");
    report_header_string("buffers", buf_where_label(c.where));
    report_validation(true);
    declare_table();
    if (c.topology)
        topo_report(MPI_COMM_WORLD);
    buf_print_device_header(&c.where, 1);
    rows_file_open();

    struct buf send, recv;
    buf_alloc_all(&send, c.total * sizeof(double), c.where, MPI_COMM_WORLD);
    buf_alloc_all(&recv, c.total * sizeof(double), c.where, MPI_COMM_WORLD);
    a2a_fill(&send, c.total, A2A_DOUBLE, harness.rank);

    size_t targets[64];
    size_t ntargets = sweep_halving((size_t)harness.size, targets, 64);
    for (size_t t = 0; t < ntargets; t++)
        run_block(&c, targets[t], &send, &recv);

    if (rows_file) {
        errno = 0;
        err_write_check(rows_file, rows_name); /* ends the run with status 4 on a failure */
        fclose(rows_file);
    }
    buf_free(&send);
    buf_free(&recv);
    harness_finish(ERR_STATUS_OK);
}
