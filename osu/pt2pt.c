/* pt2pt: the point-to-point driver; see pt2pt.h. */
#include "pt2pt.h"

#include <float.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "coll_groups.h"
#include "group_rows.h"
#include "osu_compat.h"
#include "osu_defaults.h"
#include "pt2pt_arith.h"
#include "report.h"
#include "watchdog.h"

/* buf_corrupt_requested for this rank, read once on the main thread. */
static bool corrupt_sent_data;
/* The program running, for stop_after_failure. */
static const struct pt2pt_bench *running;

/* --groups and --np-ladder (the programs of pairs): the layout, its rows,
 * and the column heading every group's block repeats. */
static struct coll_groups_spec groups;
static size_t node_block;
static bool ladder;
static struct coll_layout layout;
static struct group_rows rows;
static char heading[GROUP_ROWS_TEXT];
static bool grouped(void) { return groups.kind != COLL_GROUPS_NONE; }
static bool laid_out(void) { return grouped() || ladder; }

/* Enough for every doubling from 0 to SIZE_MAX. */
#define PT2PT_MAX_STEPS 70

/* -z: OMB 7.4's tail columns, the percentiles of rank 0's single
 * iterations (nearest rank, as OMB picks them). */
static bool tail;
static double *iteration_times; /* -z, --stats, --samples: this rank's time of each iteration */
/* --stats, --samples: rank 0's value of the first column per iteration,
 * from the iteration's time combined over the timed ranks as the row's is. */
static double *iteration_values;
/* -u: untimed exchanges before each timed one under -c (OMB 7.4's
 * validation warm-up; its default is 5, ours 0 so -c times as before). */
static size_t validation_warmup;

/* -T: OMB 7.4's element types; "all" runs the sweep once with each. */
static int type_choice;
static const char *const type_names[] = {"mpi_char", "mpi_int", "mpi_float", "all", NULL};
#define PT2PT_NTYPES 3
static MPI_Datatype type_mpi(int t) { return t == 1 ? MPI_INT : t == 2 ? MPI_FLOAT : MPI_CHAR; }
static const char *type_omb_name(int t)
{
    return t == 1 ? "MPI_INT" : t == 2 ? "MPI_FLOAT" : "MPI_CHAR";
}
static size_t type_size(int t) { return t == 1 ? sizeof(int) : t == 2 ? sizeof(float) : 1; }
/* -D: each message as one derived datatype. */
static struct osu_ddt ddt;
/* -b single|multiple (OMB 7.4's --buffer-num): multiple gives each message
 * of a window a send and a receive buffer of its own (message_stride); a
 * program without a window then allocates its buffers again for each size,
 * as OMB 7.4 does (buffers_per_size). */
static int buffer_num;
static const char *const buffer_num_names[] = {"single", "multiple", NULL};
static bool buffers_per_size;

