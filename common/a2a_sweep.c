/* a2a_sweep: see a2a_sweep.h. */
#include "a2a_sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "a2a.h"
#include "devmem.h"
#include "err.h"
#include "harness.h"
#include "out.h"
#include "report.h"
#include "straggler.h"
#include "sweep.h"
#include "timing.h"
#include "topo.h"
#include "watchdog.h"

#define GIB ((double)(1u << 30))
#define A2A_SWEEP_MAX_STEPS 64
#define A2A_DEFAULT_ITERS 3
#define A2A_DEFAULT_COUNTHI (40 * 1024)
#define A2A_MAX_ITERS 1000000
#define A2A_MAX_OPTIONS 8

void a2a_sweep_parse(int argc, char **argv, const char *what, const struct opt_spec *extra,
                     size_t nextra, struct a2a_sweep_args *a)
{
    int memory = BUF_MEM_HOST;
    bool staging = false;
    *a = (struct a2a_sweep_args){
        {false, A2A_DEFAULT_ITERS, A2A_DEFAULT_COUNTHI, BUF_HOST, false, 0.0}, false};
    struct opt_spec specs[A2A_MAX_OPTIONS] = {
        BUF_MEMORY_OPT(&memory),
        BUF_STAGING_OPT(&staging),
        {.long_name = "topology", .kind = OPT_FLAG, .dest = &a->topology,
         .help = "print each rank's host, cores, NUMA node and GPU as # lines"},
        WATCHDOG_OPT(&a->sweep.timeout),
    };
    size_t nspecs = 4;
    for (size_t i = 0; i < nextra && nspecs < A2A_MAX_OPTIONS; i++)
        specs[nspecs++] = extra[i];
    char description[512];
    snprintf(description, sizeof description, "%s\n"
             "  PARTITION  starting with s or S: strided ranks; anything else: contiguous\n"
             "  ITERS      timed calls per count (default 3; <= 0 means default)\n"
             "  COUNTHI    longs per rank per peer at full size (default 40960; <= 0 means "
             "default)", what);
    const struct opt_usage usage = {"[options] [PARTITION [ITERS [COUNTHI]]]", description,
                                    true, false, "alltoall", NULL, NULL};
    int pos = opt_parse_or_exit(argc, argv, specs, nspecs, &usage);
    int npos = argc - pos;
    struct a2a_sweep_config *c = &a->sweep;
    if (npos > 3)
        err_usage("too many arguments: '%s' (at most PARTITION ITERS COUNTHI; try --help)",
                  argv[pos + 3]);
    if (npos >= 1)
        c->strided = argv[pos][0] == 's' || argv[pos][0] == 'S';
    if (npos >= 2)
        c->iters = opt_positional_or_exit(argv[pos + 1], "iterations", A2A_MAX_ITERS,
                                          A2A_DEFAULT_ITERS);
    /* countAll = countHi * world longs per buffer must be addressable. */
    if (npos >= 3)
        c->count_hi = opt_positional_or_exit(argv[pos + 2], "count",
                                             SIZE_MAX / sizeof(long) / (size_t)harness.size / 2,
                                             A2A_DEFAULT_COUNTHI);
    c->where = buf_memory_setup((enum buf_memory)memory, staging);
    /* Before the header, which states the limit; each count sets it
     * again, where a method has a limit of its own. */
    watchdog_name_step("count");
    watchdog_configure(c->timeout);
}

/* The JSON table of the rows; its keys say which algorithm, which split
 * into communicators and which count a row is. */
