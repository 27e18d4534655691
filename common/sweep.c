/* sweep: size sequences and subcommunicator assignment; see sweep.h. */
#include "sweep.h"

#include <stdint.h>

size_t sweep_halving(size_t start, size_t *out, size_t cap)
{
    size_t n = 0;
    for (size_t v = start; v >= 1; v /= 2) {
        if (n < cap)
            out[n] = v;
        n++;
    }
    return n < cap ? n : cap;
}

size_t sweep_doubling(size_t min, size_t max, size_t *out, size_t cap)
{
    size_t n = 0;
    for (size_t v = min; v <= max; v = v ? v * 2 : 1) {
        if (n < cap)
            out[n] = v;
        n++;
        if (v > SIZE_MAX / 2)
            break;
    }
    return n < cap ? n : cap;
}

void sweep_partition(int world_rank, int world_size, int target_size, bool strided,
                     struct sweep_part *p)
{
    if (target_size < 1)
        target_size = 1;
    if (target_size > world_size)
        target_size = world_size;
    p->ncomms = (world_size + target_size - 1) / target_size;
    if (strided) {
        p->color = world_rank % p->ncomms;
        p->key = world_rank / p->ncomms;
        /* ranks color, color + ncomms, ... below world_size */
        p->comm_size = (world_size - p->color + p->ncomms - 1) / p->ncomms;
    } else {
        p->color = world_rank / target_size;
        p->key = world_rank % target_size;
        int first = p->color * target_size;
        p->comm_size = world_size - first < target_size ? world_size - first : target_size;
    }
}
