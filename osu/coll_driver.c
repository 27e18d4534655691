/* coll_driver: the one loop behind every collective benchmark; see coll.h. */
#include "coll.h"
#include "coll_busbw.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clocksync.h"
#include "coll_compute.h"
#include "coll_data.h"
#include "coll_groups.h"
#include "group_rows.h"
#include "coll_neighbor.h"
#include "osu_compat.h"
#include "osu_ddt.h"
#include "osu_defaults.h"
#include "pcoll.h"
#include "report.h"
#include "timewin.h"
#include "watchdog.h"

enum { ROOT_FIXED, ROOT_ROTATE };
/* -T: ours and OMB 7.4's names, the k-th and (k + 4)-th the same type;
 * all: one sweep with each of OMB's three (char, int, float), as OMB 7.4. */
static const char *const type_choices[] = {"char",     "int",     "float",     "double",
                                           "mpi_char", "mpi_int", "mpi_float", "mpi_double",
                                           "all",      NULL};
#define TYPE_ALL 8
#define COLL_MAX_TYPES 3

/* -l (OMB 7.4's --in-place): where the call takes MPI_IN_PLACE, by its
 * shape; OMB offers -l on exactly the calls that have one. */
enum in_place {
    IN_PLACE_NONE,
    IN_PLACE_SEND_ALL,  /* every rank's send buffer: allgather(v), alltoall(v, w),
                         * allreduce, reduce_scatter(_block) */
    IN_PLACE_SEND_ROOT, /* the root's send buffer: gather(v), reduce */
    IN_PLACE_RECV_ROOT, /* the root's receive buffer: scatter(v) */
};
static enum in_place in_place_kind(const struct coll_bench *b)
{
    if (b->no_data || b->neighbor || b->offload || b->send == COLL_NONE)
        return IN_PLACE_NONE;
    if (!b->rooted)
        return IN_PLACE_SEND_ALL;
    return b->send == COLL_PER_RANK ? IN_PLACE_RECV_ROOT : IN_PLACE_SEND_ROOT;
}
/* -k: fixed (rank 0), fixed:N or N (rank N, OMB 7.4's form), rotate. */
struct root_choice {
    int mode;
    size_t rank;
};
static int parse_root(const char *arg, void *dest, char *err, size_t errlen)
{
    struct root_choice *k = dest;
    if (strcmp(arg, "rotate") == 0) {
        k->mode = ROOT_ROTATE;
        return 0;
    }
    k->mode = ROOT_FIXED;
    k->rank = 0;
    if (strcmp(arg, "fixed") == 0)
        return 0;
    const char *n = strncmp(arg, "fixed:", 6) == 0 ? arg + 6 : arg;
    return opt_to_size(n, "root rank", 0, INT_MAX, &k->rank, err, errlen);
}

#define COLL_MAX_SIZES 130 /* doubling steps of a size_t, 0 included */

/* The parts of a non-blocking call timed apart, as OMB 7.4 reports them. */
enum { PART_COMPUTE, PART_INIT, PART_TEST, PART_WAIT, COLL_NPARTS };

struct coll_run {
    const struct coll_bench *b;
    struct osu_program prog;
    struct osu_opts o;
    struct coll_ctx c;
    int type_choice;          /* -T, index in type_choices */
    bool type_given;          /* -T was given (data movement moves bytes without it) */
    bool in_place;            /* -l */
    struct root_choice root;  /* -k */
    size_t tests;             /* -t: MPI_Test calls during the compute */
    bool per_iteration_max;   /* --per-iteration-max */
    bool tail;                /* -z: P50, P90, P99 of the rank-averaged iterations */
    size_t validation_warmup; /* -u: untimed calls before each validated one */
    bool check;               /* -c on a call that moves data */
    bool corrupt;             /* buf_corrupt_requested(rank): spoil one received element */
    bool failed;              /* -c: this rank found a wrong element in this size */
    char failure[256];        /* what and where, for the message after the row */
    size_t sizes[COLL_MAX_SIZES], nsizes;
    double *times, *pure_times, *scratch;
    double *values;             /* --stats, --samples: per-iteration values of the row (rank 0) */
    double *parts[COLL_NPARTS]; /* non-blocking: compute, start, tests, wait per call */
    unsigned char *recv_host; /* host copy of a device receive buffer, for -c */
    struct osu_ddt ddt;       /* -D on the calls that move data */
    unsigned char *carried;   /* -D: which elements of one block the type carries */
    struct coll_nbr nbr;      /* -N: the neighborhood collectives' topology */
    MPI_Request *persistent;  /* persistent programs: the request of each root in use */
    int timing;               /* --timing: TIMEWIN_BARRIER or TIMEWIN_WINDOW */
    double window_us;         /* --sync-window, 0: measured */
    struct clocksync clock;   /* window timing: the global clock */
    struct timewin win;       /* window timing: the schedule of a series */
    bool windowed;            /* the calls now running start in windows */
    /* Window timing, per series of the size (blocking: one; non-blocking:
     * pure communication, then overall): calls kept and missed, length. */
    size_t kept[2], missed[2];
    double length[2];
    enum busbw_kind busbw;    /* the program's collective for nccl-tests' bus bandwidth */
    struct precision_result precision; /* --precision: how the last series stopped */
    struct coll_groups_spec groups; /* --groups */
    bool ladder;              /* --np-ladder */
    size_t node_block;        /* --nodes-by-block: blocks of ranks as the nodes (0: memory) */
    bool laid_out;            /* --groups or --np-ladder: rows go to world rank 0 */
    struct coll_layout lay;   /* the groups now running (a ladder step: one) */
    struct group_rows rows;   /* their rows, to world rank 0 */
    char heading[GROUP_ROWS_TEXT]; /* the columns, printed in every block */
};

/* min, avg, max of a quantity, valid on rank 0. */
struct coll_stat {
    double min, avg, max;
};

void coll_fill_values(const struct coll_ctx *c, struct buf *b, int rank, size_t iter)
{
    size_t n = b->bytes / c->elem_size;
    void *host = b->ptr;
    if (b->where != BUF_HOST && !(host = malloc(b->bytes ? b->bytes : 1)))
        err_fatal("cannot allocate %zu bytes of host staging memory", b->bytes);
    for (size_t i = 0; i < n; i++)
        coll_store(c->type, host, i, coll_value(c, rank, iter, i));
    if (b->where != BUF_HOST) {
        buf_copy_in(b, 0, host, b->bytes);
        free(host);
    }
}

void coll_fill_zero(struct buf *b)
{
    if (b->ptr)
        buf_zero(b);
}

/* The in-place buffer of -l on this rank for the current root, or none. */
static enum in_place in_place_here(const struct coll_run *r)
{
    enum in_place k = r->in_place ? in_place_kind(r->b) : IN_PLACE_NONE;
    return k != IN_PLACE_SEND_ALL && r->c.rank != r->c.root ? IN_PLACE_NONE : k;
}

