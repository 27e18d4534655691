/*
 * straggler: which rank made a size slow (--stats). Each rank's own median
 * time over the size's iterations is gathered to rank 0, which names the
 * rank with the largest, its host, and how far that median lies above the
 * median of all the ranks' medians. Only the ranks that time the
 * iterations take part (the untimed root of a fan does not).
 */
#ifndef COMMSWEEP_OSU_STRAGGLER_H
#define COMMSWEEP_OSU_STRAGGLER_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

#define OSU_STRAGGLER_HOST 64

struct osu_straggler {
    bool known;       /* set on rank 0 by osu_straggler_find */
    int rank;         /* in the communicator measured */
    double above_pct; /* (its median / the median of the medians - 1) * 100 */
    char host[OSU_STRAGGLER_HOST];
};

/* Collective over comm: every rank calls it, timed or not. local: this
 * rank's times of its n iterations. Fills s on rank 0 (known stays false
 * where no rank timed anything); clears it elsewhere. */
void osu_straggler_find(const double *local, size_t n, bool timed, MPI_Comm comm,
                        struct osu_straggler *s);

/* The drivers whose ranks time every iteration turn the columns on before
 * their heading (after MPI started); the rows of the others have none. */
void osu_straggler_enable(void);
bool osu_straggler_enabled(void);

/* Test hook: with COMMSWEEP_SLOW_RANK=R, rank R of the world sleeps
 * OSU_STRAGGLER_TEST_DELAY seconds inside each of its timed calls (after
 * the call, before its clock stops): a rank slowed on purpose, which the
 * rows must name. The drivers call it there; it costs one test otherwise. */
#define OSU_STRAGGLER_TEST_DELAY 10e-3
extern bool osu_straggler_slowed;
void osu_straggler_sleep(void);
static inline void osu_straggler_test_delay(void)
{
    if (osu_straggler_slowed)
        osu_straggler_sleep();
}

#endif
