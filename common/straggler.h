/*
 * straggler: which rank made a size slow (--stats). Each rank's own median
 * time over the size's iterations is gathered to rank 0, which names the
 * rank with the largest, its host, and how far that median lies above the
 * median of all the ranks' medians (one group's, where comm is one of
 * several groups measured at once). Only the ranks that time the
 * iterations take part (the untimed root of a fan does not).
 */
#ifndef COMMSWEEP_STRAGGLER_H
#define COMMSWEEP_STRAGGLER_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

#define STRAGGLER_HOST 64

struct straggler {
    bool known;       /* set on rank 0 by straggler_find */
    int rank;         /* in the world (harness.comm), whatever comm was measured */
    double above_pct; /* (its median / the median of the medians - 1) * 100 */
    char host[STRAGGLER_HOST];
};

/* Collective over comm: every rank calls it, timed or not. local: this
 * rank's times of its n iterations. Fills s on rank 0 (known stays false
 * where no rank timed anything); clears it elsewhere. */
void straggler_find(const double *local, size_t n, bool timed, MPI_Comm comm,
                        struct straggler *s);

/* The drivers whose ranks time every iteration turn the columns on before
 * their heading (after MPI started); the rows of the others have none. */
void straggler_enable(void);
bool straggler_enabled(void);

/* Test hook: with COMMSWEEP_SLOW_RANK=R, rank R of the world sleeps
 * COMMSWEEP_SLOW_MS milliseconds (10) inside each of its timed calls
 * (after the call, before its clock stops): a rank slowed on purpose,
 * which the rows must name. The drivers call it there; it costs one test
 * otherwise. (A longer delay outlasts the scheduler's slices on a node
 * with more polling ranks than cores.) */
#define STRAGGLER_TEST_DELAY_MS 10
extern bool straggler_slowed;
void straggler_sleep(void);
/* Reads the hook without turning the columns on (straggler_enable does
 * both): for programs that slow a rank's transfers, not its calls. */
void straggler_read_hook(void);
static inline void straggler_test_delay(void)
{
    if (straggler_slowed)
        straggler_sleep();
}

#endif