/* What the call passes as its buffers (coll.h: sendbuf, recvbuf). */
static void set_call_buffers(struct coll_run *r)
{
    struct coll_ctx *c = &r->c;
    enum in_place k = in_place_here(r);
    c->sendbuf = k == IN_PLACE_SEND_ALL || k == IN_PLACE_SEND_ROOT ? MPI_IN_PLACE
                                                                   : buf_mpi(&c->send);
    c->recvbuf = k == IN_PLACE_RECV_ROOT ? MPI_IN_PLACE : buf_mpi(&c->recv);
}

/* -l: the input that an in-place send buffer leaves in the receive buffer:
 * this rank's own block (allgather, gather), or all that its send buffer
 * would hold (the others, whose two buffers are alike). */
static void fill_in_place(struct coll_run *r, size_t iter)
{
    struct coll_ctx *c = &r->c;
    enum in_place k = in_place_here(r);
    if (k != IN_PLACE_SEND_ALL && k != IN_PLACE_SEND_ROOT)
        return;
    if (!(r->b->send == COLL_ONE && r->b->recv == COLL_PER_RANK)) {
        coll_fill_values(c, &c->recv, c->rank, iter);
        return;
    }
    size_t bytes = c->count * c->elem_size;
    void *block = c->recv.where == BUF_HOST ? (char *)c->recv.ptr + (size_t)c->rank * bytes
                                            : malloc(bytes ? bytes : 1);
    if (!block)
        err_fatal("cannot allocate %zu bytes of host staging memory", bytes);
    for (size_t i = 0; i < c->count; i++)
        coll_store(c->type, block, i, coll_value(c, c->rank, iter, i));
    if (c->recv.where != BUF_HOST) {
        buf_copy_in(&c->recv, (size_t)c->rank * bytes, block, bytes);
        free(block);
    }
}

static void fill_default(struct coll_ctx *c, size_t iter)
{
    if (c->send.ptr)
        coll_fill_values(c, &c->send, c->rank, iter);
    coll_fill_zero(&c->recv);
}

static void fill(struct coll_run *r, size_t iter)
{
    if (r->b->fill)
        r->b->fill(&r->c, iter);
    else
        fill_default(&r->c, iter);
    fill_in_place(r, iter);
}

/* Blocks of one size in a buffer of extent e: this rank's, or (most) the
 * largest any rank holds, which every rank allocates and -M counts. */
static size_t blocks(const struct coll_run *r, enum coll_extent e, bool most)
{
    if (r->b->neighbor)
        return coll_nbr_blocks(&r->nbr, e, r->c.nranks, most);
    return coll_blocks(e, r->c.nranks);
}

/* Checks every element the call wrote on this rank; false with a message at
 * the first wrong one. */
static bool check_recv(struct coll_run *r, size_t iter, char *msg, size_t len)
{
    struct coll_ctx *c = &r->c;
    size_t n = blocks(r, r->b->recv, false) * c->count;
    void *view = c->recv.ptr;
    if (c->recv.where != BUF_HOST) {
        buf_copy_out(r->recv_host, &c->recv, 0, n * c->elem_size);
        view = r->recv_host;
    }
    if (in_place_here(r) == IN_PLACE_RECV_ROOT)
        return true; /* -l: the root's own block stays in its send buffer */
    bool corrupt = r->corrupt;
    bool derived = r->ddt.kind != OSU_DDT_NONE;
    for (size_t i = 0; i < n; i++) {
        double want;
        if ((derived && !r->carried[i % c->count]) || !r->b->expect(c, iter, i, &want))
            continue;
        if (corrupt) {
            coll_store(c->type, view, i, want == 0 ? 1 : 0);
            corrupt = false;
        }
        double got = coll_load(c->type, view, i);
        if (got != want) {
            snprintf(msg, len,
                     "validation failed at size %zu (iteration %zu): rank %d receive element "
                     "%zu is %.0f, expected %.0f",
                     c->size, iter, c->rank, i, got, want);
            return false;
        }
    }
    return true;
}

/* The call itself: --staging moves what it reads (the send buffer, or the
 * only buffer of a broadcast) off the device before it and what it wrote
 * back after it; a non-blocking one is started, computes beside it when
 * parts is given (the times of its parts, from t0, go to parts[k][slot])
 * and is waited for. */
static void issue_call(struct coll_run *r, double t0, double compute_s, double *const *parts,
                       size_t slot)
{
    struct coll_ctx *c = &r->c;
    set_call_buffers(r);
    buf_stage_out(c->send.ptr ? &c->send : &c->recv, 0,
                  c->send.ptr ? c->send.bytes : c->recv.bytes);
    if (c->sendbuf == MPI_IN_PLACE) /* -l: the input is in the receive buffer */
        buf_stage_out(&c->recv, 0, c->recv.bytes);
    if (r->b->call) {
        r->b->call(c);
    } else if (r->b->init) {
        MPI_Request *req = &r->persistent[c->root];
        MPI_CHECK(MPI_Start(req));
        MPI_CHECK(MPI_Wait(req, MPI_STATUS_IGNORE));
    } else {
        MPI_Request req;
        r->b->start(c, &req);
        double t1 = timing_now(), tests = 0;
        double computed = parts ? coll_compute(compute_s, &req, r->tests, &tests) : 0;
        double t2 = timing_now();
        MPI_CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        if (parts) {
            parts[PART_COMPUTE][slot] = computed;
            parts[PART_INIT][slot] = t1 - t0;
            parts[PART_TEST][slot] = tests;
            parts[PART_WAIT][slot] = timing_now() - t2;
        }
    }
    buf_stage_in(&c->recv, 0, c->recv.bytes);
}

/* One call of the collective: -u's untimed calls and the validation data
 * before it (outside the timed region; the untimed calls run before the
 * fill, so what they deliver cannot pass for the timed call's), the timed
 * call, the check, and what separates it from the next call: a barrier, or
 * under window timing the wait for its window (slot) before it. Returns its
 * time on this rank; with parts (non-blocking), the times of its parts go to
 * parts[k][slot]. */
static double one_call(struct coll_run *r, size_t iter, bool validate, double compute_s,
                       double *const *parts, size_t slot)
{
    struct coll_ctx *c = &r->c;
    c->root = r->root.mode == ROOT_ROTATE ? (int)(iter % (size_t)c->nranks) : (int)r->root.rank;
    if (validate) {
        for (size_t i = 0; i < r->validation_warmup; i++) {
            MPI_CHECK(MPI_Barrier(c->comm));
            issue_call(r, timing_now(), 0, NULL, 0);
        }
        fill(r, iter);
        if (!r->windowed)
            MPI_CHECK(MPI_Barrier(c->comm));
    }
    if (r->windowed)
        timewin_wait(&r->win, slot);
    double t0 = timing_now();
    issue_call(r, t0, compute_s, parts, slot);
    straggler_test_delay();
    if (r->windowed)
        timewin_end(&r->win, slot);
    double t = timing_now() - t0;
    /* The first wrong element is kept; the ranks agree after the size. */
    if (validate && !r->failed)
        r->failed = !check_recv(r, iter, r->failure, sizeof r->failure);
    if (!r->windowed)
        MPI_CHECK(MPI_Barrier(c->comm));
    return t;
}

/* Window timing: the length from TIMEWIN_TRIALS calls as the series will
 * make them, each between barriers and timed whole on every rank (the
 * barrier's wait included, which errs on the long side). Their parts go to
 * slot 0, which the series overwrites: a series may hold fewer calls than
 * there are trials. */
