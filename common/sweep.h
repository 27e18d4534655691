/*
 * sweep: the loops the benchmarks share, as plain sequences: sizes doubling
 * from MIN to MAX (with 0 first when MIN is 0), values halving down to 1 by
 * integer division (the seeds' remainder rule: 6, 3, 1), and the assignment
 * of world ranks to concurrent subcommunicators, contiguous or strided.
 */
#ifndef COMMSWEEP_SWEEP_H
#define COMMSWEEP_SWEEP_H

#include <stdbool.h>
#include <stddef.h>

/* Writes start, start/2, ..., 1 into out (at most cap values) and returns how
 * many there are (0 when start is 0). */
size_t sweep_halving(size_t start, size_t *out, size_t cap);

/* Writes min, then doubles (0 is followed by 1) while <= max. Returns the
 * number of values; 0 when min > max. */
size_t sweep_doubling(size_t min, size_t max, size_t *out, size_t cap);

/* Where a world rank goes when the world is cut into communicators of
 * target_size ranks: ncomms = ceil(world / target). Contiguous: blocks of
 * consecutive ranks, the last may be smaller. Strided: color = rank % ncomms,
 * so members of a communicator are ncomms apart (with target 2 on an even
 * world the pairs differ by world/2). */
struct sweep_part {
    int ncomms;    /* number of concurrent communicators */
    int color;     /* this rank's communicator */
    int key;       /* this rank's order inside it */
    int comm_size; /* size of this rank's communicator */
};
void sweep_partition(int world_rank, int world_size, int target_size, bool strided,
                     struct sweep_part *p);

/* Ranks in communicator color of that cut (0 for a color outside it). Never
 * above target_size; below it for the last communicator of a contiguous cut
 * that does not divide the world, and for some or all of a strided one's. */
int sweep_comm_size(int world_size, int target_size, bool strided, int color);

#endif
