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

/* Both cuts follow the seed's program: ncomms = (world - 1) / target + 1
 * communicators; contiguous puts rank r in r / target, strided in r % ncomms;
 * either way ranks keep their world order inside a communicator. */
static int clamp_target(int world_size, int target_size)
{
    if (target_size < 1)
        return 1;
    return target_size > world_size ? world_size : target_size;
}

int sweep_comm_size(int world_size, int target_size, bool strided, int color)
{
    target_size = clamp_target(world_size, target_size);
    int ncomms = (world_size + target_size - 1) / target_size;
    if (color < 0 || color >= ncomms)
        return 0;
    if (strided) /* ranks color, color + ncomms, ... below world_size */
        return (world_size - color + ncomms - 1) / ncomms;
    int first = color * target_size;
    return world_size - first < target_size ? world_size - first : target_size;
}

void sweep_partition(int world_rank, int world_size, int target_size, bool strided,
                     struct sweep_part *p)
{
    target_size = clamp_target(world_size, target_size);
    p->ncomms = (world_size + target_size - 1) / target_size;
    if (strided) {
        p->color = world_rank % p->ncomms;
        p->key = world_rank / p->ncomms;
    } else {
        p->color = world_rank / target_size;
        p->key = world_rank % target_size;
    }
    p->comm_size = sweep_comm_size(world_size, target_size, strided, p->color);
}