static void size_window(struct coll_run *r, size_t iter, double compute_s, double *const *parts)
{
    double busy[TIMEWIN_TRIALS];
    for (size_t i = 0; i < TIMEWIN_TRIALS && r->window_us <= 0; i++) {
        double t0 = timing_now();
        one_call(r, iter + i, r->check, compute_s, parts, 0);
        busy[i] = timing_now() - t0;
    }
    timewin_size(&r->win, busy, TIMEWIN_TRIALS, r->window_us * 1e-6);
}

/* One series of n calls (iterations iter, iter + 1, ...). Barrier timing:
 * times[] gets this rank's time of each, and n is returned. Window timing:
 * the window is sized, the calls run in windows (again with a longer one
 * when most were missed), times[] gets on rank 0 the times of the calls no
 * rank missed, their number is returned and noted for the series' report. */
static size_t run_series(struct coll_run *r, size_t n, size_t iter, double compute_s,
                         double *const *parts, double *times, int series)
{
    if (r->timing == TIMEWIN_BARRIER) {
        for (size_t i = 0; i < n; i++)
            times[i] = one_call(r, iter + i, r->check, compute_s, parts, i);
        return n;
    }
    size_window(r, iter, compute_s, parts);
    int attempt = 0;
    size_t kept, missed;
    do {
        r->windowed = true;
        timewin_begin(&r->win);
        for (size_t i = 0; i < n; i++)
            one_call(r, iter + i, r->check, compute_s, parts, i);
        r->windowed = false;
        kept = timewin_collect(&r->win, 0, n, times, &missed);
    } while (timewin_widen(&r->win, missed, n, &attempt));
    if (kept == 0)
        err_exit_all(ERR_STATUS_FAIL,
                     "size %zu: every call missed its window, the last %.2f us long; give a "
                     "longer one with --sync-window",
                     r->c.size, r->win.length * 1e6);
    r->kept[series] = kept;
    r->missed[series] = missed;
    r->length[series] = r->win.length;
    return kept;
}

/* One batch of an adaptive series (precision.h): iterations first ..
 * first + n - 1 of the series, their times (and parts) at first. */
struct coll_batch {
    struct coll_run *r;
    size_t iter;
    double compute_s;
    double *const *parts;
    double *times;
    int series;
};

static void run_batch(void *arg, size_t first, size_t n)
{
    struct coll_batch *a = arg;
    double *parts[COLL_NPARTS];
    for (size_t k = 0; a->parts && k < COLL_NPARTS; k++)
        parts[k] = a->parts[k] + first;
    run_series(a->r, n, a->iter + first, a->compute_s, a->parts ? parts : NULL,
               a->times + first, a->series);
}

/* A series of the size's iterations: floor calls, or with --precision
 * batches until precise (barrier timing only: every call's time is on
 * every rank). Returns the calls whose times are in times. */
static size_t run_measured(struct coll_run *r, size_t floor, size_t cap, size_t iter,
                           double compute_s, double *const *parts, double *times, int series)
{
    if (!precision_on())
        return run_series(r, floor, iter, compute_s, parts, times, series);
    struct coll_batch a = {r, iter, compute_s, parts, times, series};
    return precision_measure(floor, cap, times, true, PRECISION_MEAN, r->c.comm, run_batch, &a,
                             &r->precision);
}

/* The OSU statistics (each rank's average, then across ranks) or, with
 * --per-iteration-max, each iteration's slowest rank, then over iterations;
 * of window times (global: one per call, on rank 0), min/avg/max of those. */
static void summarize(struct coll_run *r, const double *local, size_t n, bool global,
                      struct coll_stat *s)
{
    if (global) {
        if (r->c.rank == 0)
            *s = (struct coll_stat){stats_min(local, n), stats_mean(local, n),
                                    stats_max(local, n)};
        return;
    }
    if (!r->per_iteration_max) {
        timing_across_ranks(stats_mean(local, n), &s->min, &s->avg, &s->max, 0, r->c.comm);
        return;
    }
    timing_max_per_iteration(local, r->scratch, n, 0, r->c.comm);
    if (r->c.rank != 0)
        return;
    s->min = stats_min(r->scratch, n);
    s->max = stats_max(r->scratch, n);
    s->avg = stats_mean(r->scratch, n);
}

/* Each iteration's time over the ranks, in us, into out on rank 0: the
 * mean over the ranks, or with slowest their maximum. Collective. */
static void combine_over_ranks(const struct coll_run *r, const double *local, size_t n,
                               bool slowest, double *out)
{
    MPI_CHECK(MPI_Reduce(local, out, (int)n, MPI_DOUBLE, slowest ? MPI_MAX : MPI_SUM, 0,
                         r->c.comm));
    if (r->c.rank != 0)
        return;
    double scale = slowest ? 1e6 : 1e6 / r->c.nranks;
    for (size_t i = 0; i < n; i++)
        out[i] *= scale;
}

/* The row's iteration count and, with --stats or --samples, its first
 * column per iteration: the iterations' times over the ranks as the row
 * combines them (mean, or slowest with --per-iteration-max); with window
 * timing rank 0's time of each call kept, which is one for all ranks. */
static void add_measured(struct coll_run *r, const double *local, size_t n, struct osu_row *row)
{
    bool keep = report_per_iteration();
    if (keep && r->timing == TIMEWIN_WINDOW)
        for (size_t i = 0; r->c.rank == 0 && i < n; i++)
            r->values[i] = local[i] * 1e6;
    else if (keep)
        combine_over_ranks(r, local, n, r->per_iteration_max, r->values);
    /* Only rank 0 has them: a group's first rank builds its row too. */
    osu_row_measured(row, n, keep && r->c.rank == 0 ? r->values : NULL);
    osu_row_precision(row, &r->precision);
    /* Window times are one per call for all ranks: no rank's own. */
    if (report_stats() && r->timing != TIMEWIN_WINDOW)
        straggler_find(local, n, true, r->c.comm, &row->straggler);
}

/* -z as OMB 7.4 computes it: each iteration's time averaged over the
 * ranks, then the percentiles of those (rank 0 adds them to the row); window
 * times are one per call already. */
static void add_tail(struct coll_run *r, const double *local, size_t n, struct osu_row *row)
{
    if (!r->tail)
        return;
    bool global = r->timing == TIMEWIN_WINDOW;
    if (!global)
        MPI_CHECK(MPI_Reduce(local, r->scratch, (int)n, MPI_DOUBLE, MPI_SUM, 0, r->c.comm));
    if (r->c.rank != 0)
        return;
    for (size_t i = 0; i < n; i++)
        r->scratch[i] = (global ? local[i] : r->scratch[i] / r->c.nranks) * 1e6;
    double tail[OSU_NTAIL];
    osu_tail_values(r->scratch, n, tail);
    for (size_t k = 0; k < OSU_NTAIL; k++)
        osu_row_trailing(row, tail[k]);
}

static void row_start(const struct coll_run *r, struct osu_row *row)
{
    if (r->b->no_data)
        osu_row_begin_unsized(row, r->b->start ? "Overall(us)" : "Avg Latency(us)");
    else
        osu_row_begin(row, r->c.size);
}