void pt2pt_fill_region(struct buf *b, size_t offset, size_t len, int rank, size_t iteration)
{
    if (len == 0)
        return;
    struct buf view = buf_view(b, offset, len);
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

void pt2pt_bw_values(const struct pt2pt_ctx *c, double seconds, double *out)
{
    out[0] = pt2pt_bandwidth_mb(c->size, (double)c->window, seconds);
}

void pt2pt_bibw_values(const struct pt2pt_ctx *c, double seconds, double *out)
{
    out[0] = pt2pt_bandwidth_mb(c->size, 2.0 * (double)c->window, seconds);
}

void pt2pt_aggregate_values(const struct pt2pt_ctx *c, double seconds, double *out)
{
    double messages = (double)c->npairs * (double)c->window;
    out[0] = pt2pt_bandwidth_mb(c->size, messages, seconds);
    out[1] = osu_msg_rate(messages, seconds);
}

void pt2pt_one_way_setup(struct pt2pt_ctx *c)
{
    c->sends_data = c->initiator;
    c->receives_data = c->peer >= 0 && !c->initiator;
}

/* The messages of a window that have buffers of their own: all under -b
 * multiple, else the one. Message w is keyed iteration + w (OMB 7.4's
 * keys), so that one landing in another's buffer is caught. */
static size_t own_buffers(const struct pt2pt_ctx *c)
{
    return c->message_stride ? c->window : 1;
}

static void default_fill(struct pt2pt_ctx *c)
{
    for (size_t w = 0; c->sends_data && w < own_buffers(c); w++)
        pt2pt_fill_region(&c->send, w * c->message_stride, c->size, c->rank, c->iteration + w);
}

size_t pt2pt_check_message(const struct pt2pt_ctx *c, size_t offset, int rank, size_t key)
{
    if (c->ddt->kind == OSU_DDT_NONE)
        return buf_check_bytes(&c->recv, offset, c->size, rank, key);
    const unsigned char *data = (const unsigned char *)c->recv.ptr + offset;
    unsigned char *host = NULL;
    if (c->recv.where != BUF_HOST) {
        if (!(host = malloc(c->size ? c->size : 1)))
            err_fatal("cannot allocate %zu bytes of host memory for -c", c->size);
        buf_copy_out(host, &c->recv, offset, c->size);
        data = host;
    }
    size_t bad = osu_ddt_check(c->ddt, data, c->size / c->elem_size, c->elem_size, rank, key);
    free(host);
    return bad;
}

/* Every peer's message, each in its slice (or all in the one buffer, which
 * then holds one peer's: a program with several peers sets peer_stride
 * under -c), of every message buffer (-b multiple). The index is the
 * byte's in the receive buffer. */
static size_t default_check(struct pt2pt_ctx *c)
{
    if (!c->receives_data)
        return SIZE_MAX;
    for (size_t w = 0; w < own_buffers(c); w++)
        for (size_t p = 0; p < c->npeers; p++) {
            size_t offset = w * c->message_stride + p * c->peer_stride;
            size_t bad = pt2pt_check_message(c, offset, c->peers[p], c->iteration + w);
            if (bad != SIZE_MAX)
                return offset + bad;
        }
    return SIZE_MAX;
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
    if (harness.thread_provided < b->prog.thread_level)
        err_usage("this test needs %s, but the MPI library provides only %s",
                  thread_level_name(b->prog.thread_level),
                  thread_level_name(harness.thread_provided));
}

/* Times of one size on this rank. */
struct pt2pt_times {
    double total, fastest, slowest;
    size_t bad_index, bad_iteration;
};

static void times_reset(struct pt2pt_times *t)
{
    t->total = 0;
    t->fastest = DBL_MAX;
    t->slowest = 0;
    t->bad_index = SIZE_MAX;
    t->bad_iteration = 0;
}

/* Iterations first .. first + n - 1, added to t. */
static void run_iterations(const struct pt2pt_bench *b, struct pt2pt_ctx *c, size_t first,
                           size_t n, struct pt2pt_times *t)
{
    const struct osu_opts *o = c->opts;
    if (!o->full && !o->validate && !b->iteration_barrier && !iteration_times) {
        /* One clock reading around the whole loop: nothing else is timed. */
        double start = timing_now();
        b->exchange(c, n);
        t->total += timing_now() - start;
        return;
    }
    for (size_t i = first; i < first + n; i++) {
        c->iteration = i;
        if (o->validate) {
            if (validation_warmup)
                b->exchange(c, validation_warmup);
            (b->fill ? b->fill : default_fill)(c);
            /* The partner's check of the previous iteration and this fill
             * end here, before the clock starts. */
            MPI_CHECK(MPI_Barrier(c->comm));
        } else if (b->iteration_barrier) {
            MPI_CHECK(MPI_Barrier(c->comm));
        }
        double start = timing_now();
        b->exchange(c, 1);
        straggler_test_delay();
        double took = timing_now() - start;
        if (iteration_times)
            iteration_times[i] = took;
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

/* A batch of --precision (or the one of fixed counts). */
struct pt2pt_batch {
    const struct pt2pt_bench *b;
    struct pt2pt_ctx *c;
    struct pt2pt_times *t;
};

static void run_batch(void *arg, size_t first, size_t n)
{
    struct pt2pt_batch *a = arg;
    run_iterations(a->b, a->c, first, n, a->t);
}

static void stop(const struct pt2pt_bench *b, struct pt2pt_ctx *c)
{
    if (b->finish)
        b->finish(c);
}

static void stop_after_failure(void *c) { stop(running, c); }

/* What one size measured: the reported values and, with -f, the lowest and
 * highest of the first one (valid on rank 0), and this rank's check. */
struct pt2pt_measured {
    double values[PT2PT_MAX_COLUMNS];
    double lo, hi;
    double tail[OSU_NTAIL]; /* -z */
    size_t iterations;
    struct pt2pt_times t;
    struct straggler straggler; /* --stats, rank 0 */
    struct precision_result precision;
};

/* --stats, --samples: each iteration's time over the timed ranks, slowest
 * or mean like the row's, as a value of the first column (rank 0).
 * Collective; untimed ranks add nothing. */
static void combine_iterations(const struct pt2pt_bench *b, struct pt2pt_ctx *c,
                               size_t iterations)
{
    size_t bytes = iterations * sizeof *iteration_values;
    /* An untimed rank adds zeros; rank 0 reduces in place (it may be
     * untimed itself, in a fan-in). iteration_times stays as measured. */
    const double *mine = iteration_times;
    if (!c->timed) {
        memset(iteration_values, 0, bytes);
        mine = iteration_values;
    }
    bool mean = b->combine == PT2PT_MEAN;
    MPI_Op op = mean ? MPI_SUM : MPI_MAX;
    if (c->rank == 0) {
        if (mine != iteration_values)
            memcpy(iteration_values, mine, bytes);
        MPI_CHECK(MPI_Reduce(MPI_IN_PLACE, iteration_values, (int)iterations, MPI_DOUBLE, op, 0,
                             c->comm));
    } else {
        MPI_CHECK(MPI_Reduce(mine, NULL, (int)iterations, MPI_DOUBLE, op, 0, c->comm));
    }
    double timed = 1.0, one = c->timed;
    MPI_CHECK(MPI_Reduce(&one, &timed, 1, MPI_DOUBLE, MPI_SUM, 0, c->comm));
    if (c->rank != 0)
        return;
    for (size_t i = 0; i < iterations; i++) {
        double v[PT2PT_MAX_COLUMNS];
        b->values(c, mean ? iteration_values[i] / timed : iteration_values[i], v);
        iteration_values[i] = v[0];
    }
}

/* Send and receive buffers of bytes each (slots slices of max_size),
 * every page touched now, so that no first-touch fault lands in a timed
 * loop; collective. */
static void alloc_buffers(struct pt2pt_ctx *c, size_t bytes)
{
    buf_alloc_all(&c->send, bytes, c->where, harness.comm);
    buf_alloc_all(&c->recv, bytes, c->where, harness.comm);
    buf_zero(&c->send);
    buf_zero(&c->recv);
}

/* Measures one size at the current window; collective. */
static void measure(const struct pt2pt_bench *b, struct pt2pt_ctx *c, size_t size,
                    struct pt2pt_measured *m)
{
    const struct osu_opts *o = c->opts;
    c->size = size;
    if (buffers_per_size) {
        buf_free(&c->send);
        buf_free(&c->recv);
        alloc_buffers(c, size * c->slots);
    }
    char why[256];
    if (ddt.kind != OSU_DDT_NONE) {
        if (osu_ddt_make(&ddt, size / c->elem_size, c->elem, c->elem_size, &c->type, why,
                         sizeof why))
            err_usage("message size %zu: %s", size, why);
    } else if (msg_type_make(size / c->elem_size, c->elem, &c->type)) {
        err_fatal("cannot describe a message of %zu bytes as an MPI datatype", size);
    }
    size_t floor, cap;
    osu_precision_counts(o, &b->prog, size, &floor, &cap);
    size_t warmup = osu_warmup(o, &b->prog, size);

    watchdog_arm(NULL, "size %zu", size);
    if (b->size_begin)
        b->size_begin(c);
    MPI_CHECK(MPI_Barrier(c->comm));
    watchdog_enter_phase("the warm-up iterations");
    if (warmup)
        b->exchange(c, warmup);
    watchdog_leave();
    MPI_CHECK(MPI_Barrier(c->comm));
    struct pt2pt_times *t = &m->t;
    times_reset(t);
    watchdog_enter_phase("the timed iterations");
    struct pt2pt_batch batch = {b, c, t};
    size_t iterations = precision_measure(floor, cap, iteration_times, c->timed, PRECISION_MEAN,
                                          c->comm, run_batch, &batch, &m->precision);
    m->iterations = iterations;
    watchdog_leave();
    if (b->size_end)
        b->size_end(c);
    msg_type_free(&c->type);

    /* Untimed ranks contribute neutral elements. */
    double mine = t->total / (double)iterations;
    double local_max[3] = {c->timed ? mine : 0, c->timed ? -t->fastest : -DBL_MAX,
                           c->timed ? t->slowest : 0};
    double local_sum[2] = {c->timed ? mine : 0, c->timed ? 1 : 0};
    double global_max[3], global_sum[2];
    MPI_CHECK(MPI_Reduce(local_max, global_max, 3, MPI_DOUBLE, MPI_MAX, 0, c->comm));
    MPI_CHECK(MPI_Reduce(local_sum, global_sum, 2, MPI_DOUBLE, MPI_SUM, 0, c->comm));
    watchdog_disarm();
    if (report_per_iteration())
        combine_iterations(b, c, iterations);
    m->straggler.known = false;
    if (report_stats())
        straggler_find(iteration_times, iterations, c->timed, c->comm, &m->straggler);
    if (tail && c->reporter != 0) {
        /* -z of a program whose rank 0 is not timed (fan-in): the first
         * sender's iterations, as OMB 7.4 reports them. */
        if (c->rank == c->reporter)
            MPI_CHECK(MPI_Send(iteration_times, (int)iterations, MPI_DOUBLE, 0, 0, c->comm));
        else if (c->rank == 0)
            MPI_CHECK(MPI_Recv(iteration_times, (int)iterations, MPI_DOUBLE, c->reporter, 0,
                               c->comm, MPI_STATUS_IGNORE));
    }

    if (c->rank != 0)
        return;
    double seconds = b->combine == PT2PT_MEAN && global_sum[1] > 0
                         ? global_sum[0] / global_sum[1]
                         : global_max[0];
    b->values(c, seconds, m->values);
    double at_fastest[PT2PT_MAX_COLUMNS], at_slowest[PT2PT_MAX_COLUMNS];
    b->values(c, -global_max[1], at_fastest);
    b->values(c, global_max[2], at_slowest);
    m->lo = at_fastest[0] < at_slowest[0] ? at_fastest[0] : at_slowest[0];
    m->hi = at_fastest[0] < at_slowest[0] ? at_slowest[0] : at_fastest[0];
    if (!tail)
        return;
    /* The first value of each iteration of the reporter, sorted; OMB's rank. */
    for (size_t i = 0; i < iterations; i++) {
        double v[PT2PT_MAX_COLUMNS];
        b->values(c, iteration_times[i], v);
        iteration_times[i] = v[0];
    }
    osu_tail_values(iteration_times, iterations, m->tail);
}

/* Ends a row with its Validation column (-c): after a failure the message
 * names the size and where, and every rank ends with status 1. */
static void end_row(struct pt2pt_ctx *c, struct osu_row *row, size_t size,
                    const struct pt2pt_times *t)
{
    if (laid_out() && c->opts->validate) { /* the world's verdict: after the gather */
        osu_row_end_group_checked(row, t->bad_index != SIZE_MAX, c->comm);
        return;
    }
    osu_row_end_checked(row, c->opts->validate, t->bad_index != SIZE_MAX, stop_after_failure, c,
                        "validation failed at message size %zu: rank %d received a wrong byte "
                        "at index %zu in iteration %zu",
                        size, c->rank, t->bad_index, t->bad_iteration);
}

static void measure_size(const struct pt2pt_bench *b, struct pt2pt_ctx *c, size_t size,
                         struct pt2pt_times *t)
{
    struct pt2pt_measured m;
    measure(b, c, size, &m);
    struct osu_row row;
    osu_row_begin(&row, size);
    if (b->omb_value_width && !c->opts->validate && !osu_seed_defaults())
        row.first_width = b->omb_value_width;
    for (size_t i = 0; i < c->ncolumns; i++)
        osu_row_value(&row, m.values[i]);
    if (c->opts->full) {
        osu_row_value(&row, m.lo);
        osu_row_value(&row, m.hi);
        osu_row_count(&row, m.iterations);
    }
    osu_row_measured(&row, m.iterations, iteration_values);
    osu_row_precision(&row, &m.precision);
    row.straggler = m.straggler;
    if (tail)
        for (size_t k = 0; k < OSU_NTAIL; k++)
            osu_row_trailing(&row, m.tail[k]);
    if (ddt.kind != OSU_DDT_NONE)
        osu_row_trailing_count(&row, osu_ddt_carried(&ddt, size / c->elem_size) * c->elem_size);
    end_row(c, &row, size, &m.t);
    *t = m.t;
}

struct grouped_step {
    const struct pt2pt_bench *b;
    struct pt2pt_ctx *c;
    size_t size;
    struct pt2pt_times t;
};

static void measure_grouped(void *ctx)
{
    struct grouped_step *step = ctx;
    measure_size(step->b, step->c, step->size, &step->t);
}

/* --groups and --np-ladder: one size in every group at once
 * (group_rows_measure), the rows kept (groups) or written (a ladder's
 * step), then the world's verdict on the data checks. */
static void measure_size_laid_out(const struct pt2pt_bench *b, struct pt2pt_ctx *c, size_t size,
                                  size_t index)
{
    struct grouped_step step = {.b = b, .c = c, .size = size};
    group_rows_measure(&rows, measure_grouped, &step);
    if (ladder)
        group_rows_write_step(&rows);
    else
        group_rows_keep(&rows, index);
    if (c->opts->validate)
        group_rows_check(&rows, step.t.bad_index != SIZE_MAX,
                         "validation failed at message size %zu: rank %d received a wrong byte "
                         "at index %zu in iteration %zu",
                         size, c->rank, step.t.bad_index, step.t.bad_iteration);
}

/* Collective over the world: the pairs asked for (-p) fit this rank's
 * communicator; with groups of unequal sizes only some ranks see that
 * they do not, so all agree first. */
static void check_pairs(const struct pt2pt_ctx *c)
{
    int half = c->nranks / 2;
    err_any(harness.comm, c->npairs > (size_t)half, ERR_STATUS_USAGE,
            "-p %zu: only %d pair%s fit%s in %d ranks%s", c->npairs, half, half == 1 ? "" : "s",
            half == 1 ? "s" : "", c->nranks, grouped() ? " (a group of --groups)" : "");
}

/* The roles of this rank in its communicator c->comm (the world, its
 * group, or a ladder's step): its half's buffers, its pair, the program's
 * setup. */
static void take_roles(const struct pt2pt_bench *b, struct pt2pt_ctx *c)
{
    c->where = osu_where_for_rank(c->opts, c->rank, c->nranks);
    pt2pt_pair_roles(c, (size_t)c->nranks / 2);
    c->peers = NULL;
    if (b->setup)
        b->setup(c);
    if (!c->peers) {
        c->peers = &c->peer;
        c->npeers = c->peer >= 0 ? 1 : 0;
    }
}

/* The first column is a rate (the worst group: the lowest), not a latency. */
static bool rate_first(const struct pt2pt_bench *b)
{
    return strstr(b->columns[0], "Latency") == NULL;
}

/* --np-ladder: the sweep on the first 2, 4, 8, ... ranks, then all, in
 * turn, a block each with its rows as they come; the ranks outside a step
 * wait in the gathers. */
static void run_ladder(const struct pt2pt_bench *b, struct pt2pt_ctx *c, const size_t *sizes,
                       size_t nsizes)
{
    int counts[64];
    size_t nsteps = coll_groups_ladder(harness.size, counts, 64);
    group_rows_ladder_line(counts, nsteps);
    const struct pt2pt_ctx world = *c;
    for (size_t s = 0; s < nsteps; s++) {
        if (s > 0)
            out_block_end();
        group_rows_ladder_step(&rows, &layout, counts[s], rate_first(b), false);
        *c = world;
        bool member = layout.comm != MPI_COMM_NULL;
        c->comm = layout.comm;
        if (member) {
            MPI_CHECK(MPI_Comm_rank(c->comm, &c->rank));
            MPI_CHECK(MPI_Comm_size(c->comm, &c->nranks));
            take_roles(b, c);
        }
        out_comment("pairs: %zu (rank i with rank i + %d)", c->npairs, c->nranks / 2);
        out_line("%s", heading);
        for (size_t i = 0; i < nsizes; i++)
            measure_size_laid_out(b, c, sizes[i], i);
        group_rows_free(&rows);
        coll_layout_free(&layout);
    }
    *c = world;
}

/* --np-ladder: the pairs asked for (-p) must fit its first step, of 2
 * ranks. The program's setup on that step's rank 0, worked out alike on
 * every rank from the options, needs no agreement. */
static void check_ladder_pairs(const struct pt2pt_bench *b, const struct pt2pt_ctx *world)
{
    struct pt2pt_ctx step = *world;
    step.rank = 0;
    step.nranks = 2;
    take_roles(b, &step);
    if (step.npairs > 1)
        err_usage("-p %zu: the first step of --np-ladder has 2 ranks, 1 pair", step.npairs);
}

/* --groups and --np-ladder: what they do not take; with --groups its
 * layout, and this rank's group as the pairs' communicator: every group
 * pairs its own ranks. */
static void enter_layout(const struct pt2pt_bench *b, struct pt2pt_ctx *c, bool vary)
{
    const char *which = coll_groups_check_options(&groups, node_block, ladder);
    if (!which)
        return;
    if (vary)
        err_usage("%s does not take -V: its matrix of windows has no row per group", which);
    if (type_choice == PT2PT_NTYPES)
        err_usage("%s takes one element type: -T all is not taken", which);
    if (ladder) {
        if (c->opts->where[0] != c->opts->where[1])
            err_usage("--np-ladder takes the same buffers for both halves of the ranks (%s, "
                      "%s): a rank's half changes from step to step",
                      buf_where_label(c->opts->where[0]), buf_where_label(c->opts->where[1]));
        return;
    }
    coll_layout_groups(harness.comm, &groups, node_block, &layout);
    for (int g = 0; g < layout.nsets; g++)
        if (layout.set_size[g] < 2 || layout.set_size[g] % 2)
            err_usage("--groups: group %d has %d rank%s; the pairs of %s need an even number "
                      "in every group (2 or more)",
                      g, layout.set_size[g], layout.set_size[g] == 1 ? "" : "s",
                      b->prog.title);
    c->comm = layout.comm;
    MPI_CHECK(MPI_Comm_rank(c->comm, &c->rank));
    MPI_CHECK(MPI_Comm_size(c->comm, &c->nranks));
    report_context_size("group", (size_t)layout.set_of[harness.rank]);
}

/* The column heading: the program's columns, -f's, Validation, -z's (OMB's
 * names: "P50 Tail Lat(us)", or "P50 Tail BW(MB/s)" for bandwidths). */
static void print_columns(const struct pt2pt_bench *b, const struct pt2pt_ctx *c)
{
    const struct osu_opts *o = c->opts;
    const char *names[PT2PT_MAX_COLUMNS + 3 + OSU_NTAIL];
    char tails[OSU_NTAIL][32];
    size_t n = 0;
    for (size_t i = 0; i < c->ncolumns; i++)
        names[n++] = b->columns[i];
    if (o->full)
        for (size_t i = 0; i < 3; i++)
            names[n++] = b->full_columns[i];
    bool latency = strstr(b->columns[0], "Latency") != NULL;
    const char *trailing[OSU_NTAIL + 1];
    size_t ntrailing = 0;
    osu_tail_names(latency, tails);
    if (b->omb_columns && !osu_seed_defaults()) {
        /* OMB's names over the same values; the tails named as OMB's first
         * heading says, the JSON fields keep what the values are. */
        char omb_tails[OSU_NTAIL][32];
        osu_tail_names(strstr(b->omb_columns[0], "Latency") != NULL, omb_tails);
        for (size_t i = 0; i < c->ncolumns; i++)
            osu_heading_alias(b->columns[i], b->omb_columns[i]);
        for (size_t k = 0; k < OSU_NTAIL; k++)
            osu_heading_alias(tails[k], omb_tails[k]);
    }
    for (size_t k = 0; tail && k < OSU_NTAIL; k++)
        trailing[ntrailing++] = tails[k];
    if (ddt.kind != OSU_DDT_NONE)
        trailing[ntrailing++] = "Transmit Size";
    struct osu_opts plain = *o;
    plain.full = false; /* the -f names are in names already */
    straggler_enable();
    osu_print_columns_trailing(&plain, names, n, NULL, 0, trailing, ntrailing);
}

/* A window heading of the -V matrices: "#      " and each window in 12. */
static void print_window_heading(const size_t *windows, size_t nwindows)
{
    out_hold_end(); /* a heading: what was held waits for after the table */
    struct osu_row r = {.used = 0, .first_width = 0};
    r.used = (size_t)snprintf(r.text, sizeof r.text, "#      ");
    for (size_t w = 0; w < nwindows && r.used < sizeof r.text; w++)
        r.used += (size_t)snprintf(r.text + r.used, sizeof r.text - r.used, "  %10zu", windows[w]);
    osu_row_end(&r);
}

/* -V as OMB 7.4 prints it: one row per size, one column per window (MB/s),
 * then, when the program reports a second value (the message rate), the
 * same matrix of it under "# Message Rate Profile". With -c a Validation
 * column ends each bandwidth row. */
/* -V in JSON: a row per size and window, in table "osu_windows" (the
 * size's validation verdict is the summary's). */
static void declare_window_table(const struct pt2pt_bench *b, const struct pt2pt_ctx *c)
{
    struct osu_field f[2];
    for (size_t i = 0; i < c->ncolumns && i < 2; i++)
        osu_field_of(b->columns[i], &f[i]);
    report_table("osu_windows", f[0].name, REPORT_HIGHER_BETTER, NULL);
    report_key("datatype", REPORT_UNIT_TEXT);
    report_key("size_bytes", REPORT_UNIT_BYTES);
    report_key("window", REPORT_UNIT_COUNT);
    for (size_t i = 0; i < c->ncolumns && i < 2; i++)
        report_value(f[i].name, f[i].unit);
}

static void window_row(const struct pt2pt_bench *b, const struct pt2pt_ctx *c,
                       const struct pt2pt_measured *m)
{
    report_row_begin("osu_windows");
    report_row_size("size_bytes", c->size);
    report_row_size("window", c->window);
    for (size_t i = 0; i < c->ncolumns && i < 2; i++) {
        struct osu_field f;
        osu_field_of(b->columns[i], &f);
        report_row_double(f.name, m->values[i]);
    }
    report_row_iterations(NULL, m->iterations, NULL);
    report_row_end();
}

static void measure_matrix(const struct pt2pt_bench *b, struct pt2pt_ctx *c, const size_t *sizes,
                           size_t nsizes, const size_t *windows, size_t nwindows)
{
    double *second = malloc(nsizes * nwindows * sizeof *second);
    if (!second)
        err_fatal("cannot allocate the -V matrix");
    declare_window_table(b, c);
    print_window_heading(windows, nwindows);
    for (size_t s = 0; s < nsizes; s++) {
        struct osu_row row = {.used = 0, .first_width = 0};
        row.used = (size_t)snprintf(row.text, sizeof row.text, "%-7zu", sizes[s]);
        struct pt2pt_times worst = {.bad_index = SIZE_MAX};
        for (size_t w = 0; w < nwindows; w++) {
            c->window = windows[w];
            struct pt2pt_measured m;
            measure(b, c, sizes[s], &m);
            if (worst.bad_index == SIZE_MAX)
                worst = m.t;
            if (c->rank != 0)
                continue;
            window_row(b, c, &m);
            second[s * nwindows + w] = m.values[1];
            row.used += (size_t)snprintf(row.text + row.used, sizeof row.text - row.used,
                                         "  %10.2f", m.values[0]);
        }
        end_row(c, &row, sizes[s], &worst);
    }
    if (c->ncolumns > 1) {
        out_line("%s", "");
        out_comment("Message Rate Profile");
        print_window_heading(windows, nwindows);
        for (size_t s = 0; s < nsizes; s++) {
            struct osu_row row = {.used = 0, .first_width = 0};
            row.used = (size_t)snprintf(row.text, sizeof row.text, "%-7zu", sizes[s]);
            for (size_t w = 0; w < nwindows; w++)
                row.used += (size_t)snprintf(row.text + row.used, sizeof row.text - row.used,
                                             "  %10.2f", second[s * nwindows + w]);
            osu_row_end(&row);
        }
    }
    free(second);
}

static void allocate(struct pt2pt_ctx *c, const struct osu_opts *o)
{
    c->peer_stride = c->slice_per_peer ? o->max_size : 0;
    size_t window = o->window ? o->window : 1;
    /* -b multiple: window buffers, each of slots slices (without a window,
     * measure allocates each size's own). */
    c->message_stride = buffer_num && o->window ? o->max_size * c->slots : 0;
    if (!buffers_per_size)
        alloc_buffers(c, o->max_size * c->slots * (c->message_stride ? window : 1));
    size_t n = window * (c->npeers > 2 ? c->npeers : 2);
    c->requests = malloc(n * sizeof *c->requests);
    c->statuses = malloc(n * sizeof *c->statuses);
    if (!c->requests || !c->statuses)
        err_fatal("cannot allocate %zu MPI requests", n);
}

_Noreturn void pt2pt_main(const struct pt2pt_bench *b, int argc, char **argv)
{
    running = b;
    struct osu_opts o;
    struct opt_spec extra[b->nextra + 7 + COLL_GROUPS_NOPTIONS];
    extra[0] = osu_tail_option(&tail);
    extra[1] = (struct opt_spec){.long_name = "type", .short_name = 'T', .kind = OPT_CHOICE,
                                 .dest = &type_choice, .metavar = "mpi_char|mpi_int|mpi_float|all",
                                 .help = "element type of the messages (default mpi_char); all: "
                                         "one sweep with each",
                                 .choices = type_names};
    extra[2] = osu_validation_warmup_option(&validation_warmup);
    size_t nextra = 3;
    if (!b->prog.offload) /* an offload library has no derived datatypes */
        extra[nextra++] = osu_ddt_option(&ddt);
    if (!b->no_buffer_num)
        extra[nextra++] = (struct opt_spec){
            .long_name = "buffer-num", .short_name = 'b', .kind = OPT_CHOICE,
            .dest = &buffer_num, .metavar = "single|multiple", .choices = buffer_num_names,
            .help = "multiple: a send and a receive buffer for each message of a window "
                    "(without a window: allocated again for each size); default single"};
    extra[nextra++] = osu_compat_graph_option();
    if (b->unused_test_calls)
        extra[nextra++] = osu_compat_test_calls_option();
    if (b->ranks == PT2PT_EVEN) { /* the programs of many pairs */
        coll_groups_options(extra + nextra, &groups, &node_block, &ladder);
        nextra += COLL_GROUPS_NOPTIONS;
    }
    if (b->nextra)
        memcpy(extra + nextra, b->extra, b->nextra * sizeof *extra);
    nextra += b->nextra;
    osu_parse(&o, &b->prog, argc, argv, extra, nextra); /* starts MPI */
    corrupt_sent_data = buf_corrupt_requested(harness.rank);
    if (o.first_positional < argc)
        err_usage("unexpected argument '%s' (try --help)", argv[o.first_positional]);
    check_world(b);

    struct pt2pt_ctx c;
    memset(&c, 0, sizeof c);
    c.opts = &o;
    c.ddt = &ddt;
    c.rank = harness.rank;
    c.nranks = harness.size;
    c.comm = harness.comm;
    bool vary = b->vary_window && *b->vary_window;
    enter_layout(b, &c, vary);
    c.slots = 1;
    c.window = o.window ? o.window : 1;
    c.ncolumns = b->ncolumns;
    take_roles(b, &c);
    if (b->ranks == PT2PT_EVEN)
        check_pairs(&c);
    if (ladder)
        check_ladder_pairs(b, &c);

    if (o.min_size == 0) {
        /* OMB 7.4 never measures size 0: sizes start at 1 byte. */
        if (o.max_size == 0)
            err_usage("message size 0: the sizes start at 1 byte (-m [MIN:]MAX, MAX >= 1)");
        o.min_size = 1;
    }
    if (vary && (o.full || tail || ddt.kind != OSU_DDT_NONE || report_per_iteration()))
        err_usage("-V prints OMB's matrix of windows, which has no -f, -z, -D or --stats "
                  "columns (nor --samples)");
    if (vary && !o.window_set)
        o.window = PT2PT_VARY_WINDOWS; /* OMB 7.4's windows: 1 to 128 */
    c.window = o.window ? o.window : 1;
    buffers_per_size = buffer_num && !o.window;
    /* Two buffers (send, recv) of slots slices each; a window reuses them,
     * but for -b multiple, where each of its messages has its own. */
    size_t buffers = 2 * c.slots * (buffer_num && o.window ? o.window : 1);
    int first_type = type_choice < PT2PT_NTYPES ? type_choice : 0;
    int last_type = type_choice < PT2PT_NTYPES ? type_choice : PT2PT_NTYPES - 1;
    char before[256] = "", after[512] = "";
    if (b->omb_lines)
        b->omb_lines(&c, before, sizeof before, after, sizeof after);
    size_t used = strlen(after);
    if (b->prog.offload) /* what OMB 7.4's xccl programs print in its place */
        snprintf(after + used, sizeof after - used,
                 "# Send Buffer on DEVICE (D) and Receive Buffer on DEVICE (D)\n");
    else
        snprintf(after + used, sizeof after - used, "# Datatype: %s.\n",
                 type_omb_name(first_type));
    if (b->prog.offload)
        b->prog.offload->start();
    osu_print_preamble(&o, &b->prog, argc, argv, before, after);
    if (b->ranks == PT2PT_EVEN && !laid_out())
        out_comment("pairs: %zu (rank i with rank i + %d)", c.npairs, c.nranks / 2);
    if (grouped())
        out_comment("pairs in each group: its rank i with its rank i + half its size; this "
                    "rank's group: %zu pairs",
                    c.npairs);
    if (b->describe)
        b->describe(&c);
    if (buffer_num)
        out_comment(o.window ? "buffers: each message of a window has a send and a receive "
                               "buffer of its own (-b multiple)"
                             : "buffers: allocated again for each message size (-b multiple, "
                               "as OMB 7.4)");
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
    if (tail || report_per_iteration() || precision_on()) {
        size_t floor, small, large;
        osu_precision_counts(&o, &b->prog, 0, &floor, &small);
        osu_precision_counts(&o, &b->prog, SIZE_MAX, &floor, &large);
        size_t most = small > large ? small : large;
        /* calloc: most * 8 may overflow (-i takes any count). */
        iteration_times = calloc(most, sizeof *iteration_times);
        if (report_per_iteration())
            iteration_values = calloc(most, sizeof *iteration_values);
        /* Every rank asks for as much: a count too large is bad input. */
        err_any(harness.comm, !iteration_times || (report_per_iteration() && !iteration_values),
                ERR_STATUS_USAGE,
                "cannot allocate the times of %zu iterations (-z, --stats, --precision): lower -i",
                most);
    }
    if (b->prepare)
        b->prepare(&c);

    size_t all[PT2PT_MAX_STEPS], sizes[PT2PT_MAX_STEPS], windows[PT2PT_MAX_STEPS];
    size_t nall = sweep_doubling(o.min_size, o.max_size, all, PT2PT_MAX_STEPS);
    size_t nwindows = vary ? sweep_doubling(1, o.window, windows, PT2PT_MAX_STEPS) : 0;
    if (vary)
        out_comment("windows: %zu to %zu, one column each", windows[0], windows[nwindows - 1]);
    if (type_choice != 0)
        out_comment("sizes that are not a whole number of elements are skipped (-T)");
    if (ddt.kind != OSU_DDT_NONE) {
        char text[256];
        osu_ddt_describe(&ddt, text, sizeof text);
        out_comment("%s; Transmit Size: the bytes it carries", text);
    }
    for (int t = first_type; t <= last_type; t++) {
        /* As OMB: whole elements of the type only; the later types of
         * -T all each start with their datatype line. */
        c.elem = type_mpi(t);
        c.elem_size = type_size(t);
        size_t nsizes = 0;
        for (size_t s = 0; s < nall; s++)
            if (all[s] % c.elem_size == 0 && all[s] / c.elem_size >= osu_ddt_min_count(&ddt))
                sizes[nsizes++] = all[s];
        if (nsizes == 0 && ddt.kind == OSU_DDT_INDEXED)
            err_usage("-D indx: its blocks span %zu elements, more than the largest message "
                      "(%zu bytes; raise -m)",
                      ddt.span, o.max_size);
        if (t != first_type)
            out_comment("Datatype: %s.", type_omb_name(t));
        osu_fields_datatype(type_omb_name(t));
        if (vary) {
            measure_matrix(b, &c, sizes, nsizes, windows, nwindows);
        } else if (laid_out()) {
            /* The heading, for every block: its table declared once. */
            osu_row_capture(heading, sizeof heading);
            print_columns(b, &c);
            osu_row_capture(NULL, 0);
            if (report_has_table("osu")) {
                report_key(ladder ? "ladder_ranks" : "group", REPORT_UNIT_COUNT);
                if (!ladder)
                    report_key("worst_group", REPORT_UNIT_BOOL);
            }
            if (ladder) {
                run_ladder(b, &c, sizes, nsizes);
            } else {
                group_rows_init(&rows, &layout, nsizes, rate_first(b), false);
                group_rows_announce(&rows, &groups, node_block, b->columns[0]);
                for (size_t s = 0; s < nsizes; s++)
                    measure_size_laid_out(b, &c, sizes[s], s);
                group_rows_blocks(&rows, heading, b->columns[0]);
                group_rows_free(&rows);
            }
        } else {
            print_columns(b, &c);
            for (size_t s = 0; s < nsizes; s++) {
                struct pt2pt_times t;
                measure_size(b, &c, sizes[s], &t);
            }
        }
    }
    osu_compat_notes(NULL);
    stop(b, &c);
    free(c.requests);
    free(c.statuses);
    free(iteration_times);
    free(iteration_values);
    buf_free(&c.send);
    buf_free(&c.recv);
    osu_ddt_free(&ddt);
    if (grouped())
        coll_layout_free(&layout);
    harness_finish(ERR_STATUS_OK);
}
