/* subcomm: see subcomm.h. */
#include "subcomm.h"

#include <stdio.h>
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
    s->target = target_size < world_size ? target_size : world_size;
    s->strided = strided;
    s->world_size = world_size;
    subcomm_label(s);
}

/* "communicator C has N rank(s)" or "communicators A-B have N ranks". */
static void describe_run(char *text, size_t len, int first, int last, int size)
{
    const char *ranks = size == 1 ? "rank" : "ranks";
    if (first == last)
        snprintf(text, len, "communicator %d has %d %s", first, size, ranks);
    else
        snprintf(text, len, "communicators %d-%d have %d %s", first, last, size, ranks);
}

/* The communicators smaller than the target. Sizes never grow with the
 * color and take at most two values (contiguous: the target and the last
 * one's; strided: the ceiling and floor of world / ncomms), so the smaller
 * ones are at most two runs of colors. */
static void print_smaller(const struct subcomm *s)
{
    if (!out_is_printer())
        return;
    int n = s->ncomms, first = 0;
    while (first < n && sweep_comm_size(s->world_size, s->target, s->strided, first) == s->target)
        first++;
    if (first == n)
        return;
    int head = sweep_comm_size(s->world_size, s->target, s->strided, first);
    int tail = sweep_comm_size(s->world_size, s->target, s->strided, n - 1);
    int split = first;
    while (split < n && sweep_comm_size(s->world_size, s->target, s->strided, split) == head)
        split++;
    char one[96], two[96] = "";
    describe_run(one, sizeof one, first, split - 1, head);
    if (split < n)
        describe_run(two, sizeof two, split, n - 1, tail);
    out_comment("fewer than %d ranks: %s%s%s", s->target, one, two[0] ? "; " : "", two);
}

void subcomm_label(const struct subcomm *s)
{
    out_comment("%d concurrent communicator%s of %d rank%s (%s)", s->ncomms,
                s->ncomms == 1 ? "" : "s", s->target, s->target == 1 ? "" : "s",
                s->strided ? "strided" : "contiguous");
    print_smaller(s);
}

void subcomm_close(struct subcomm *s)
{
    out_block_end();
    free(s->world_of);
    s->world_of = NULL;
    MPI_Comm_free(&s->comm);
}
