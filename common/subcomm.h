/*
 * subcomm: one outer-loop step of the sweeps over concurrent subcommunicators
 * (alltoall/all, always/all, always/iall): the world cut into communicators of
 * a target size, contiguous or strided (see sweep_partition), with the world
 * rank of each member for the data check, and the '#' lines that open the
 * block of output. The block is named by its target size (the seed's
 * targetSize), which is what the programs print as the communicator size;
 * communicators that have fewer ranks are named in a '#' line of their own.
 */
#ifndef COMMSWEEP_SUBCOMM_H
#define COMMSWEEP_SUBCOMM_H

#include <mpi.h>
#include <stdbool.h>

struct subcomm {
    MPI_Comm comm;
    int ncomms, color;  /* how many communicators; this rank's */
    int rank, size;     /* in this rank's communicator */
    int target;         /* the size asked for: no communicator is larger */
    int *world_of;      /* world rank of each rank of comm */
    bool strided;
    int world_size;
};

/* Collective on MPI_COMM_WORLD: splits it and prints
 * "# N concurrent communicators of TARGET ranks (contiguous|strided)", and
 * where some have fewer ranks, e.g. for 9 ranks strided in 4s
 * "# fewer than 4 ranks: communicators 0-2 have 3 ranks". */
void subcomm_open(int target_size, bool strided, struct subcomm *s);

/* The lines subcomm_open prints, again (for a second block of output in the
 * same communicators). */
void subcomm_label(const struct subcomm *s);

/* Ends the output block and frees what subcomm_open made. */
void subcomm_close(struct subcomm *s);

#endif