static void declare_table(void)
{
    report_table("alltoall", "time_avg_s", REPORT_LOWER_BETTER, "time_avg_s");
    report_key("algorithm", REPORT_UNIT_TEXT);
    report_key("comms", REPORT_UNIT_COUNT);
    report_key("ranks", REPORT_UNIT_COUNT);
    report_key("count", REPORT_UNIT_COUNT);
    report_value("gib_per_rank", REPORT_UNIT_GIB);
    report_value("time_min_s", REPORT_UNIT_S);
    report_value("time_avg_s", REPORT_UNIT_S);
    report_value("time_max_s", REPORT_UNIT_S);
    report_value("gibps_min", REPORT_UNIT_GIB_S);
    report_value("gibps_avg", REPORT_UNIT_GIB_S);
    report_value("gibps_max", REPORT_UNIT_GIB_S);
    report_value("warmup_s", REPORT_UNIT_S);
    report_value("fell_back", REPORT_UNIT_BOOL);
    if (!report_stats())
        return;
    report_value("slowest_rank", REPORT_UNIT_COUNT);
    report_value("slowest_above_median_pct", REPORT_UNIT_PERCENT);
    report_value("slowest_host", REPORT_UNIT_TEXT);
    report_value("slowest_comm", REPORT_UNIT_COUNT);
}

void a2a_sweep_header(const char *title, int argc, char **argv, const struct a2a_sweep_args *a)
{
    const struct a2a_sweep_config *c = &a->sweep;
    out_header(title, argc, argv);
    report_header_string("buffers", buf_where_label(c->where));
    report_validation(true);
    /* Every rank times every call: --stats names the slowest of them. */
    straggler_enable();
    declare_table();
    out_comment("partition: %s, iterations: %zu, countHi: %zu longs, countAll: %zu longs, "
                "buffers: %s",
                c->strided ? "strided" : "contiguous", c->iters, c->count_hi,
                c->count_hi * (size_t)harness.size, buf_where_label(c->where));
    out_comment("time: per iteration (one call after a world barrier) the maximum over all "
                "ranks; GiB per rank = "
                "(sendcount + recvcount) * comm_size * sizeof(long) / 2^30");
    if (a->topology)
        topo_report(MPI_COMM_WORLD);
    buf_print_device_header(&c->where, 1);
}

static void alltoall_exchange(struct a2a_ctx *ctx, size_t count)
{
    (void)count;
    const struct msg_type *mt = ctx->mt;
    MPI_CHECK(MPI_Alltoall(buf_mpi(ctx->send), mt->count, mt->type, buf_mpi(ctx->recv),
                           mt->count, mt->type, ctx->sub->comm));
}

const struct a2a_method a2a_method_alltoall = {
    .name = "alltoall",
    .describe = "MPI_Alltoall",
    .exchange = alltoall_exchange,
};

void a2a_local_copy(const struct buf *like, void *dst, const void *src,
                    const struct devmem_piece *pieces, size_t n)
{
    if (like->where == BUF_DEVICE && !like->stage) {
        /* One synchronisation after the pieces: MPI reads dst next. */
        const char *why = NULL;
        if (devmem_copy_pieces(dst, src, pieces, n, &why) != 0)
            err_fatal("device copy of %zu pieces failed: %s", n, why ? why : "?");
        return;
    }
    for (size_t i = 0; i < n; i++)
        memmove((char *)dst + pieces[i].to, (const char *)src + pieces[i].from, pieces[i].bytes);
}

/* '#' lines naming the world ranks of each communicator, so a reader (and the
 * tests) can see the pairing; only for worlds small enough to read. */
#define A2A_MEMBERS_MAX_WORLD 64
static void print_members(int color)
{
    if (harness.size > A2A_MEMBERS_MAX_WORLD)
        return;
    int colors[A2A_MEMBERS_MAX_WORLD];
    MPI_CHECK(MPI_Gather(&color, 1, MPI_INT, colors, 1, MPI_INT, 0, MPI_COMM_WORLD));
    if (!out_is_printer())
        return;
    for (int comm = 0; comm < harness.size; comm++) {
        char text[A2A_MEMBERS_MAX_WORLD * 4 + 1];
        size_t used = 0;
        for (int r = 0; r < harness.size; r++)
            if (colors[r] == comm)
                used += (size_t)snprintf(text + used, sizeof text - used, " %d", r);
        if (used)
            out_comment("communicator %d: world ranks%s", comm, text);
    }
}

