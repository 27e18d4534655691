/* pt2pt: the point-to-point driver; see pt2pt.h. */
#include "pt2pt.h"

#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pt2pt_arith.h"

/* buf_corrupt_requested for this rank, read once on the main thread. */
static bool corrupt_sent_data;
/* The program running, for stop_after_failure. */
static const struct pt2pt_bench *running;

/* Enough for every doubling from 0 to SIZE_MAX. */
#define PT2PT_MAX_STEPS 70

void pt2pt_fill_region(struct buf *b, size_t offset, size_t len, int rank, size_t iteration)
{
    if (len == 0)
        return;
    struct buf view = {(char *)b->ptr + offset, len, b->where};
    buf_fill_bytes(&view, rank, iteration);
    if (corrupt_sent_data)
        buf_flip_byte(&view, len / 2);
}

void pt2pt_pair_roles(struct pt2pt_ctx *c, size_t npairs)
{
    int half = c->nranks / 2;
    bool first_half = c->rank < half;
    size_t index = (size_t)(first_half ? c->rank : c->rank - half);
    bool in_pair = index < npairs;
    c->npairs = npairs;
    c->peer = in_pair ? (first_half ? c->rank + half : c->rank - half) : -1;
    c->initiator = in_pair && first_half;
    c->timed = c->initiator;
    c->sends_data = in_pair;
    c->receives_data = in_pair;
}

const char *const pt2pt_latency_columns[1] = {"Avg Latency(us)"};
const char *const pt2pt_latency_full_columns[3] = {"Min Latency(us)", "Max Latency(us)",
                                                   "Iterations"};

void pt2pt_latency_values(const struct pt2pt_ctx *c, double seconds, double *out)
{
    (void)c;
    out[0] = pt2pt_latency_us(seconds);
}

const char *const pt2pt_bandwidth_columns[1] = {"Bandwidth (MB/s)"};
const char *const pt2pt_bandwidth_full_columns[3] = {"Min BW (MB/s)",
                                                     "Max BW (MB/s)", "Iterations"};

void pt2pt_one_way_setup(struct pt2pt_ctx *c)
{
    c->sends_data = c->initiator;
    c->receives_data = c->peer >= 0 && !c->initiator;
}

static void default_fill(struct pt2pt_ctx *c)
{
    if (c->sends_data)
        pt2pt_fill_region(&c->send, 0, c->size, c->rank, c->iteration);
}

static size_t default_check(struct pt2pt_ctx *c)
{
    if (!c->receives_data)
        return SIZE_MAX;
    return buf_check_bytes(&c->recv, 0, c->size, c->peer, c->iteration);
}

static const char *thread_level_name(int level)
{
    switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    default: return "MPI_THREAD_MULTIPLE";
    }
}

static void check_world(const struct pt2pt_bench *b)
{
    int n = harness.size;
    if (b->ranks == PT2PT_EXACTLY_TWO && n != 2)
        err_usage("this test needs exactly 2 ranks, not %d", n);
    if (b->ranks == PT2PT_EVEN && (n < 2 || n % 2))
        err_usage("this test needs an even number of ranks (2 or more), not %d", n);
    if (harness.thread_provided < b->thread_level)
        err_usage("this test needs %s, but the MPI library provides only %s",
                  thread_level_name(b->thread_level),
                  thread_level_name(harness.thread_provided));
}

/* Times of one size on this rank. */
struct pt2pt_times {
    double total, fastest, slowest;
    size_t bad_index, bad_iteration;
};