/* Window timing: after each row, a '#' line with the calls kept and missed
 * and the window's length (a line every parser skips, so the row stays
 * OMB's). */
static void report_windows(const struct coll_run *r)
{
    if (r->timing != TIMEWIN_WINDOW)
        return;
    char what[64] = "";
    if (!r->b->no_data)
        snprintf(what, sizeof what, "size %zu: ", r->c.size);
    if (!r->b->start)
        out_comment("window: %s%zu calls kept, %zu missed (left out), window %.2f us", what,
                    r->kept[0], r->missed[0], r->length[0] * 1e6);
    else
        out_comment("window: %spure comm. %zu calls kept, %zu missed, window %.2f us; "
                    "overall %zu kept, %zu missed, window %.2f us",
                    what, r->kept[0], r->missed[0], r->length[0] * 1e6, r->kept[1], r->missed[1],
                    r->length[1] * 1e6);
}

static void row_finish(const struct coll_run *r, struct osu_row *row, const struct coll_stat *t,
                       size_t n)
{
    if (r->ddt.kind != OSU_DDT_NONE)
        osu_row_trailing_count(row, osu_ddt_carried(&r->ddt, r->c.count) * r->c.elem_size);
    if (r->o.full && t) {
        osu_row_value(row, t->min * 1e6);
        osu_row_value(row, t->max * 1e6);
        osu_row_count(row, n);
    }
    if (r->laid_out && r->check) {
        /* The group's own verdict in its row; the world's comes after the
         * rows are gathered (group_rows_measure), where every rank takes part. */
        osu_row_end_group_checked(row, r->failed, r->c.comm);
    } else {
        osu_row_end_checked(row, r->check, r->failed, NULL, NULL, "%s", r->failure);
    }
    report_windows(r);
}

/* JSON rows only (the text stays OMB's): the algorithm and bus bandwidth
 * of the row's average time, where the collective has them. */
static void add_busbw(const struct coll_run *r, double seconds)
{
    double alg, bus;
    if (!report_row_open() ||
        !busbw_of(r->busbw, r->c.size, r->c.nranks, seconds, &alg, &bus))
        return;
    report_row_double("algbw_mb_s", alg);
    report_row_double("busbw_mb_s", bus);
}

static void measure_blocking(struct coll_run *r, size_t floor, size_t cap)
{
    size_t kept = run_measured(r, floor, cap, 0, 0, NULL, r->times, 0);
    bool global = r->timing == TIMEWIN_WINDOW;
    struct coll_stat t;
    summarize(r, r->times, kept, global, &t);
    struct osu_row row;
    row_start(r, &row);
    osu_row_value(&row, t.avg * 1e6);
    add_busbw(r, t.avg);
    add_tail(r, r->times, kept, &row);
    add_measured(r, r->times, kept, &row);
    row_finish(r, &row, &t, kept);
}

/* Window timing makes every rank compute as long as the pure
 * communication's mean window time; otherwise (OMB's rule) each rank
 * computes as long as its own communication took. */
static double compute_time(struct coll_run *r, const double *pure, size_t kept)
{
    if (r->timing == TIMEWIN_BARRIER)
        return stats_mean(pure, kept);
    double s = r->c.rank == 0 ? stats_mean(pure, kept) : 0;
    MPI_CHECK(MPI_Bcast(&s, 1, MPI_DOUBLE, 0, r->c.comm));
    return s;
}

static void measure_nonblocking(struct coll_run *r, size_t floor, size_t cap)
{
    size_t pure_kept = run_measured(r, floor, cap, 0, 0, NULL, r->pure_times, 0);
    double compute_s = compute_time(r, r->pure_times, pure_kept);
    size_t second = precision_on() ? pure_kept : floor; /* the series' first iteration */
    size_t kept = run_measured(r, floor, cap, second, compute_s, r->parts, r->times, 1);
    size_t n = precision_on() ? kept : floor; /* the calls made, missed ones too */
    bool global = r->timing == TIMEWIN_WINDOW;
    struct coll_stat overall, pure, part[COLL_NPARTS];
    summarize(r, r->times, kept, global, &overall);
    summarize(r, r->pure_times, pure_kept, global, &pure);
    for (int k = 0; k < COLL_NPARTS; k++)
        summarize(r, r->parts[k], n, false, &part[k]);
    struct osu_row row;
    row_start(r, &row);
    osu_row_value(&row, overall.avg * 1e6);
    add_busbw(r, overall.avg);
    osu_row_value(&row, part[PART_COMPUTE].avg * 1e6);
    if (r->o.full) {
        osu_row_value(&row, part[PART_INIT].avg * 1e6);
        osu_row_value(&row, part[PART_TEST].avg * 1e6);
        osu_row_value(&row, part[PART_WAIT].avg * 1e6);
    }
    osu_row_value(&row, pure.avg * 1e6);
    if (r->o.full) {
        osu_row_value(&row, pure.min * 1e6);
        osu_row_value(&row, pure.max * 1e6);
    }
    osu_row_value(&row, coll_overlap(overall.avg, part[PART_COMPUTE].avg, pure.avg));
    add_tail(r, r->times, kept, &row);
    add_measured(r, r->times, kept, &row);
    row_finish(r, &row, NULL, n);
}

/* Counts, displacements and message types for the current size. */
static void prepare_size(struct coll_run *r, size_t size)
{
    struct coll_ctx *c = &r->c;
    c->size = size;
    c->count = size / c->elem_size;
    c->icount = c->count <= (size_t)INT_MAX ? (int)c->count : -1;
    c->send.bytes = blocks(r, r->b->send, false) * size;
    c->recv.bytes = blocks(r, r->b->recv, false) * size;
    char why[256];
    if (r->b->reduction) {
        c->msg = (struct msg_type){c->elem, c->icount, 0};
    } else if (r->ddt.kind != OSU_DDT_NONE) {
        if (osu_ddt_make(&r->ddt, c->count, c->elem, c->elem_size, &c->msg, why, sizeof why))
            err_usage("message size %zu: %s", size, why);
        osu_ddt_mark(&r->ddt, c->count, r->carried);
    } else if (msg_type_make(c->count, c->elem, &c->msg) != 0) {
        err_fatal("cannot build an MPI datatype for %zu bytes", size);
    }
    /* In units of the message's type: elements, or -D's one type per block
     * (its extent is the block's size). */
    if (r->b->vector && !r->b->neighbor)
        for (int i = 0; i < c->nranks; i++) {
            c->counts[i] = c->msg.count;
            c->displs[i] = i * c->msg.count;
        }
    if (r->b->neighbor)
        coll_nbr_prepare(&r->nbr, c);
    if (r->b->prepare)
        r->b->prepare(c);
}

/* Persistent programs: the requests of this size, made before its warm-up
 * as OMB 7.4 makes them, one per root the calls will use (-k rotate: every
 * rank). */
static void persistent_begin(struct coll_run *r)
{
    struct coll_ctx *c = &r->c;
    bool every_root = r->b->rooted && r->root.mode == ROOT_ROTATE;
    for (int root = 0; root < c->nranks; root++) {
        r->persistent[root] = MPI_REQUEST_NULL;
        if (every_root || (size_t)root == r->root.rank) {
            c->root = root;
            set_call_buffers(r);
            r->b->init(c, &r->persistent[root]);
        }
    }
}

