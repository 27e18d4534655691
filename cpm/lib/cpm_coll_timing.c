/* cpm_coll_timing: the collective timing methods max, root, global and
 * window; see cpm_measure.h. */
#include "cpm_measure.h"

#include <stdlib.h>

#include "clocksync.h"
#include "err.h"
#include "out.h"
#include "timewin.h"
#include "timing.h"

const char *const cpm_timing_names[] = {"max", "root", "global", NULL};

/* Root decides whether another repetition is needed and tells everyone. */
static bool agree(MPI_Comm comm, int root, bool done_on_root)
{
    int flag = done_on_root;
    MPI_CHECK(MPI_Bcast(&flag, 1, MPI_INT, root, comm));
    return flag != 0;
}

/* One run of the warm-up done: whether another follows, as root decides
 * by cpm_warmup_more and tells everyone. */
static bool warming(MPI_Comm comm, int root, size_t *runs, double start)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    return agree(comm, root, rank == root && cpm_warmup_more(++*runs, MPI_Wtime() - start));
}

static double barrier_time(MPI_Comm comm, int root, const struct cpm_precision *p)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    struct cpm_sampler s;
    cpm_sampler_init(&s, p);
    size_t runs = 0;
    double start = MPI_Wtime();
    do
        MPI_CHECK(MPI_Barrier(comm));
    while (warming(comm, root, &runs, start));
    bool done;
    do {
        double t0 = MPI_Wtime();
        MPI_CHECK(MPI_Barrier(comm));
        double dt = MPI_Wtime() - t0;
        done = agree(comm, root, rank == root ? cpm_sampler_add(&s, dt) : false);
    } while (!done);
    struct cpm_result r;
    cpm_sampler_result(&s, 0, &r);
    cpm_sampler_free(&s);
    return r.time;
}

/* Offset of each rank's clock against root's, from the ping-pong with the
 * shortest round trip: the rank's reading is taken to be halfway. */
static void clock_offsets(MPI_Comm comm, int root, double *offsets)
{
    enum { TRIES = 20 };
    int rank, n;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &n);
    for (int x = 0; x < n; x++) {
        if (x == root) {
            if (rank == root)
                offsets[x] = 0.0;
            continue;
        }
        if (rank == root) {
            double best_rtt = 1e300, best = 0.0;
            for (int k = 0; k < TRIES; k++) {
                double remote, t0 = MPI_Wtime();
                MPI_CHECK(MPI_Send(&t0, 1, MPI_DOUBLE, x, CPM_TAG_CLOCK, comm));
                MPI_CHECK(MPI_Recv(&remote, 1, MPI_DOUBLE, x, CPM_TAG_CLOCK, comm,
                                   MPI_STATUS_IGNORE));
                double t1 = MPI_Wtime();
                if (t1 - t0 < best_rtt) {
                    best_rtt = t1 - t0;
                    best = remote - (t0 + t1) / 2.0;
                }
            }
            offsets[x] = best;
        } else if (rank == x) {
            for (int k = 0; k < TRIES; k++) {
                double t;
                MPI_CHECK(MPI_Recv(&t, 1, MPI_DOUBLE, root, CPM_TAG_CLOCK, comm,
                                   MPI_STATUS_IGNORE));
                t = MPI_Wtime();
                MPI_CHECK(MPI_Send(&t, 1, MPI_DOUBLE, root, CPM_TAG_CLOCK, comm));
            }
        }
    }
}