static void run_iterations(const struct pt2pt_bench *b, struct pt2pt_ctx *c, size_t iterations,
                           struct pt2pt_times *t)
{
    const struct osu_opts *o = c->opts;
    t->total = 0;
    t->fastest = DBL_MAX;
    t->slowest = 0;
    t->bad_index = SIZE_MAX;
    t->bad_iteration = 0;
    if (!o->full && !o->validate) {
        /* One clock reading around the whole loop: nothing else is timed. */
        double start = timing_now();
        b->exchange(c, iterations);
        t->total = timing_now() - start;
        return;
    }
    for (size_t i = 0; i < iterations; i++) {
        c->iteration = i;
        if (o->validate) {
            (b->fill ? b->fill : default_fill)(c);
            /* The partner's check of the previous iteration and this fill
             * end here, before the clock starts. */
            MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
        }
        double start = timing_now();
        b->exchange(c, 1);
        double took = timing_now() - start;
        t->total += took;
        if (took < t->fastest)
            t->fastest = took;
        if (took > t->slowest)
            t->slowest = took;
        if (o->validate && t->bad_index == SIZE_MAX) {
            t->bad_index = (b->check ? b->check : default_check)(c);
            t->bad_iteration = i;
        }
    }
}

static void stop(const struct pt2pt_bench *b, struct pt2pt_ctx *c)
{
    if (b->finish)
        b->finish(c);
}

static void stop_after_failure(void *c) { stop(running, c); }

static void measure_size(const struct pt2pt_bench *b, struct pt2pt_ctx *c, size_t size)
{
    const struct osu_opts *o = c->opts;
    c->size = size;
    if (msg_type_make(size, MPI_BYTE, &c->type))
        err_fatal("cannot describe a message of %zu bytes as an MPI datatype", size);
    size_t iterations = osu_iterations(o, &b->prog, size);
    size_t warmup = osu_warmup(o, &b->prog, size);

    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    if (warmup)
        b->exchange(c, warmup);
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    struct pt2pt_times t;
    run_iterations(b, c, iterations, &t);
    msg_type_free(&c->type);

    /* Untimed ranks contribute neutral elements. */
    double mine = t.total / (double)iterations;
    double local_max[3] = {c->timed ? mine : 0, c->timed ? -t.fastest : -DBL_MAX,
                           c->timed ? t.slowest : 0};
    double local_sum[2] = {c->timed ? mine : 0, c->timed ? 1 : 0};
    double global_max[3], global_sum[2];
    MPI_CHECK(MPI_Reduce(local_max, global_max, 3, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD));
    MPI_CHECK(MPI_Reduce(local_sum, global_sum, 2, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD));

    struct osu_row row;
    osu_row_begin(&row, size);
    if (c->rank == 0) {
        double seconds = b->combine == PT2PT_MEAN && global_sum[1] > 0
                             ? global_sum[0] / global_sum[1]
                             : global_max[0];
        double values[PT2PT_MAX_COLUMNS];
        b->values(c, seconds, values);
        for (size_t i = 0; i < c->ncolumns; i++)
            osu_row_value(&row, values[i]);
        if (o->full) {
            double at_fastest[PT2PT_MAX_COLUMNS], at_slowest[PT2PT_MAX_COLUMNS];
            b->values(c, -global_max[1], at_fastest);
            b->values(c, global_max[2], at_slowest);
            double lo = at_fastest[0] < at_slowest[0] ? at_fastest[0] : at_slowest[0];
            double hi = at_fastest[0] < at_slowest[0] ? at_slowest[0] : at_fastest[0];
            osu_row_value(&row, lo);
            osu_row_value(&row, hi);
            osu_row_count(&row, iterations);
        }
    }
    osu_row_end_checked(&row, o->validate, t.bad_index != SIZE_MAX, stop_after_failure, c,
                        "validation failed at message size %zu: rank %d received a wrong byte "
                        "at index %zu in iteration %zu",
                        size, c->rank, t.bad_index, t.bad_iteration);
}

