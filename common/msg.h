/*
 * msg: counts of any size for MPI calls whose count argument is an int.
 * A message of count elements is described as (type, n) with n an int: the
 * base type itself when count fits, otherwise one derived datatype covering
 * the whole message (contiguous chunks plus a remainder), so 2 GiB and more
 * can be sent with MPI-3 calls. Not usable with reduction operations.
 */
#ifndef COMMSWEEP_MSG_H
#define COMMSWEEP_MSG_H

#include <mpi.h>
#include <stddef.h>

struct msg_type {
    MPI_Datatype type;
    int count;
    int derived; /* 1 when type must be freed */
};

/* Describes count elements of base. Returns 0, or -1 when MPI refused. */
int msg_type_make(size_t count, MPI_Datatype base, struct msg_type *m);
void msg_type_free(struct msg_type *m);

/* Largest element count one int count can carry for a base type. */
#define MSG_INT_LIMIT ((size_t)2147483647)

#endif
