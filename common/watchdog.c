/* watchdog: see watchdog.h. */
#include "watchdog.h"

#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "host.h"

#define WATCHDOG_LINE 1024

static double limit_seconds;
static const char *step_noun = "step";
static int my_rank;
static const char *my_host = "?";
static bool handler_installed;
static int stall_rank = -1;

/* Where this rank is in the step. The handler only reads these and the
 * texts made at arm time, and calls memcpy, write, nanosleep and _exit,
 * which are safe in a signal handler. */
enum { BEFORE_CALL, IN_CALL, AFTER_CALL };
static volatile sig_atomic_t where_now, call_now;
static const char *volatile phase_now; /* when call_now is -1 */
static char prefix[WATCHDOG_LINE], hint_text[WATCHDOG_LINE / 2];
static size_t prefix_len, hint_len;

/* Appends text to line at *len, as far as it fits (keeping room for '\n'). */
static void append(char *line, size_t *len, const char *text, size_t n)
{
    if (n > WATCHDOG_LINE * 2 - 1 - *len)
        n = WATCHDOG_LINE * 2 - 1 - *len;
    memcpy(line + *len, text, n);
    *len += n;
}

/* "the warm-up call", "call 12" (call 0 is the warm-up), or the
 * phase's own words. */
static void append_call(char *line, size_t *len)
{
    long c = call_now;
    if (c < 0) {
        append(line, len, phase_now, strlen(phase_now));
        return;
    }
    if (c == 0) {
        append(line, len, "the warm-up call", 16);
        return;
    }
    char digits[24];
    size_t n = 0;
    for (; c > 0 && n < sizeof digits; c /= 10)
        digits[sizeof digits - 1 - n++] = (char)('0' + c % 10);
    append(line, len, "call ", 5);
    append(line, len, digits + sizeof digits - n, n);
}

static void append_text(char *line, size_t *len, const char *text)
{
    append(line, len, text, strlen(text));
}

static void on_alarm(int sig)
{
    (void)sig;
    static char line[WATCHDOG_LINE * 2];
    size_t len = 0;
    int where = where_now;
    if (where != AFTER_CALL || my_rank == 0) {
        append(line, &len, prefix, prefix_len);
        if (where == BEFORE_CALL) {
            append_text(line, &len, "has not reached the step's first call");
        } else {
            append_text(line, &len, where == IN_CALL ? "is still in "
                                                     : "waits for the other ranks after ");
            append_call(line, &len);
        }
        if (where != AFTER_CALL)
            append(line, &len, hint_text, hint_len);
        line[len++] = '\n';
        while (len > 0) {
            ssize_t n = write(STDERR_FILENO, line, len);
            if (n <= 0)
                break;
            len -= (size_t)n;
            memmove(line, line + n, len);
        }
    }
    struct timespec second = {1, 0};
    nanosleep(&second, NULL);
    _exit(WATCHDOG_STATUS);
}

/* Under SimGrid's SMPI every rank is a simulated process in one real one:
 * an interval timer is the whole simulation's, counts real time, and its
 * signal lands in whichever rank runs. The limit is then stated, not
 * enforced; a run whose ranks all wait ends anyway, as the simulator
 * reports a deadlock. */
#ifdef COMMSWEEP_SMPI
static const char *const not_enforced = "under SimGrid's SMPI the ranks share one process "
                                        "and its real time, so no rank has an alarm of its "
                                        "own; the simulator ends a run whose ranks all wait";
#else
static const char *const not_enforced = NULL;
#endif

const char *watchdog_not_enforced(void) { return not_enforced; }

static void set_timer(double seconds)
{
    if (not_enforced)
        return;
    struct itimerval t = {{0, 0}, {0, 0}};
    if (seconds > 0) {
        t.it_value.tv_sec = (time_t)seconds;
        t.it_value.tv_usec = (suseconds_t)((seconds - (double)t.it_value.tv_sec) * 1e6);
        if (t.it_value.tv_sec == 0 && t.it_value.tv_usec == 0)
            t.it_value.tv_usec = 1;
    }
    setitimer(ITIMER_REAL, &t, NULL);
}

/* Test hook: COMMSWEEP_STALL_RANK=R makes world rank R stop for good before
 * the first call of a step that has a limit: a rank that never arrives, on
 * demand. */
void watchdog_configure(double seconds)
{
    limit_seconds = seconds;
    my_rank = harness.rank;
    stall_rank = opt_env_rank("COMMSWEEP_STALL_RANK", -1);
    my_host = host_name();
    if (seconds > 0 && !handler_installed && !not_enforced) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_alarm;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESTART;
        sigaction(SIGALRM, &sa, NULL);
        handler_installed = true;
    }
}

double watchdog_seconds(void) { return limit_seconds; }

void watchdog_name_step(const char *noun) { step_noun = noun; }
const char *watchdog_step_noun(void) { return step_noun; }

/* snprintf's count, bounded by what fits (the text is cut, never overrun). */
static size_t fitted(int n, size_t cap)
{
    if (n < 0)
        return 0;
    return (size_t)n < cap ? (size_t)n : cap - 1;
}

__attribute__((format(printf, 2, 0))) static void arm(const char *hint, const char *fmt,
                                                      va_list ap)
{
    if (limit_seconds <= 0)
        return;
    char step[WATCHDOG_LINE / 2];
    vsnprintf(step, sizeof step, fmt, ap);
    prefix_len = fitted(snprintf(prefix, sizeof prefix,
                                 "%s: %s took longer than --timeout=%g s: rank %d (host %s) ",
                                 harness.prog, step, limit_seconds, my_rank, my_host),
                        sizeof prefix);
    hint_len = fitted(snprintf(hint_text, sizeof hint_text, "%s%s", hint ? "; " : "",
                               hint ? hint : ""),
                      sizeof hint_text);
    where_now = BEFORE_CALL;
    call_now = 0;
    set_timer(limit_seconds);
}

void watchdog_arm(const char *hint, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    arm(hint, fmt, ap);
    va_end(ap);
}

void watchdog_single_begin(const char *hint, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    arm(hint, fmt, ap);
    va_end(ap);
    watchdog_enter(1);
}

static void entering(void)
{
    while (limit_seconds > 0 && my_rank == stall_rank)
        pause();
    where_now = IN_CALL;
}

void watchdog_enter(size_t call)
{
    call_now = call > INT_MAX ? INT_MAX : (int)call;
    entering();
}

void watchdog_enter_phase(const char *phase)
{
    phase_now = phase;
    call_now = -1;
    entering();
}

void watchdog_leave(void) { where_now = AFTER_CALL; }

void watchdog_disarm(void)
{
    if (limit_seconds <= 0)
        return;
    set_timer(0);
}

void watchdog_single_end(void)
{
    watchdog_leave();
    watchdog_disarm();
}
