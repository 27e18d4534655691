/*
 * timewin: window-based timing of collective operations, as ReproMPI times
 * them. The ranks agree on a global start (clocksync's clock) and on a
 * window length; window k starts when the global clock reaches
 * first + k * length, call i starts in the window after call i - 1's, and
 * every rank busy-waits for its start, so the calls start together without
 * a barrier and its exit skew. A call's time runs from its start to the
 * last rank's finish, both on the global clock.
 *
 * A rank that reaches a call's window after the start, or leaves its wait
 * more than a tenth of the window (at least 1 us) after it (descheduled over
 * the start), has missed it: it starts at once, and the call is left out of
 * the times and counted. A late rank catches up by itself when calls are
 * shorter than windows; but after a stall every rank is late, and would
 * stay late for as many calls as the stall lasted windows, so every
 * TIMEWIN_BLOCK calls the ranks agree (a maximum over the ranks, outside
 * the timed part) on a window still ahead of all of them and go on from
 * there.
 *
 * Owns the window length (from trial calls, or given), the schedule, the
 * wait and the reduction of the finish times and missed starts.
 */
#ifndef COMMSWEEP_TIMEWIN_H
#define COMMSWEEP_TIMEWIN_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

#include "clocksync.h"
#include "opt.h"

/* --timing: how a program separates and times its calls. */
enum { TIMEWIN_BARRIER, TIMEWIN_WINDOW };
extern const char *const timewin_timing_names[]; /* "barrier", "window", NULL */

/* The options --timing=barrier|window (into *timing) and --sync-window=US
 * (into *window_us, 0 when not given), for a program's option table. */
struct opt_spec timewin_timing_option(int *timing);
struct opt_spec timewin_length_option(double *window_us);
/* Bad usage (status 2): --sync-window without window timing, or above 10^8 us. */
void timewin_check_options(int timing, double window_us);

/* Trial calls a program runs (outside its timed ones) to size a window. */
#define TIMEWIN_TRIALS 8
/* Times a series whose windows were mostly missed is run again, each time
 * with a window twice as long (unless the length was given). */
#define TIMEWIN_RETRIES 2

/* Calls between two agreements on the schedule. */
#define TIMEWIN_BLOCK 8

/* Per call, what one maximum over the ranks reduces: the finish, and 1
 * where the rank missed the start. */
enum { TIMEWIN_FINISH, TIMEWIN_LATE, TIMEWIN_NREDUCED };

struct timewin {
    const struct clocksync *clock;
    double length; /* seconds from one window's start to the next */
    bool given;    /* the length was given, not measured */
    double first;  /* global start of window 0 */
    size_t next;   /* the window this rank's next call starts in */
    bool shared_cores; /* ranks of this machine share cores: waiting yields */
    bool any_shared;   /* ... on some machine */
    size_t cap;    /* calls held; call i in slot i % cap */
    double *local; /* per slot, TIMEWIN_NREDUCED values of this rank */
    double *most;  /* rank 0: their maxima over the ranks */
    double *start; /* per slot, the start of the call's window */
};

/* Collective over the clock's ranks: room for cap calls between two
 * collects, and whether ranks share cores here. */
void timewin_init(struct timewin *w, const struct clocksync *clock, size_t cap);
/* '#' lines (rank 0) on how the window is sized (given_us > 0: given) and
 * how the ranks wait, for a program's header; calls names what is timed. */
void timewin_describe(const struct timewin *w, double given_us, const char *calls);
void timewin_free(struct timewin *w);

/* Collective: the length is given (seconds, > 0), or else measured: twice
 * the largest over the ranks of each rank's median of busy[0..n) (the
 * seconds a trial call kept it busy), and 10 us. */
void timewin_size(struct timewin *w, const double *busy, size_t n, double given);

/* Collective: rank 0 sets the start of window 0 one window and 1 ms ahead;
 * the next call starts in window 0. */
void timewin_begin(struct timewin *w);

/* Waits for the start of call i's window (i numbers the calls alike on
 * every rank; at every TIMEWIN_BLOCK-th the ranks first agree on the
 * window, so every rank must make the same calls). False when this rank
 * missed the start. */
bool timewin_wait(struct timewin *w, size_t i);
/* Records the end of call i on this rank. */
void timewin_end(struct timewin *w, size_t i);

/* Collective: the calls from .. from + n - 1 (within one cap): on rank 0,
 * times[] gets, in order, the times of those whose start no rank missed;
 * every rank gets the number of the others (missed) in *missed, and the
 * number kept returned. The ranks also agree on the schedule again, as
 * every TIMEWIN_BLOCK calls. */
size_t timewin_collect(struct timewin *w, size_t from, size_t n, double *times, size_t *missed);

/* Whether a series with missed of n calls missed should run again: when
 * more than half missed, the length was measured and attempt (counted
 * here from 0) is below TIMEWIN_RETRIES; the length is doubled then. Every
 * rank must pass the same values. */
bool timewin_widen(struct timewin *w, size_t missed, size_t n, int *attempt);

#endif
