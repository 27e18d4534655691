/* subcomm: see subcomm.h. */
#include "subcomm.h"

#include <stdlib.h>

#include "a2a.h"
#include "err.h"
#include "out.h"
#include "sweep.h"

void subcomm_open(int target_size, bool strided, struct subcomm *s)
{
    int world_rank, world_size;
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    struct sweep_part part;
    sweep_partition(world_rank, world_size, target_size, strided, &part);
    s->ncomms = part.ncomms;
    s->color = part.color;
    MPI_CHECK(MPI_Comm_split(MPI_COMM_WORLD, part.color, part.key, &s->comm));
    MPI_Comm_rank(s->comm, &s->rank);
    MPI_Comm_size(s->comm, &s->size);
    s->world_of = a2a_world_ranks(s->comm);
    s->label_size = s->size;
    s->strided = strided;
    s->world_size = world_size;
    MPI_CHECK(MPI_Bcast(&s->label_size, 1, MPI_INT, 0, MPI_COMM_WORLD));
    subcomm_label(s);
}

void subcomm_label(const struct subcomm *s)
{
    out_comment("%d concurrent communicator%s of %d rank%s (%s)%s", s->ncomms,
                s->ncomms == 1 ? "" : "s", s->label_size, s->label_size == 1 ? "" : "s",
                s->strided ? "strided" : "contiguous",
                s->world_size % s->label_size ? ", the last smaller" : "");
}

void subcomm_close(struct subcomm *s)
{
    out_block_end();
    free(s->world_of);
    s->world_of = NULL;
    MPI_Comm_free(&s->comm);
}
