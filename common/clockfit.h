/*
 * clockfit: the arithmetic of the clock model that clocksync fits, kept apart
 * from MPI so it can be unit tested. It owns
 *   - one fit point from a batch of ping-pongs (the fastest exchange of the
 *     batch, the remote reading taken to be halfway through it, as in
 *     SKaMPI's and Jones and Koenig's offset measurement),
 *   - the least-squares line of those offsets over local time (offset and
 *     drift), with the points whose round trip was disturbed left out,
 *   - the mapping of a local time onto the reference clock,
 *   - the test hook's skew: its text form and the clock it makes.
 */
#ifndef COMMSWEEP_CLOCKFIT_H
#define COMMSWEEP_CLOCKFIT_H

#include <stdbool.h>
#include <stddef.h>

/* One offset measurement: at local time local (the middle of the exchange),
 * the reference clock read offset seconds ahead of the local one; rtt is
 * the round trip it came from. */
struct clockfit_point {
    double local, offset, rtt;
};

/* reference time = local + offset + drift * (local - ref). */
struct clockfit_model {
    double ref, offset, drift;
    double resid_sd; /* standard deviation of the points around the line (s) */
    size_t used;     /* points the fit kept */
};

/* The identity: what rank 0, the reference, uses. */
#define CLOCKFIT_IDENTITY ((struct clockfit_model){0, 0, 0, 0, 0})

/* One ping-pong: sent and received on the local clock, remote the reference
 * clock's reading in between. Replaces *best when this round trip is
 * shorter (best->rtt must start at a large value, e.g. HUGE_VAL). */
void clockfit_exchange(double sent, double remote, double received, struct clockfit_point *best);

/* A round trip longer than this many times the median of the points' is
 * taken to have been disturbed (a rank descheduled in the middle), so its
 * midpoint says little of the offset: the error of a point is at most half
 * its round trip less the fastest possible one-way time. (Not the fastest:
 * on shared cores round trips fall into two groups, a rank waking on a core
 * of its own or not, and the points of both are good.) */
#define CLOCKFIT_RTT_LIMIT 2.0

/* A point farther off the line than this many robust standard deviations
 * (1.4826 times the median absolute deviation) is taken to be wrong. */
#define CLOCKFIT_OUTLIER 3.0
/* ... but never one closer than this (seconds): near-perfect points would
 * otherwise be cut for their rounding. */
#define CLOCKFIT_FLOOR 10e-9

/* Least squares of offset over local time through the points whose round
 * trip is at most CLOCKFIT_RTT_LIMIT times the median (all of them when
 * fewer than two would remain), then once more without the points farther
 * than CLOCKFIT_OUTLIER deviations from that line (when two or more stay).
 * with_drift false fits a constant (drift 0). Returns 0, or -1 when n is 0
 * or memory is short. */
int clockfit_fit(const struct clockfit_point *p, size_t n, bool with_drift,
                 struct clockfit_model *m);

/* The reference clock's time at local time local. */
double clockfit_map(const struct clockfit_model *m, double local);

/* The test hook: rank's clock reads offset seconds more, and runs drift
 * (a ratio: 1e-6 is 1 ppm) faster, than it should. */
struct clockfit_skew {
    int rank;
    double offset, drift;
};

/* Parses "RANK:OFFSET_US:DRIFT_PPM" (e.g. "3:2500:-40"): a rank of 0 or
 * more, an offset in microseconds and a drift in parts per million, each
 * finite, the drift within +-100000 ppm. 0, or -1 with a message. */
int clockfit_parse_skew(const char *text, struct clockfit_skew *s, char *err, size_t errlen);

/* The skewed reading of a true time t: t + offset + drift * (t - base),
 * base being a time all ranks share (so the offset is the one at base). */
double clockfit_skewed(const struct clockfit_skew *s, double t, double base);

#endif
