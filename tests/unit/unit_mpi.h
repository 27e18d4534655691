/* unit_mpi: the group setup and teardown of cmocka tests that need MPI
 * initialised (one process, no launcher). */
#ifndef COMMSWEEP_UNIT_MPI_H
#define COMMSWEEP_UNIT_MPI_H

#include <mpi.h>

static inline int unit_mpi_up(void **state)
{
    (void)state;
    return MPI_Init(NULL, NULL) == MPI_SUCCESS ? 0 : -1;
}

static inline int unit_mpi_down(void **state)
{
    (void)state;
    return MPI_Finalize() == MPI_SUCCESS ? 0 : -1;
}

#endif
