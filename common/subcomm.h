/*
 * subcomm: one outer-loop step of the sweeps over concurrent subcommunicators
 * (alltoall/all, always/all, always/iall): the world cut into communicators of
 * a target size, contiguous or strided (see sweep_partition), with the world
 * rank of each member for the data check, and the '#' line that opens the
 * block of output.
 */
#ifndef COMMSWEEP_SUBCOMM_H
#define COMMSWEEP_SUBCOMM_H

#include <mpi.h>
#include <stdbool.h>

struct subcomm {
    MPI_Comm comm;
    int ncomms, color;  /* how many communicators; this rank's */
    int rank, size;     /* in this rank's communicator */
    int label_size;     /* world rank 0's communicator size: a full one */
    int *world_of;      /* world rank of each rank of comm */
    bool strided;
    int world_size;
};

/* Collective on MPI_COMM_WORLD: splits it and prints
 * "# N concurrent communicators of M ranks (contiguous|strided)". */
void subcomm_open(int target_size, bool strided, struct subcomm *s);

/* The line subcomm_open prints, again (for a second block of output in the
 * same communicators). */
void subcomm_label(const struct subcomm *s);

/* Ends the output block and frees what subcomm_open made. */
void subcomm_close(struct subcomm *s);

#endif