static void persistent_end(struct coll_run *r)
{
    for (int root = 0; root < r->c.nranks; root++)
        if (r->persistent[root] != MPI_REQUEST_NULL)
            MPI_CHECK(MPI_Request_free(&r->persistent[root]));
}

static void measure_size(struct coll_run *r, size_t size)
{
    if (r->b->no_data)
        watchdog_arm(NULL, "size %zu", size);
    else
        watchdog_arm(NULL, "size %zu (%s)", size, coll_type_label(r->c.type));
    prepare_size(r, size);
    r->failed = false;
    fill(r, 0);
    if (r->b->init)
        persistent_begin(r);
    size_t floor, cap;
    osu_precision_counts(&r->o, &r->prog, size, &floor, &cap);
    size_t warm = osu_warmup(&r->o, &r->prog, size);
    watchdog_enter_phase("the warm-up calls");
    for (size_t i = 0; i < warm; i++)
        one_call(r, i, false, 0, NULL, 0);
    watchdog_leave();
    if (r->timing == TIMEWIN_WINDOW)
        clocksync_refresh(&r->clock);
    watchdog_enter_phase("the timed calls");
    if (r->b->start)
        measure_nonblocking(r, floor, cap);
    else
        measure_blocking(r, floor, cap);
    watchdog_leave();
    if (r->b->init)
        persistent_end(r);
    msg_type_free(&r->c.msg);
    watchdog_disarm();
}

/* The element types of the sweeps: -T's one or, for all, OMB 7.4's three;
 * without -T the data-moving calls move bytes, and they move a char as a
 * byte (the same MPI_CHAR line, and any pattern value fits). */
static size_t sweep_types(const struct coll_run *r, enum coll_type *types)
{
    size_t n = 1;
    if (r->b->no_data || (!r->b->reduction && !r->type_given)) {
        types[0] = COLL_BYTE;
    } else if (r->type_choice == TYPE_ALL) {
        types[0] = COLL_CHAR;
        types[1] = COLL_INT;
        types[2] = COLL_FLOAT;
        n = 3;
    } else {
        types[0] = (enum coll_type)(r->type_choice % 4);
    }
    for (size_t t = 0; t < n && !r->b->reduction; t++)
        if (types[t] == COLL_CHAR)
            types[t] = COLL_BYTE;
    return n;
}

static void set_type(struct coll_run *r, enum coll_type t)
{
    struct coll_ctx *c = &r->c;
    c->type = t;
    c->elem = coll_type_mpi(t);
    c->elem_size = coll_type_size(t);
    c->value_max = coll_value_max(t, r->b->reduction, c->nranks);
    c->summed = r->b->reduction;
}

/* What --groups and --np-ladder do not take (every rank reads the same). */
static void check_layout_options(struct coll_run *r)
{
    const char *which = coll_groups_check_options(&r->groups, r->node_block, r->ladder);
    r->laid_out = which != NULL;
    if (!r->laid_out)
        return;
    bool groups = r->groups.kind != COLL_GROUPS_NONE;
    if (r->timing == TIMEWIN_WINDOW)
        err_usage("%s takes --timing=barrier only", which);
    if (groups && r->type_choice == TYPE_ALL)
        err_usage("--groups takes one element type: -T all is not taken");
}

static void parse_options(struct coll_run *r, int argc, char **argv)
{
    const struct coll_bench *b = r->b;
    r->prog = (struct osu_program){
        .title = b->title,
        .synopsis = "[options]",
        .description = b->description,
        .min_size = 1,
        .max_size = (size_t)1 << 20,
        .iter_small = 1000,
        .warm_small = 100,
        .iter_large = 100,
        .warm_large = 10,
        .large_threshold = 8192,
        .offload = b->offload,
    };
    r->type_choice = -1; /* not given: settled by the defaults after parsing */
    struct opt_spec extra[20];
    size_t nextra = 0;
    extra[nextra++] = osu_tail_option(&r->tail);
    extra[nextra++] = osu_validation_warmup_option(&r->validation_warmup);
    extra[nextra++] = (struct opt_spec){
        .long_name = "per-iteration-max", .kind = OPT_FLAG, .dest = &r->per_iteration_max,
        .help = "each iteration lasts until its slowest rank is done; min/avg/max over "
                "iterations"};
    if (!b->no_data)
        extra[nextra++] = (struct opt_spec){
            .long_name = "type", .short_name = 'T', .kind = OPT_CHOICE, .dest = &r->type_choice,
            .metavar = "[mpi_]char|int|float|double|all",
            .help = b->reduction ? "element type of the sum (default char; the seed's float); "
                                   "all: a sweep with each of char, int, float"
                                 : "element type of the blocks (default bytes, MPI_CHAR); all: "
                                   "a sweep with each of char, int, float",
            .choices = type_choices};
    if (in_place_kind(b) != IN_PLACE_NONE)
        extra[nextra++] = (struct opt_spec){
            .long_name = "in-place", .short_name = 'l', .kind = OPT_FLAG, .dest = &r->in_place,
            .help = "MPI_IN_PLACE where OMB 7.4 passes it (every rank's send buffer; the "
                    "root's of gather and reduce, its receive buffer of scatter)"};
    extra[nextra++] = osu_compat_array_option();
    extra[nextra++] = osu_compat_graph_option();
    if (b->rooted)
        extra[nextra++] = (struct opt_spec){
            .long_name = "root", .short_name = 'k', .kind = OPT_CUSTOM, .dest = &r->root,
            .parse = parse_root,
            .metavar = "fixed|fixed:N|N|rotate",
            .help = "root rank 0 (default), rank N, or iteration i at rank i mod ranks"};
    if (b->rooted) {
        extra[nextra] = osu_alias(&extra[nextra - 1], "root-rank");
        nextra++;
    }
    if (b->start)
        extra[nextra++] = (struct opt_spec){
            .long_name = "tests", .short_name = 't', .kind = OPT_SIZE, .dest = &r->tests,
            .metavar = "N", .help = "MPI_Test calls spread through the compute (default 0)",
            .max = 1000000};
    if (b->start) {
        extra[nextra] = osu_alias(&extra[nextra - 1], "num-test-calls");
        nextra++;
    }
    if (!b->reduction && !b->no_data && !b->offload)
        extra[nextra++] = osu_ddt_option(&r->ddt);
    if (b->neighbor)
        extra[nextra++] = coll_nbr_option(&r->nbr);
    extra[nextra++] = timewin_timing_option(&r->timing);
    extra[nextra++] = timewin_length_option(&r->window_us);
    /* The neighborhood collectives' topology spans the world, and so does
     * an offload library's communicator: no groups. */
    if (!b->neighbor && !b->offload) {
        coll_groups_options(extra + nextra, &r->groups, &r->node_block, &r->ladder);
        nextra += COLL_GROUPS_NOPTIONS;
    }
    osu_parse(&r->o, &r->prog, argc, argv, extra, nextra); /* starts MPI (-I: a session) */
    r->type_given = r->type_choice >= 0;
    if (r->type_choice < 0)
        r->type_choice = osu_seed_defaults() || b->offload ? COLL_FLOAT : COLL_CHAR;
    r->c.comm = harness.comm;
    r->c.rank = harness.rank;
    r->c.nranks = harness.size;
    if (r->o.first_positional < argc)
        err_usage("unexpected argument '%s' (try --help)", argv[r->o.first_positional]);
    if (b->rooted && r->root.rank >= (size_t)r->c.nranks)
        err_usage("root rank %zu: there are only %d ranks (-k)", r->root.rank, r->c.nranks);
    timewin_check_options(r->timing, r->window_us);
    if (r->timing == TIMEWIN_WINDOW && r->per_iteration_max)
        err_usage("--per-iteration-max applies to --timing=barrier (a window time already ends "
                  "at the slowest rank's finish)");
    r->check = r->o.validate && !b->no_data;
    r->corrupt = r->check && buf_corrupt_requested(r->c.rank);
    check_layout_options(r);
    precision_settle(r->timing == TIMEWIN_WINDOW
                         ? "window timing keeps only the calls no rank missed, on rank 0: "
                           "use --timing=barrier"
                         : NULL);
}

