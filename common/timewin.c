/* timewin: agreed starts and window-based times; see timewin.h. */
#include "timewin.h"

#include <math.h>
#include <sched.h>
#include <stdlib.h>

#include "err.h"
#include "out.h"
#include "stats.h"
#include "timing.h"
#include "topo.h"

/* A rank that leaves its wait later than this after the start (it arrived
 * late, or lost its core over the start) has not started with the others:
 * a tenth of the window, at least 1 us. Where ranks share cores, the ones
 * that spin at the start take turns and some leave a few microseconds
 * late; such a delay is part of the call's time, bounded by the slack. */
static double slack(const struct timewin *w)
{
    return fmax(1e-6, w->length / 10);
}

const char *const timewin_timing_names[] = {"barrier", "window", NULL};

struct opt_spec timewin_timing_option(int *timing)
{
    return (struct opt_spec){
        .long_name = "timing", .kind = OPT_CHOICE, .dest = timing, .metavar = "barrier|window",
        .help = "barrier (default): calls between barriers; window: every call starts at an "
                "agreed time of a global clock and lasts until the last rank's finish",
        .choices = timewin_timing_names};
}

struct opt_spec timewin_length_option(double *window_us)
{
    return (struct opt_spec){
        .long_name = "sync-window", .kind = OPT_DOUBLE, .dest = window_us, .metavar = "US",
        .help = "--timing=window: microseconds from one call's start to the next (default: "
                "measured for each size)"};
}

void timewin_check_options(int timing, double window_us)
{
    if (window_us > 0 && timing != TIMEWIN_WINDOW)
        err_usage("--sync-window applies to --timing=window only");
    if (window_us > 1e8)
        err_usage("--sync-window %g: at most 100000000 microseconds", window_us);
}

void timewin_init(struct timewin *w, const struct clocksync *clock, size_t cap)
{
    *w = (struct timewin){.clock = clock, .cap = cap ? cap : 1};
    w->shared_cores = topo_cores_shared(clock->comm);
    int mine = w->shared_cores, any = 0;
    MPI_CHECK(MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_LOR, clock->comm));
    w->any_shared = any;
    w->local = calloc((2 * TIMEWIN_NREDUCED + 1) * w->cap, sizeof *w->local);
    if (!w->local)
        err_fatal("cannot allocate the finish times of %zu calls", w->cap);
    w->most = w->local + TIMEWIN_NREDUCED * w->cap;
    w->start = w->most + TIMEWIN_NREDUCED * w->cap;
}

void timewin_free(struct timewin *w)
{
    free(w->local);
    w->local = w->most = w->start = NULL;
}

void timewin_describe(const struct timewin *w, double given_us, const char *calls)
{
    if (given_us > 0)
        out_comment("window: %.2f us (--sync-window)", given_us);
    else
        out_comment("window: measured for each size from %d trial %s between barriers: twice "
                    "the slowest rank's median and 10 us; doubled (at most %d times) when more "
                    "than half the %s missed",
                    TIMEWIN_TRIALS, calls, TIMEWIN_RETRIES, calls);
    if (w->any_shared)
        out_comment("window: ranks share cores: a waiting rank yields its core up to the start, "
                    "so the ranks leave in turns; a rank leaving more than a tenth of the window "
                    "(at least 1 us) after the start has missed it");
    else
        out_comment("window: every rank has cores of its own and spins until the start; a rank "
                    "leaving more than a tenth of the window (at least 1 us) after the start "
                    "has missed it");
}

/* The length for calls that keep the slowest rank busy for busy seconds
 * (its median over the trials): twice that, so a call twice as slow as
 * usual still ends before the next start, and 10 us for the wait's own
 * clock readings and the ranks' start spread. */
static double length_rule(double busy)
{
    return 2 * busy + 10e-6;
}

