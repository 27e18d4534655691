/* clocksync: ping-pongs against rank 0 and the linear clock model; see clocksync.h. */
#include "clocksync.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "err.h"
#include "timing.h"
#include "nap.h"
#include "out.h"

enum { TAG_GO = 1, TAG_PING, TAG_PONG, TAG_DONE };

/* A batch goes on past params.exchanges ping-pongs, up to this many times
 * as many, until one of them is as fast as CLOCKFIT_RTT_LIMIT times the
 * fastest this rank has seen: on a busy node most batches would otherwise
 * give a disturbed point and the model none to follow the clocks with. */
#define CLOCKSYNC_PATIENCE 8
/* The nap between the tests of a rank that waits for its turn: its batch
 * starts as soon as rank 0 calls, and rank 0 calls every rank in turn. */
#define CLOCKSYNC_NAP 10e-6
/* Rounds of a refresh: a point taken long after the others weighs much on
 * the drift, and among a few taken together the fit can spot a wrong one. */
#define CLOCKSYNC_REFRESH_ROUNDS 4

double clocksync_true_local(void)
{
    if (timing_simulated()) /* the simulation's clock; the real one runs apart */
        return timing_now();
    struct timespec t;
#ifdef CLOCK_MONOTONIC_RAW
    clock_gettime(CLOCK_MONOTONIC_RAW, &t);
#else
    clock_gettime(CLOCK_MONOTONIC, &t);
#endif
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

double clocksync_local(const struct clocksync *c)
{
    double t = clocksync_true_local();
    return c->skewed ? clockfit_skewed(&c->skew, t, c->base) : t;
}

double clocksync_to_global(const struct clocksync *c, double local)
{
    return clockfit_map(&c->model, local);
}

double clocksync_global(const struct clocksync *c)
{
    return clocksync_to_global(c, clocksync_local(c));
}

void clocksync_init(struct clocksync *c, MPI_Comm comm, const struct clocksync_params *p)
{
    memset(c, 0, sizeof *c);
    MPI_CHECK(MPI_Comm_dup(comm, &c->comm));
    MPI_Comm_rank(c->comm, &c->rank);
    MPI_Comm_size(c->comm, &c->nranks);
    c->params = *p;
    c->model = CLOCKFIT_IDENTITY;
    c->rtt_min = HUGE_VAL;
    const char *hook = getenv(CLOCKSYNC_ENV);
    char why[200] = "";
    bool bad = false;
    if (hook && *hook) {
        bad = clockfit_parse_skew(hook, &c->skew, why, sizeof why) != 0;
        if (!bad && c->skew.rank >= c->nranks) {
            snprintf(why, sizeof why, "it names rank %d of %d ranks", c->skew.rank, c->nranks);
            bad = true;
        }
        c->skewed = !bad && c->skew.rank == c->rank;
    }
    err_any(comm, bad, ERR_STATUS_USAGE, "%s=%s: %s", CLOCKSYNC_ENV, hook ? hook : "", why);
    c->base = clocksync_true_local();
    MPI_CHECK(MPI_Bcast(&c->base, 1, MPI_DOUBLE, 0, c->comm));
}

void clocksync_free(struct clocksync *c)
{
    free(c->points);
    c->points = NULL;
    if (c->comm != MPI_COMM_NULL)
        MPI_Comm_free(&c->comm);
}

/* Rank 0's side of one rank's batch: wakes it, then answers each ping with
 * the time on its own clock until the rank says it is done. */
static void serve(struct clocksync *c, int peer)
{
    int go = 1;
    MPI_CHECK(MPI_Send(&go, 1, MPI_INT, peer, TAG_GO, c->comm));
    for (;;) {
        double ping;
        MPI_Status st;
        MPI_CHECK(MPI_Recv(&ping, 1, MPI_DOUBLE, peer, MPI_ANY_TAG, c->comm, &st));
        if (st.MPI_TAG == TAG_DONE)
            return;
        double now = clocksync_local(c);
        MPI_CHECK(MPI_Send(&now, 1, MPI_DOUBLE, peer, TAG_PONG, c->comm));
    }
}

static void add_point(struct clocksync *c, const struct clockfit_point *p)
{
    if (c->npoints == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 64;
        struct clockfit_point *grown = realloc(c->points, cap * sizeof *grown);
        if (!grown)
            err_fatal("cannot keep %zu clock offsets", cap);
        c->points = grown;
        c->cap = cap;
    }
    c->points[c->npoints++] = *p;
}

/* Waits for rank 0's word without spinning: a rank that waits for its turn
 * leaves its core to the two that are measuring (on an oversubscribed node
 * that decides whether their round trips are symmetric). */
static void await_go(struct clocksync *c)
{
    int go;
    MPI_Request req;
    MPI_CHECK(MPI_Irecv(&go, 1, MPI_INT, 0, TAG_GO, c->comm, &req));
    nap_wait(&req, MPI_STATUS_IGNORE, CLOCKSYNC_NAP);
}

/* Another rank's side: waits for its turn, then keeps the fastest of its
 * ping-pongs as one point. */
static void measure(struct clocksync *c)
{
    await_go(c);
    struct clockfit_point best = {0, 0, HUGE_VAL};
    size_t want = c->params.exchanges, most = CLOCKSYNC_PATIENCE * want;
    for (size_t k = 0; k < most && (k < want || best.rtt > CLOCKFIT_RTT_LIMIT * c->rtt_min);
         k++) {
        double sent = clocksync_local(c), remote;
        MPI_CHECK(MPI_Send(&sent, 1, MPI_DOUBLE, 0, TAG_PING, c->comm));
        MPI_CHECK(MPI_Recv(&remote, 1, MPI_DOUBLE, 0, TAG_PONG, c->comm, MPI_STATUS_IGNORE));
        clockfit_exchange(sent, remote, clocksync_local(c), &best);
        c->rtt_min = fmin(c->rtt_min, best.rtt);
    }
    double none = 0;
    MPI_CHECK(MPI_Send(&none, 1, MPI_DOUBLE, 0, TAG_DONE, c->comm));
    add_point(c, &best);
}

/* rounds rounds; rank 0 serves the others in turn, and starts round k no
 * earlier than k * gap seconds after the first. */
static void run_rounds(struct clocksync *c, size_t rounds, double gap)
{
    double first = clocksync_true_local();
    for (size_t k = 0; k < rounds; k++) {
        if (c->rank != 0) {
            measure(c);
            continue;
        }
        double wait = first + (double)k * gap - clocksync_true_local();
        if (wait > 0)
            nap(wait);
        for (int peer = 1; peer < c->nranks; peer++)
            serve(c, peer);
    }
    /* Everyone leaves together, and nobody spins in the program's next
     * collective while the last rank is still measuring. */
    int go = 0;
    for (int peer = 1; c->rank == 0 && peer < c->nranks; peer++)
        MPI_CHECK(MPI_Send(&go, 1, MPI_INT, peer, TAG_GO, c->comm));
    if (c->rank != 0) {
        await_go(c);
        clockfit_fit(c->points, c->npoints, c->params.drift, &c->model);
    }
}

void clocksync_learn(struct clocksync *c)
{
    c->npoints = 0;
    size_t rounds = c->params.rounds;
    run_rounds(c, rounds, rounds > 1 ? c->params.span / (double)(rounds - 1) : 0);
}

void clocksync_refresh(struct clocksync *c)
{
    run_rounds(c, CLOCKSYNC_REFRESH_ROUNDS, 0);
}

/* What clocksync_describe gathers from each rank. */
enum { Q_DRIFT, Q_RESID, Q_RTT_MIN, Q_RTT_MAX, Q_SPAN, Q_USED, Q_N };

void clocksync_describe(const struct clocksync *c)
{
    double mine[Q_N] = {0}, *all = NULL;
    if (c->npoints > 0) {
        mine[Q_DRIFT] = c->model.drift;
        mine[Q_RESID] = c->model.resid_sd;
        mine[Q_RTT_MIN] = HUGE_VAL;
        for (size_t i = 0; i < c->npoints; i++) {
            mine[Q_RTT_MIN] = fmin(mine[Q_RTT_MIN], c->points[i].rtt);
            mine[Q_RTT_MAX] = fmax(mine[Q_RTT_MAX], c->points[i].rtt);
        }
        mine[Q_SPAN] = c->points[c->npoints - 1].local - c->points[0].local;
        mine[Q_USED] = (double)c->model.used;
    }
    if (c->rank == 0 && !(all = malloc((size_t)c->nranks * Q_N * sizeof *all)))
        err_fatal("cannot gather the clock models of %d ranks", c->nranks);
    MPI_CHECK(MPI_Gather(mine, Q_N, MPI_DOUBLE, all, Q_N, MPI_DOUBLE, 0, c->comm));
    if (c->rank != 0)
        return;
    const struct clocksync_params *p = &c->params;
    char what[160];
    snprintf(what, sizeof what, "%s fitted to %zu rounds of %zu ping-pongs with rank 0",
             p->drift ? "offset and drift" : "offset", p->rounds, p->exchanges);
    if (c->nranks < 2) {
        out_comment("clock model: one rank, its own clock is the global clock");
        free(all);
        return;
    }
    int wd = 1, wr = 1;
    double rtt_min = HUGE_VAL, rtt_max = 0, span = HUGE_VAL, used = HUGE_VAL;
    for (int r = 1; r < c->nranks; r++) {
        const double *q = all + (size_t)r * Q_N;
        wd = fabs(q[Q_DRIFT]) > fabs(all[(size_t)wd * Q_N + Q_DRIFT]) ? r : wd;
        wr = q[Q_RESID] > all[(size_t)wr * Q_N + Q_RESID] ? r : wr;
        rtt_min = fmin(rtt_min, q[Q_RTT_MIN]);
        rtt_max = fmax(rtt_max, q[Q_RTT_MAX]);
        span = fmin(span, q[Q_SPAN]);
        used = fmin(used, q[Q_USED]);
    }
    out_comment("clock model: each rank's %s mapped to rank 0's, %s "
                "(the fastest of each round) over %.1f ms; largest |drift| %.3f ppm (rank %d), "
                "largest residual sd %.3f us (rank %d), round trips %.2f to %.2f us, at least "
                "%.0f points kept",
                timing_simulated() ? "simulated clock (MPI_Wtime)" : "CLOCK_MONOTONIC_RAW", what,
                span * 1e3, fabs(all[(size_t)wd * Q_N + Q_DRIFT]) * 1e6, wd,
                all[(size_t)wr * Q_N + Q_RESID] * 1e6, wr, rtt_min * 1e6, rtt_max * 1e6, used);
    free(all);
}