void cpm_coll_timer_init(struct cpm_coll_timer *t, MPI_Comm comm, enum cpm_timing method,
                         int root, const struct cpm_precision *p)
{
    int n;
    MPI_Comm_size(comm, &n);
    t->comm = comm;
    t->method = method;
    t->root = root;
    t->barrier_time = 0.0;
    t->offsets = NULL;
    t->prepare = NULL;
    t->check = NULL;
    t->errors = 0;
    t->clock = NULL;
    t->win = NULL;
    t->window_given = 0;
    t->missed = 0;
    if (method == CPM_TIMING_ROOT)
        t->barrier_time = barrier_time(comm, root, p);
    if (method == CPM_TIMING_GLOBAL) {
        t->offsets = calloc((size_t)n, sizeof *t->offsets);
        if (!t->offsets)
            err_fatal("out of memory for %d clock offsets", n);
        clock_offsets(comm, root, t->offsets);
    }
    if (method == CPM_TIMING_WINDOW) {
        t->clock = malloc(sizeof *t->clock);
        t->win = malloc(sizeof *t->win);
        if (!t->clock || !t->win)
            err_fatal("out of memory for the window method");
        clocksync_init(t->clock, comm, &CLOCKSYNC_DEFAULTS);
        clocksync_learn(t->clock);
        timewin_init(t->win, t->clock, 1);
    }
}

void cpm_coll_timer_free(struct cpm_coll_timer *t)
{
    free(t->offsets);
    t->offsets = NULL;
    if (t->clock) {
        timewin_free(t->win);
        clocksync_free(t->clock);
    }
    free(t->win);
    free(t->clock);
    t->win = NULL;
    t->clock = NULL;
}

void cpm_coll_timer_describe(const struct cpm_coll_timer *t)
{
    if (t->method != CPM_TIMING_WINDOW)
        return;
    out_comment("timing: window: every run starts when the global clock (rank 0's) reaches "
                "its window's start, no barrier; its time runs from that start to the last "
                "rank's finish; runs a rank reached after their start are left out and "
                "counted ('# window:' after each line); the precision rule counts the runs kept");
    clocksync_describe(t->clock);
    timewin_describe(t->win, t->window_given * 1e6, "runs");
}

/* One timed run of op; the time is meaningful on root only. */
static double timed_run(struct cpm_coll_timer *t, cpm_coll_op op, size_t size, void *ctx,
                        double *finish)
{
    int rank;
    MPI_Comm_rank(t->comm, &rank);
    if (t->prepare)
        t->prepare(t->comm, t->root, size, ctx);
    MPI_CHECK(MPI_Barrier(t->comm));
    double t0 = MPI_Wtime(), dt = 0.0;
    op(t->comm, t->root, size, ctx);
    switch (t->method) {
    case CPM_TIMING_MAX: {
        double mine = MPI_Wtime() - t0;
        timing_max_per_iteration(&mine, &dt, 1, t->root, t->comm);
        break;
    }
    case CPM_TIMING_ROOT:
        MPI_CHECK(MPI_Barrier(t->comm));
        dt = MPI_Wtime() - t0 - t->barrier_time;
        break;
    case CPM_TIMING_GLOBAL: {
        double end = MPI_Wtime();
        int n;
        MPI_Comm_size(t->comm, &n);
        MPI_CHECK(MPI_Gather(&end, 1, MPI_DOUBLE, finish, 1, MPI_DOUBLE, t->root, t->comm));
        if (rank == t->root) {
            double last = end;
            for (int x = 0; x < n; x++)
                if (finish[x] - t->offsets[x] > last)
                    last = finish[x] - t->offsets[x];
            dt = last - t0;
        }
        break;
    }
    case CPM_TIMING_WINDOW: /* runs in measure_window */
        break;
    }
    if (t->check)
        t->errors += t->check(t->comm, t->root, size, ctx);
    return dt;
}

/* One run of the window method: set-up, the wait for its window (in a
 * trial, which sizes the window, a barrier instead), the operation, the
 * reduction that gives rank 0 its time (*dt; *missed: whether some rank
 * missed the window) and the check. Returns the time this rank was busy,
 * the wait or barrier left out. */
static double window_run(struct cpm_coll_timer *t, cpm_coll_op op, size_t size, void *ctx,
                         size_t i, bool trial, double *dt, size_t *missed)
{
    double t0 = MPI_Wtime();
    if (t->prepare)
        t->prepare(t->comm, t->root, size, ctx);
    double t1 = MPI_Wtime();
    if (trial)
        MPI_CHECK(MPI_Barrier(t->comm));
    else
        timewin_wait(t->win, i);
    double t2 = MPI_Wtime();
    op(t->comm, t->root, size, ctx);
    timewin_end(t->win, i);
    timewin_collect(t->win, i, 1, dt, missed);
    if (t->check)
        t->errors += t->check(t->comm, t->root, size, ctx);
    return t1 - t0 + MPI_Wtime() - t2;
}

