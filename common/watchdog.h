/*
 * watchdog: a time limit on one step of a run (one size of a sweep), so that
 * a call that never returns ends the job with a line that says where,
 * instead of a silent hang until the batch system's limit.
 *
 * Each rank keeps its own alarm (SIGALRM; no thread, no MPI call, since a
 * hung library cannot be asked anything). When a step outlives the limit,
 * each rank that has not reached its current call, or is still in it,
 * writes one line naming the program, the step, itself, its host and the
 * call (and the hint, when the program gave one for this step); rank 0
 * writes one when it only waits for the others after a call. The ranks
 * that finished the call and wait keep quiet: the lines name the ranks the
 * step waits for. Every rank then ends with WATCHDOG_STATUS, a second
 * later, so that the lines of all come out before the launcher tears the
 * job down.
 */
#ifndef COMMSWEEP_WATCHDOG_H
#define COMMSWEEP_WATCHDOG_H

#include <stddef.h>

#include "opt.h"

/* The exit status of a step that outlived --timeout. */
#define WATCHDOG_STATUS 3

/* The --timeout option (seconds; 0, the default, is no limit), for a
 * program's option table. */
#define WATCHDOG_OPT(seconds_ptr)                                                          \
    {.long_name = "timeout", .kind = OPT_DOUBLE, .dest = (seconds_ptr),                     \
     .max = OPT_SECONDS_MAX, .allow_zero = true, .metavar = "SECONDS",                      \
     .help = "end the run with status 3 and a line naming the size and the ranks still "    \
             "in the call when one size takes longer (default 0: no limit)"}

/* Sets the limit of the steps armed from now on (0: none) and records
 * this rank's number and host for the lines. Needs MPI started. */
void watchdog_configure(double seconds);
/* The limit in force (0: none). */
double watchdog_seconds(void);
/* Why the limit is stated but not enforced in this build (under a
 * simulator), or NULL where it is. */
const char *watchdog_not_enforced(void);
/* What the header's "# timeout:" line calls one step of this program
 * ("count", "row"; "step" unless named): a string that lives as long as
 * the program. */
void watchdog_name_step(const char *noun);
const char *watchdog_step_noun(void);
/* Starts a step: printf-style text naming it ("count 2048, algorithm get,
 * communicators of 6 ranks"), and a hint appended to the stuck ranks' line
 * (NULL: none). No effect without a limit. */
void watchdog_arm(const char *hint, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Around each call of the step (call 0 is the warm-up, then 1, 2, ...):
 * before enter a rank "has not reached" the call, between the two it "is
 * still in" it. */
void watchdog_enter(size_t call);
/* The same around a phase of many calls, named by phase (a string that
 * lives as long as the step: "the timed iterations"). */
void watchdog_enter_phase(const char *phase);
void watchdog_leave(void);
/* Ends the step. */
void watchdog_disarm(void);

/* A step that is one call (a checked collective, a gathering): begin arms
 * it as watchdog_arm does and enters its call 1, end leaves the call and
 * ends the step, so that the call sits between the two. */
void watchdog_single_begin(const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void watchdog_single_end(void);

#endif