/* Whether a size of the sweep is measured with elements of elem bytes: it
 * carries its whole elements (size / elem), as OMB 7.4 counts them, and
 * needs one at least (and what -D's type spans); size 0 (-m 0:) stays,
 * without -D, a call of no element. */
static bool size_kept(const struct coll_run *r, size_t size, size_t elem)
{
    size_t least = osu_ddt_min_count(&r->ddt);
    if (size == 0)
        return least == 0;
    return size / elem >= (least > 1 ? least : 1);
}

/* -M capping, then the doubling sweep (each size of at least one element,
 * which it carries whole, as OMB 7.4), and refusal of sizes the MPI calls
 * cannot express. A later sweep of -T all (later) may be empty. */
static void plan_sizes(struct coll_run *r, bool later)
{
    struct coll_ctx *c = &r->c;
    struct osu_opts *o = &r->o;
    r->nsizes = 0;
    if (r->b->no_data) {
        r->sizes[r->nsizes++] = 0;
        return;
    }
    size_t nblocks = blocks(r, r->b->send, true) + blocks(r, r->b->recv, true);
    if (!osu_cap_to_memory(o, nblocks))
        err_usage("the memory limit of %zu bytes per process (-M) cannot hold the smallest "
                  "message size %zu at %d ranks (%zu buffers of that size)",
                  o->mem_limit, o->min_size, c->nranks, nblocks);
    size_t all[COLL_MAX_SIZES];
    size_t nall = sweep_doubling(o->min_size, o->max_size, all, COLL_MAX_SIZES);
    for (size_t i = 0; i < nall; i++)
        if (size_kept(r, all[i], c->elem_size))
            r->sizes[r->nsizes++] = all[i];
    if (r->nsizes == 0 && later)
        return;
    if (r->nsizes == 0 && r->ddt.kind == OSU_DDT_INDEXED)
        err_usage("-D indx: its blocks span %zu elements, more than the largest message (%zu "
                  "bytes; raise -m)",
                  r->ddt.span, o->max_size);
    if (r->nsizes == 0)
        err_usage("no message size from %zu to %zu bytes holds one %zu-byte %s element",
                  o->min_size, o->max_size, c->elem_size, coll_type_label(c->type));
    size_t largest = r->sizes[r->nsizes - 1], count = largest / c->elem_size;
    if (r->b->reduction && count > (size_t)INT_MAX)
        err_usage("message size %zu bytes is %zu %s elements: MPI reductions take an int "
                  "count (at most %d); lower -m",
                  largest, count, coll_type_label(c->type), INT_MAX);
    if (r->b->neighbor)
        coll_nbr_check_count(&r->nbr, r->b->vector, largest, count);
    else if (r->b->vector && count > (size_t)INT_MAX / (size_t)c->nranks)
        err_usage("message size %zu bytes at %d ranks needs counts and displacements beyond "
                  "the int range of the v-collectives (at most %zu bytes per rank); lower -m",
                  largest, c->nranks, (size_t)INT_MAX / (size_t)c->nranks);
}

/* Before the first table: how sizes become elements, where some size of
 * one of the sweeps is below one element or not a whole number of them. */
static void print_sizes_note(const struct coll_run *r, const enum coll_type *types,
                             size_t ntypes)
{
    if (r->b->no_data || r->ddt.kind == OSU_DDT_INDEXED)
        return;
    size_t all[COLL_MAX_SIZES];
    size_t nall = sweep_doubling(r->o.min_size, r->o.max_size, all, COLL_MAX_SIZES);
    for (size_t t = 0; t < ntypes; t++) {
        size_t elem = coll_type_size(types[t]);
        for (size_t i = 0; i < nall; i++)
            if (all[i] % elem || !size_kept(r, all[i], elem)) {
                out_comment("a size carries its whole elements (size / element size), and "
                            "sizes below one element are skipped, as in OMB 7.4");
                return;
            }
    }
}

static void *alloc_all(size_t bytes, MPI_Comm comm)
{
    void *p = malloc(bytes ? bytes : 1);
    err_any(comm, p == NULL, ERR_STATUS_USAGE, "cannot allocate %zu bytes of host memory for "
            "the iteration times and validation (lower -i or -m)", bytes);
    return p;
}

static void allocate(struct coll_run *r)
{
    struct coll_ctx *c = &r->c;
    size_t n = 0;
    for (size_t i = 0; i < r->nsizes; i++) {
        size_t floor, cap;
        osu_precision_counts(&r->o, &r->prog, r->sizes[i], &floor, &cap);
        n = cap > n ? cap : n;
    }
    size_t arrays = 4 + COLL_NPARTS;
    if (n > SIZE_MAX / (arrays * sizeof(double)))
        err_usage("too many iterations: %zu", n);
    r->times = alloc_all(arrays * n * sizeof(double), c->comm);
    r->pure_times = r->times + n;
    r->scratch = r->times + 2 * n;
    r->values = r->times + 3 * n;
    for (size_t k = 0; k < COLL_NPARTS; k++)
        r->parts[k] = r->times + (4 + k) * n;
    if (r->timing == TIMEWIN_WINDOW)
        timewin_init(&r->win, &r->clock, n);
    c->counts = alloc_all(2 * (size_t)c->nranks * sizeof(int), c->comm);
    c->displs = c->counts + c->nranks;
    c->types = alloc_all((size_t)c->nranks * sizeof(MPI_Datatype), c->comm);
    if (r->b->init)
        r->persistent = alloc_all((size_t)c->nranks * sizeof(MPI_Request), c->comm);
    if (r->b->no_data)
        return;
    size_t largest = r->sizes[r->nsizes - 1];
    enum buf_where where = r->o.where[0];
    if (r->b->send != COLL_NONE)
        buf_alloc_all(&c->send, blocks(r, r->b->send, true) * largest, where, c->comm);
    size_t recv_bytes = blocks(r, r->b->recv, true) * largest;
    buf_alloc_all(&c->recv, recv_bytes, where, c->comm);
    if (where != BUF_HOST && r->o.validate)
        r->recv_host = alloc_all(recv_bytes, c->comm);
    if (r->ddt.kind != OSU_DDT_NONE)
        r->carried = alloc_all(largest / c->elem_size, c->comm);
}