/* The window method's repetitions. The window is sized from
 * TIMEWIN_TRIALS trial runs, each with rank 0's word on going on as the
 * real ones have. Each run's time (on rank 0) is added unless a rank missed
 * its window; rank 0 decides when the precision is reached, or gives up
 * after twice the maximum of runs; more than half of a block of runs missed
 * widens the window (timewin_widen). */
static void measure_window(struct cpm_coll_timer *t, cpm_coll_op op, size_t size, void *ctx,
                           struct cpm_sampler *s)
{
    int rank;
    MPI_Comm_rank(t->comm, &rank);
    clocksync_refresh(t->clock);
    double busy[TIMEWIN_TRIALS], dt = 0;
    size_t missed;
    for (size_t i = 0; i < TIMEWIN_TRIALS && t->window_given <= 0; i++) {
        busy[i] = window_run(t, op, size, ctx, 0, true, &dt, &missed);
        double t0 = MPI_Wtime();
        agree(t->comm, 0, true);
        busy[i] += MPI_Wtime() - t0;
    }
    timewin_size(t->win, busy, TIMEWIN_TRIALS, t->window_given);
    timewin_begin(t->win);
    size_t runs = 0, block_missed = 0, most = 2 * s->precision.max_reps;
    size_t block = s->precision.min_reps > 2 ? s->precision.min_reps : 2;
    int widened = 0;
    t->missed = 0;
    bool done;
    do {
        window_run(t, op, size, ctx, runs, false, &dt, &missed);
        t->missed += missed;
        block_missed += missed;
        bool enough = rank == 0 && !missed && cpm_sampler_add(s, dt);
        done = agree(t->comm, 0, enough || ++runs >= most);
        if (!done && runs % block == 0) {
            if (timewin_widen(t->win, block_missed, block, &widened))
                timewin_begin(t->win);
            block_missed = 0;
        }
    } while (!done);
    if (t->missed == runs)
        err_exit_all(ERR_STATUS_FAIL,
                     "%zu bytes: every run missed its window, the last %.2f us long; give a "
                     "longer one with --sync-window",
                     size, t->win->length * 1e6);
}

void cpm_coll_measure(struct cpm_coll_timer *t, cpm_coll_op op, size_t size, void *ctx,
                      const struct cpm_precision *p, struct cpm_result *r)
{
    int rank, n;
    MPI_Comm_rank(t->comm, &rank);
    MPI_Comm_size(t->comm, &n);
    double *finish = calloc((size_t)n, sizeof *finish);
    if (!finish)
        err_fatal("out of memory for %d finish times", n);
    struct cpm_sampler s;
    cpm_sampler_init(&s, p);
    int decider = t->method == CPM_TIMING_WINDOW ? 0 : t->root;
    /* The warm-up: runs like the others, their times dropped (with the
     * window method, timed_run is set-up, barrier, operation and check). */
    size_t runs = 0;
    double start = MPI_Wtime();
    do
        timed_run(t, op, size, ctx, finish);
    while (warming(t->comm, decider, &runs, start));
    if (t->method == CPM_TIMING_WINDOW) {
        measure_window(t, op, size, ctx, &s);
    } else {
        bool done;
        do {
            double dt = timed_run(t, op, size, ctx, finish);
            done = agree(t->comm, t->root, rank == t->root ? cpm_sampler_add(&s, dt) : false);
        } while (!done);
    }
    /* Every rank gets the result: rank 0, which prints and steers the
     * message set, need not be the root. */
    double packed[CPM_RESULT_DOUBLES] = {0};
    if (rank == decider) {
        cpm_sampler_result(&s, size, r);
        cpm_result_pack(r, packed);
    }
    MPI_CHECK(MPI_Bcast(packed, CPM_RESULT_DOUBLES, MPI_DOUBLE, decider, t->comm));
    cpm_result_unpack(packed, r);
    cpm_sampler_free(&s);
    free(finish);
}