/* One call; with --staging the copies to and from the device too. */
static void exchange_once(const struct a2a_method *m, struct a2a_ctx *ctx, size_t count,
                          size_t bytes, size_t iteration)
{
    watchdog_enter(iteration);
    buf_stage_out(ctx->send, 0, bytes);
    m->exchange(ctx, count);
    buf_stage_in(ctx->recv, 0, bytes);
    watchdog_leave();
}

/* One call, as the seed's program times it: a world barrier, the call, and
 * its time's maximum over the ranks reduced to rank 0, which prints the
 * iteration's '###' line at once (iteration 0 is the warm-up). Returns
 * that maximum on rank 0, and this rank's own time in *mine (for --stats'
 * slowest rank; NULL for the warm-up). The barrier's exit skew is part of
 * a small call's time; that is the seed's definition, and what the '###'
 * lines promise. The test hook's delay is inside the timing, as in the
 * OSU drivers. */
static double timed_call(const struct a2a_method *m, struct a2a_ctx *ctx, size_t count,
                         size_t bytes, size_t iteration, double *mine)
{
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    double t0 = timing_now();
    exchange_once(m, ctx, count, bytes, iteration);
    straggler_test_delay();
    double local = timing_now() - t0, slowest = 0.0;
    if (mine)
        *mine = local;
    timing_max_per_iteration(&local, &slowest, 1, 0, MPI_COMM_WORLD);
    if (iteration == 0)
        out_line("### count %zu warm-up time %.9e", count, slowest);
    else
        out_line("### count %zu iteration %zu time %.9e", count, iteration, slowest);
    return slowest;
}

/* --stats: the slowest world rank, how far above the median rank, its
 * host and the index of its communicator (the '# communicator C' lines),
 * as text columns into text and as JSON fields. Rank 0. */
static void straggler_columns(const struct subcomm *b, const struct straggler *t, char *text,
                              size_t len)
{
    if (!t->known) { /* not reached: every rank times every call */
        snprintf(text, len, " %13s %25s %14s %13s", "-", "-", "-", "-");
        return;
    }
    struct sweep_part part;
    sweep_partition(t->rank, b->world_size, b->target, b->strided, &part);
    snprintf(text, len, " %13d %25.2f %14s %13d", t->rank, t->above_pct, t->host, part.color);
    report_row_size("slowest_rank", (size_t)t->rank);
    report_row_double("slowest_above_median_pct", t->above_pct);
    report_row_string("slowest_host", t->host);
    report_row_size("slowest_comm", (size_t)part.color);
}

/* The row of one count: the data line (with --stats its spread and
 * slowest-rank columns after the others) and the JSON object. Rank 0. */
static void print_row(const struct a2a_method *m, const struct a2a_ctx *ctx, size_t count,
                      const struct a2a_sweep_config *c, double warm, const double *maxima,
                      const struct stats_summary *s, const struct straggler *slowest)
{
    const struct subcomm *b = ctx->sub;
    /* ranks: the target size, as the seed prints it; the bytes: what rank 0
     * itself sends and receives in its communicator. */
    double gib = (double)(2 * count) * b->size * sizeof(long) / GIB;
    report_row_begin("alltoall");
    report_row_string("algorithm", m->name);
    report_row_size("comms", (size_t)b->ncomms);
    report_row_size("ranks", (size_t)b->target);
    report_row_size("count", count);
    report_row_double("gib_per_rank", gib);
    report_row_double("time_min_s", s->min);
    report_row_double("time_avg_s", s->mean);
    report_row_double("time_max_s", s->max);
    report_row_double("gibps_min", gib / s->max);
    report_row_double("gibps_avg", gib / s->mean);
    report_row_double("gibps_max", gib / s->min);
    report_row_double("warmup_s", warm);
    report_row_bool("fell_back", ctx->fell_back);
    struct stats_dispersion d;
    report_row_iterations(maxima, c->iters, &d);
    char spread[64] = "", straggler[STRAGGLER_HOST + 80] = "";
    if (report_stats()) {
        snprintf(spread, sizeof spread, " %14.6e %14.6e %14.6e %14.6e", d.median, d.p5, d.p95,
                 d.cv);
        straggler_columns(b, slowest, straggler, sizeof straggler);
    }
    report_row_end();
    out_line("%8d %8d %14.6e %14.6e %14.6e %14.6e %14.6e %14.6e %14.6e%s%s", b->ncomms,
             b->target, gib, s->min, s->mean, s->max, gib / s->max, gib / s->mean, gib / s->min,
             spread, straggler);
}