static void allocate(struct pt2pt_ctx *c, const struct osu_opts *o)
{
    enum buf_where where = osu_where_for_rank(o, c->rank, c->nranks);
    size_t bytes = o->max_size * c->slots;
    buf_alloc_all(&c->send, bytes, where, MPI_COMM_WORLD);
    buf_alloc_all(&c->recv, bytes, where, MPI_COMM_WORLD);
    /* Touch every page now so no first-touch fault lands in a timed loop. */
    buf_zero(&c->send);
    buf_zero(&c->recv);
    size_t window = o->window ? o->window : 1;
    c->requests = malloc(2 * window * sizeof *c->requests);
    c->statuses = malloc(2 * window * sizeof *c->statuses);
    if (!c->requests || !c->statuses)
        err_fatal("cannot allocate %zu MPI requests", 2 * window);
}

_Noreturn void pt2pt_main(const struct pt2pt_bench *b, int argc, char **argv)
{
    harness_init(&argc, &argv, b->thread_level);
    running = b;
    corrupt_sent_data = buf_corrupt_requested(harness.rank);
    struct osu_opts o;
    osu_parse(&o, &b->prog, argc, argv, b->extra, b->nextra);
    if (o.first_positional < argc)
        err_usage("unexpected argument '%s' (try --help)", argv[o.first_positional]);
    check_world(b);

    struct pt2pt_ctx c;
    memset(&c, 0, sizeof c);
    c.opts = &o;
    c.rank = harness.rank;
    c.nranks = harness.size;
    c.slots = 1;
    c.window = o.window ? o.window : 1;
    c.ncolumns = b->ncolumns;
    pt2pt_pair_roles(&c, (size_t)c.nranks / 2);
    if (b->setup)
        b->setup(&c);
    /* Two buffers (send, recv) of slots slices each; a window reuses them. */
    size_t buffers = 2 * c.slots;

    if (o.min_size == 0) {
        /* OMB 7.4 never measures size 0: sizes start at 1 byte. */
        if (o.max_size == 0)
            err_usage("message size 0: the sizes start at 1 byte (-m [MIN:]MAX, MAX >= 1)");
        o.min_size = 1;
    }
    char before[256] = "", after[512] = PT2PT_DATATYPE_LINE;
    if (b->omb_lines)
        b->omb_lines(&c, before, sizeof before, after, sizeof after);
    osu_print_preamble(&o, &b->prog, argc, argv, before, after);
    if (b->ranks == PT2PT_EVEN)
        out_comment("pairs: %zu (rank i with rank i + %d)", c.npairs, c.nranks / 2);
    int corrupt_rank = buf_corrupt_rank();
    if (corrupt_rank >= 0)
        out_comment("warning: COMMSWEEP_CORRUPT=1: rank %d damages one byte of every message "
                    "it sends under -c (a test hook)",
                    corrupt_rank);
    if (!osu_cap_to_memory(&o, buffers))
        err_usage("message size %zu needs %zu buffers of that size, more than the memory "
                  "limit of %zu bytes per process (-M)",
                  o.min_size, buffers, o.mem_limit);
    allocate(&c, &o);
    if (b->prepare)
        b->prepare(&c);

    size_t sizes[PT2PT_MAX_STEPS], windows[PT2PT_MAX_STEPS];
    size_t nsizes = sweep_doubling(o.min_size, o.max_size, sizes, PT2PT_MAX_STEPS);
    bool vary = b->vary_window && *b->vary_window;
    size_t nwindows = vary ? sweep_doubling(1, o.window, windows, PT2PT_MAX_STEPS) : 1;
    if (vary)
        out_comment("windows: %zu to %zu, one block each", windows[0], windows[nwindows - 1]);
    else
        windows[0] = o.window ? o.window : 1;
    for (size_t w = 0; w < nwindows; w++) {
        c.window = windows[w];
        if (vary)
            out_comment("window: %zu", c.window);
        osu_print_columns(&o, b->columns, c.ncolumns, b->full_columns, 3);
        for (size_t s = 0; s < nsizes; s++)
            measure_size(b, &c, sizes[s]);
        if (vary)
            out_block_end();
    }
    stop(b, &c);
    free(c.requests);
    free(c.statuses);
    buf_free(&c.send);
    buf_free(&c.recv);
    harness_finish(ERR_STATUS_OK);
}