/* What window timing means here, and the clock model's quality (collective). */
static void print_window_header(const struct coll_run *r)
{
    out_comment("timing: window: every call starts when the global clock (rank 0's) reaches "
                "its window's start, no barrier; its time runs from that start to the last "
                "rank's finish; calls a rank reached after their start are left out and "
                "counted ('# window:' after each row)");
    clocksync_describe(&r->clock);
    timewin_describe(&r->win, r->window_us, "calls");
    out_comment("statistics: min/avg/max over the calls kept");
    if (r->b->start)
        out_comment("window timing applies to both series: Overall and Pure Comm. (min/max "
                    "over the calls kept) are window times; the compute lasts the pure "
                    "communication's mean window time on every rank; Compute, Coll. Init, "
                    "MPI_Test and MPI_Wait stay each rank's own averages over all calls");
}

/* The reduction's line of the current type. */
static void print_reduction(const struct coll_run *r)
{
    if (r->b->reduction)
        out_comment("reduction: %s over %s elements; send values 0 to %u keep every sum exact",
                    r->b->offload ? "the library's sum" : "MPI_SUM", coll_type_label(r->c.type),
                    r->c.value_max);
}

static void print_heading(const struct coll_run *r);

static void print_header(const struct coll_run *r)
{
    bool corrupt = r->check && buf_corrupt_rank() >= 0;
    const struct coll_bench *b = r->b;
    const struct coll_ctx *c = &r->c;
    print_reduction(r);
    if (b->rooted) {
        if (r->root.mode == ROOT_ROTATE && r->laid_out)
            out_comment("root: rotating, iteration i uses rank i mod the ranks of its group");
        else if (r->root.mode == ROOT_ROTATE)
            out_comment("root: rotating, iteration i uses rank i mod %d", c->nranks);
        else
            out_comment("root: rank %zu", r->root.rank);
    }
    if (b->neighbor)
        coll_nbr_print(&r->nbr, c->nranks);
    if (r->timing == TIMEWIN_WINDOW)
        print_window_header(r);
    else if (r->per_iteration_max)
        out_comment("statistics: each iteration lasts until its slowest rank is done; "
                    "min/avg/max over iterations");
    else
        out_comment("statistics: each rank's average over the iterations; min/avg/max of "
                    "those across ranks");
    if (b->init)
        out_comment("persistent: the request is made once per size%s, outside the timing; "
                    "each call is MPI_Start and MPI_Wait (%s)",
                    b->rooted && r->root.mode == ROOT_ROTATE ? " and root" : "", PCOLL_SOURCE);
    if (b->start) {
        out_comment("compute: a busy loop as long as the rank's pure communication time, "
                    "with %zu MPI_Test calls spread through it (timed apart)",
                    r->tests);
        out_comment("overlap(%%) = max(0, 100 - 100 * (overall - compute) / pure comm.)");
    }
    if (r->tail)
        out_comment("tail (-z): percentiles of %s", r->timing == TIMEWIN_WINDOW
                                                         ? "the window times of the calls kept"
                                                         : "the iterations' times averaged over "
                                                           "the ranks");
    if (r->check && r->validation_warmup)
        out_comment("validation warm-up (-u): %zu untimed calls before each timed one",
                    r->validation_warmup);
    if (b->no_data && r->o.validate)
        out_comment("validation: the call moves no data, there is nothing to check");
    if (r->ddt.kind != OSU_DDT_NONE) {
        char text[256];
        osu_ddt_describe(&r->ddt, text, sizeof text);
        out_comment("%s; Transmit Size: the bytes it carries per block", text);
    }
    if (r->in_place) {
        enum in_place k = in_place_kind(b);
        out_comment("in place (-l): MPI_IN_PLACE as %s",
                    k == IN_PLACE_SEND_ALL
                        ? "every rank's send buffer, its input in its receive buffer"
                    : k == IN_PLACE_SEND_ROOT
                        ? "the root's send buffer, its input in its receive buffer"
                        : "the root's receive buffer, its own block left in its send buffer "
                          "(nothing to check there)");
    }
    if (corrupt)
        out_comment("warning: COMMSWEEP_CORRUPT=1: receive buffers are corrupted on purpose, "
                    "validation must fail");
    print_heading(r);
}

/* The column heading (again before each later sweep of -T all). */
static void print_heading(const struct coll_run *r)
{
    const struct coll_bench *b = r->b;
    static const char *const blocking[] = {"Avg Latency(us)"};
    static const char *const nonblocking[] = {"Overall(us)", "Compute(us)", "Pure Comm.(us)",
                                              "Overlap(%)"};
    /* OMB 7.4's -f columns of the non-blocking programs, in its order. */
    static const char *const nonblocking_full[] = {
        "Overall(us)",    "Compute(us)",   "Coll. Init(us)", "MPI_Test(us)", "MPI_Wait(us)",
        "Pure Comm.(us)", "Min Comm.(us)", "Max Comm.(us)",  "Overlap(%)"};
    static const char *const blocking_full[] = {"Min Latency(us)", "Max Latency(us)",
                                                "Iterations"};
    const char *const *cols = b->start ? nonblocking : blocking;
    size_t ncols = b->start ? 4 : 1, nfull = b->start ? 0 : 3;
    if (b->start && r->o.full) {
        cols = nonblocking_full;
        ncols = 9;
    }
    char tail_names[OSU_NTAIL][32];
    const char *tails[OSU_NTAIL + 1];
    size_t ntails = 0;
    osu_tail_names(true, tail_names);
    for (size_t k = 0; r->tail && k < OSU_NTAIL; k++)
        tails[ntails++] = tail_names[k];
    if (r->ddt.kind != OSU_DDT_NONE)
        tails[ntails++] = "Transmit Size";
    if (r->timing != TIMEWIN_WINDOW)
        straggler_enable();
    if (b->no_data)
        osu_print_columns_unsized(&r->o, cols, ncols, blocking_full, nfull, tails, ntails);
    else
        osu_print_columns_trailing(&r->o, cols, ncols, blocking_full, nfull, tails, ntails);
    if (r->busbw != BUSBW_NONE && report_has_table("osu")) {
        report_value("algbw_mb_s", REPORT_UNIT_MB_S);
        report_value("busbw_mb_s", REPORT_UNIT_MB_S);
    }
    if (r->laid_out && report_has_table("osu")) {
        report_key(r->ladder ? "ladder_ranks" : "group", REPORT_UNIT_COUNT);
        if (!r->ladder)
            report_key("worst_group", REPORT_UNIT_BOOL);
    }
}

/* --groups and --np-ladder: the call context on the world (where every
 * rank plans the same sizes and buffers, for the largest group) or on this
 * rank's group. */
static void use_world(struct coll_run *r)
{
    r->c.comm = harness.comm;
    r->c.rank = harness.rank;
    r->c.nranks = harness.size;
}
static void use_group(struct coll_run *r)
{
    if (r->lay.comm == MPI_COMM_NULL)
        return;
    r->c.comm = r->lay.comm;
    MPI_CHECK(MPI_Comm_rank(r->lay.comm, &r->c.rank));
    MPI_CHECK(MPI_Comm_size(r->lay.comm, &r->c.nranks));
}