void timewin_size(struct timewin *w, const double *busy, size_t n, double given)
{
    w->given = given > 0;
    if (w->given) {
        w->length = given;
        return;
    }
    double mine = n ? stats_median(busy, n) : 0, most;
    MPI_CHECK(MPI_Allreduce(&mine, &most, 1, MPI_DOUBLE, MPI_MAX, w->clock->comm));
    w->length = length_rule(most);
}

void timewin_begin(struct timewin *w)
{
    w->first = clocksync_global(w->clock) + w->length + 1e-3;
    MPI_CHECK(MPI_Bcast(&w->first, 1, MPI_DOUBLE, 0, w->clock->comm));
    w->next = 0;
}

static double start_of(const struct timewin *w, size_t window)
{
    return w->first + (double)window * w->length;
}

/* This rank's proposal of the window to go on from: its next one, or the
 * second one ahead of its clock when that is later (so that the
 * agreement's own spread across the ranks fits before it). The ranks take
 * the latest proposal. */
static double proposal(const struct timewin *w)
{
    double ahead = floor((clocksync_global(w->clock) - w->first) / w->length) + 2;
    return fmax((double)w->next, ahead);
}

/* Collective: the ranks agree on the window to go on from. */
static void regroup(struct timewin *w)
{
    double mine = proposal(w), all;
    MPI_CHECK(MPI_Allreduce(&mine, &all, 1, MPI_DOUBLE, MPI_MAX, w->clock->comm));
    w->next = (size_t)all;
}

bool timewin_wait(struct timewin *w, size_t i)
{
    if (i > 0 && i % TIMEWIN_BLOCK == 0)
        regroup(w);
    double start = start_of(w, w->next++), now = clocksync_global(w->clock);
    /* Where ranks share cores, a waiting rank offers its core to the others
     * between clock readings all the way to the start (the ranks still busy
     * with the previous call, or waiting too, need it; at the start they
     * take turns). On cores of their own, it spins: it leaves at the start
     * to within a clock reading. (Sleeping was tried and is worse: on a
     * busy node the wake-up comes tens of microseconds late.) */
    while (now < start) {
        if (timing_simulated())
            timing_busy(start - now);
        else if (w->shared_cores)
            sched_yield();
        now = clocksync_global(w->clock);
    }
    /* Arrived after the start, or was descheduled over it. */
    bool late = now > start + slack(w);
    w->local[TIMEWIN_NREDUCED * (i % w->cap) + TIMEWIN_LATE] = late;
    w->start[i % w->cap] = start;
    return !late;
}

void timewin_end(struct timewin *w, size_t i)
{
    w->local[TIMEWIN_NREDUCED * (i % w->cap) + TIMEWIN_FINISH] = clocksync_global(w->clock);
}

size_t timewin_collect(struct timewin *w, size_t from, size_t n, double *times, size_t *missed)
{
    MPI_Comm comm = w->clock->comm;
    const double *calls = w->local + TIMEWIN_NREDUCED * (from % w->cap);
    timing_max_per_iteration(calls, w->most, TIMEWIN_NREDUCED * n, 0, comm);
    size_t kept = 0;
    for (size_t i = 0; w->clock->rank == 0 && i < n; i++) {
        const double *all = w->most + TIMEWIN_NREDUCED * i;
        if (all[TIMEWIN_LATE] == 0)
            times[kept++] = all[TIMEWIN_FINISH] - w->start[(from + i) % w->cap];
    }
    /* Rank 0's count to everyone, and the schedule agreed again on the way
     * (where calls follow, as in a run-by-run measurement). */
    double mine[2] = {(double)kept, proposal(w)}, agreed[2];
    MPI_CHECK(MPI_Allreduce(mine, agreed, 2, MPI_DOUBLE, MPI_MAX, comm));
    w->next = (size_t)agreed[1];
    *missed = n - (size_t)agreed[0];
    return (size_t)agreed[0];
}

bool timewin_widen(struct timewin *w, size_t missed, size_t n, int *attempt)
{
    if (w->given || 2 * missed <= n || *attempt >= TIMEWIN_RETRIES)
        return false;
    ++*attempt;
    w->length *= 2;
    return true;
}