/* Each iteration's time: its maximum over the ranks (rank 0) and this
 * rank's own; iters of each. */
struct a2a_times {
    double *maxima, *mine;
};

/* One middle-loop step: warm-up, timed calls, data check, and with --stats
 * the slowest rank (every rank takes part). */
static void run_count(const struct a2a_sweep_config *c, const struct a2a_method *m,
                      struct a2a_ctx *ctx, size_t count, const struct a2a_times *times,
                      struct stats_summary *s)
{
    const struct subcomm *b = ctx->sub;
    struct msg_type mt;
    if (msg_type_make(count, MPI_LONG, &mt))
        err_fatal("cannot describe %zu longs as an MPI datatype", count);
    ctx->mt = &mt;
    buf_set_bytes(ctx->recv, 0xFF);
    size_t bytes = count * (size_t)b->size * sizeof(long);
    /* The whole count is one step: its warm-up, its timed calls and the
     * check, each of which waits for every rank. */
    watchdog_configure(c->timeout > 0 ? c->timeout : ctx->hang_timeout);
    watchdog_arm(ctx->hang_hint, "%s%s%scount %zu in communicators of %d ranks",
                 c->name_blocks ? "algorithm " : "", c->name_blocks ? m->name : "",
                 c->name_blocks ? ", " : "", count, b->size);
    if (m->begin_count)
        m->begin_count(ctx, count);

    double warm = timed_call(m, ctx, count, bytes, 0, NULL);
    for (size_t i = 0; i < c->iters; i++)
        times->maxima[i] = timed_call(m, ctx, count, bytes, i + 1, &times->mine[i]);
    if (m->end_count)
        m->end_count(ctx);
    msg_type_free(&mt);
    ctx->mt = NULL;

    a2a_corrupt_if_asked(ctx->recv, A2A_LONG, harness.rank);
    struct a2a_failure f;
    const int *world_of = b->world_of;
    const struct a2a_layout layout = {1, count * (size_t)b->size, count, b->size, b->rank,
                                      world_of};
    bool bad = a2a_check(ctx->recv, A2A_LONG, &layout, &f) != 0;
    /* The method lets go of its windows and communicators before the
     * program ends: some libraries abort in MPI_Finalize otherwise. */
    bool any_bad = false;
    MPI_CHECK(MPI_Allreduce(&bad, &any_bad, 1, MPI_C_BOOL, MPI_LOR, MPI_COMM_WORLD));
    if (any_bad && m->close)
        m->close(ctx);
    err_check(MPI_COMM_WORLD, bad,
              "data check failed%s%s: rank %d, count %zu: element %zu from communicator rank "
              "%zu (world rank %d) is %.0f, expected %.0f",
              c->name_blocks ? ", algorithm " : "", c->name_blocks ? m->name : "", harness.rank,
              count, f.element, f.peer, bad ? world_of[f.peer] : -1, f.got, f.want);
    watchdog_disarm();

    struct straggler slowest = {.known = false};
    if (report_stats())
        straggler_find(times->mine, c->iters, true, MPI_COMM_WORLD, &slowest);
    if (!out_is_printer())
        return;
    stats_summarize(times->maxima, c->iters, s);
    print_row(m, ctx, count, c, warm, times->maxima, s, &slowest);
}