static const char *first_column(const struct coll_run *r)
{
    return r->b->start ? "Overall(us)" : "Avg Latency(us)";
}

/* A root given with -k must be in the smallest group. */
static void check_root(const struct coll_run *r, int smallest)
{
    if (r->b->rooted && r->root.mode == ROOT_FIXED && r->root.rank >= (size_t)smallest)
        err_usage("root rank %zu (-k): the smallest %s has %d rank%s", r->root.rank,
                  r->ladder ? "step of --np-ladder" : "group", smallest,
                  smallest == 1 ? "" : "s");
}

struct laid_out_step {
    struct coll_run *r;
    size_t size;
};

static void measure_laid_out(void *ctx)
{
    struct laid_out_step *step = ctx;
    measure_size(step->r, step->size);
}

/* One size in every group at once (group_rows_measure). */
static void laid_out_size(struct coll_run *r, size_t size)
{
    struct laid_out_step step = {r, size};
    r->failed = false;
    group_rows_measure(&r->rows, measure_laid_out, &step);
}

/* After the size's rows are out: the world's verdict on the data checks. */
static void laid_out_verdict(const struct coll_run *r)
{
    if (r->check)
        group_rows_check(&r->rows, r->failed, "%s", r->failure);
}

/* --np-ladder: a block per step, rows printed as they come (world rank 0
 * is in every step). */
static void run_ladder(struct coll_run *r, const enum coll_type *types, size_t ntypes)
{
    int counts[64];
    size_t nsteps = coll_groups_ladder(harness.size, counts, 64);
    check_root(r, counts[0]);
    group_rows_ladder_line(counts, nsteps);
    for (size_t s = 0; s < nsteps; s++) {
        use_world(r);
        if (s > 0) {
            out_block_end();
            set_type(r, types[0]);
            plan_sizes(r, false);
        }
        group_rows_ladder_step(&r->rows, &r->lay, counts[s], false, r->b->no_data);
        use_group(r);
        if (s > 0 && !r->b->no_data)
            out_comment("Datatype: %s.", coll_type_omb_name(r->c.type));
        out_line("%s", r->heading);
        for (size_t t = 0; t < ntypes; t++) {
            if (t > 0) {
                use_world(r);
                set_type(r, types[t]);
                plan_sizes(r, true);
                use_group(r);
                out_comment("Datatype: %s.", coll_type_omb_name(r->c.type));
                print_reduction(r);
                print_heading(r);
            }
            for (size_t i = 0; i < r->nsizes; i++) {
                laid_out_size(r, r->sizes[i]);
                group_rows_write_step(&r->rows);
                laid_out_verdict(r);
            }
        }
        group_rows_free(&r->rows);
        coll_layout_free(&r->lay);
    }
    use_world(r);
}

/* --groups: every group measures each size at once; a '# group G:' line per
 * group and size as it is measured, then a block per group and the worst
 * group's block. */
static void run_groups(struct coll_run *r)
{
    struct coll_layout *l = &r->lay;
    coll_layout_groups(harness.comm, &r->groups, r->node_block, l);
    int smallest = harness.size;
    for (int g = 0; g < l->nsets; g++)
        smallest = l->set_size[g] < smallest ? l->set_size[g] : smallest;
    check_root(r, smallest);
    group_rows_init(&r->rows, l, r->nsizes, false, r->b->no_data);
    group_rows_announce(&r->rows, &r->groups, r->node_block, first_column(r));
    if (smallest == 1)
        out_comment("a group of 1 rank calls the collective alone: no data moves between "
                    "ranks there");
    use_group(r);
    int mine = l->set_of[harness.rank];
    if (mine >= 0)
        report_context_size("group", (size_t)mine);
    for (size_t i = 0; i < r->nsizes; i++) {
        laid_out_size(r, r->sizes[i]);
        group_rows_keep(&r->rows, i);
        laid_out_verdict(r);
    }
    group_rows_blocks(&r->rows, r->heading, first_column(r));
    group_rows_free(&r->rows);
    coll_layout_free(l);
    use_world(r);
}

_Noreturn void coll_main(const struct coll_bench *b, int argc, char **argv)
{
    static struct coll_run run;
    struct coll_run *r = &run;
    struct coll_ctx *c = &r->c;
    r->b = b;
    parse_options(r, argc, argv);
    r->busbw = busbw_kind_of(err_program());
    enum coll_type types[COLL_MAX_TYPES];
    size_t ntypes = sweep_types(r, types);
    set_type(r, types[0]);

    /* OMB 7.4's lines after its title (its xccl programs print none). */
    char omb[256] = "";
    size_t used = 0;
    if (b->start)
        used += (size_t)snprintf(omb, sizeof omb,
                                 "# Overall = Coll. Init + Compute + MPI_Test + MPI_Wait\n\n");
    if (!b->no_data && !b->offload)
        snprintf(omb + used, sizeof omb - used, "# Datatype: %s.\n", coll_type_omb_name(c->type));
    if (b->offload)
        b->offload->start();
    char before[512] = "";
    if (b->neighbor)
        coll_nbr_setup(&r->nbr, c, before, sizeof before);
    osu_print_preamble(&r->o, &r->prog, argc, argv, before[0] ? before : NULL, omb);
    if (r->timing == TIMEWIN_WINDOW) {
        clocksync_init(&r->clock, c->comm, &CLOCKSYNC_DEFAULTS);
        clocksync_learn(&r->clock);
    }
    report_validation(r->check);
    if (!b->no_data)
        osu_fields_datatype(coll_type_omb_name(c->type));
    plan_sizes(r, false);
    print_sizes_note(r, types, ntypes);
    allocate(r); /* the first sweep's sizes are the largest: its elements the smallest */
    if (r->laid_out)
        osu_row_capture(r->heading, sizeof r->heading);
    print_header(r);
    osu_row_capture(NULL, 0);
    if (r->ladder)
        run_ladder(r, types, ntypes);
    else if (r->laid_out)
        run_groups(r);
    for (size_t t = 0; t < ntypes && !r->laid_out; t++) {
        if (t > 0) {
            /* -T all: the next type's sweep after its own datatype line, as OMB 7.4 */
            set_type(r, types[t]);
            plan_sizes(r, true);
            out_comment("Datatype: %s.", coll_type_omb_name(c->type));
            osu_fields_datatype(coll_type_omb_name(c->type));
            print_reduction(r);
            print_heading(r);
        }
        for (size_t i = 0; i < r->nsizes; i++)
            measure_size(r, r->sizes[i]);
    }
    osu_compat_notes(NULL);

    buf_free(&c->send);
    buf_free(&c->recv);
    free(r->recv_host);
    free(r->carried);
    osu_ddt_free(&r->ddt);
    if (b->neighbor)
        coll_nbr_free(&r->nbr);
    free(c->counts);
    free(c->types);
    free(r->persistent);
    free(r->times);
    if (r->timing == TIMEWIN_WINDOW) {
        timewin_free(&r->win);
        clocksync_free(&r->clock);
    }
    harness_finish(ERR_STATUS_OK);
}