static void print_columns(void)
{
    if (report_jsonl()) /* the JSON table has the names */
        return;
    char spread[160] = "";
    if (report_stats())
        snprintf(spread, sizeof spread, " %14s %14s %14s %14s %13s %25s %14s %13s",
                 "time_median_s", "time_p5_s", "time_p95_s", "time_cv", "slowest_rank",
                 "slowest_above_median_pct", "slowest_host", "slowest_comm");
    out_comment("%6s %8s %14s %14s %14s %14s %14s %14s %14s%s", "comms", "ranks",
                "GiB_per_rank", "time_min_s", "time_avg_s", "time_max_s", "GiBps_min",
                "GiBps_avg", "GiBps_max", spread);
}

/* One method's block inside one communicator: its counts from the largest
 * the buffers hold down to 1. */
static void run_method(const struct a2a_sweep_config *c, const struct a2a_method *m,
                       size_t mi, size_t t, struct a2a_ctx *ctx, const struct a2a_times *times,
                       a2a_sweep_record_fn record, void *record_arg)
{
    char note[256] = "";
    ctx->state = NULL;
    ctx->fell_back = false;
    ctx->hang_timeout = 0.0;
    ctx->hang_hint = NULL;
    if (m->open)
        m->open(ctx, note, sizeof note);
    if (c->name_blocks)
        out_comment("algorithm: %s (%s)", m->name, m->describe);
    if (note[0])
        out_comment("%s: %s", m->name, note);
    print_columns();
    size_t counts[A2A_SWEEP_MAX_STEPS];
    size_t ncounts = sweep_halving(ctx->count_max, counts, A2A_SWEEP_MAX_STEPS);
    for (size_t k = 0; k < ncounts; k++) {
        struct stats_summary s;
        run_count(c, m, ctx, counts[k], times, &s);
        if (record && out_is_printer())
            record(record_arg, t, mi, k, ctx->sub->target, counts[k], ctx->fell_back, &s);
    }
    if (m->close)
        m->close(ctx);
    ctx->state = NULL;
}

void a2a_sweep_run(const struct a2a_sweep_config *c, const struct a2a_method *const *methods,
                   size_t n, a2a_sweep_record_fn record, void *record_arg)
{
    size_t count_all = c->count_hi * (size_t)harness.size;
    bool any_scratch = false;
    for (size_t m = 0; m < n; m++)
        any_scratch |= methods[m]->needs_scratch;

    struct buf send, recv, scratch;
    buf_alloc_all(&send, count_all * sizeof(long), c->where, MPI_COMM_WORLD);
    buf_alloc_all(&recv, count_all * sizeof(long), c->where, MPI_COMM_WORLD);
    if (any_scratch)
        buf_alloc_all(&scratch, count_all * sizeof(long), c->where, MPI_COMM_WORLD);
    struct a2a_times times = {calloc(c->iters, sizeof(double)), calloc(c->iters, sizeof(double))};
    err_any(MPI_COMM_WORLD, !times.maxima || !times.mine, ERR_STATUS_USAGE,
            "cannot allocate 2 x %zu iteration times", c->iters);
    /* Element i of a send buffer has the same value whatever the count and
     * the communicator, so one fill serves every call (no method writes it). */
    a2a_fill(&send, count_all, A2A_LONG, harness.rank);

    size_t targets[A2A_SWEEP_MAX_STEPS];
    size_t ntargets = sweep_halving((size_t)harness.size, targets, A2A_SWEEP_MAX_STEPS);
    for (size_t t = 0; t < ntargets; t++) {
        struct subcomm b;
        subcomm_open((int)targets[t], c->strided, &b);
        print_members(b.color);
        struct a2a_ctx ctx = {.sub = &b, .send = &send, .recv = &recv,
                              .count_max = count_all / targets[t]};
        for (size_t m = 0; m < n; m++) {
            ctx.scratch = methods[m]->needs_scratch ? &scratch : NULL;
            if (m > 0)
                subcomm_label(&b);
            run_method(c, methods[m], m, t, &ctx, &times, record, record_arg);
            /* Each method's rows are a gnuplot block of their own. */
            if (m + 1 < n)
                out_block_end();
        }
        subcomm_close(&b);
    }
    free(times.maxima);
    free(times.mine);
    buf_free(&send);
    buf_free(&recv);
    if (any_scratch)
        buf_free(&scratch);
}
