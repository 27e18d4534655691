/* Counts the MPI_Send calls of a program through the profiling interface,
 * for a test of a program that prints nothing of what it did: linked into
 * it, MPI_Finalize prints "sends N" (all ranks together) from rank 0. The
 * sends of the library's collectives count; MPI's own collectives do not
 * go through MPI_Send. */
#include <mpi.h>
#include <stdio.h>

static long sends;

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    sends++;
    return PMPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Finalize(void)
{
    long all = 0;
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Reduce(&sends, &all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("sends %ld\n", all);
        fflush(stdout);
    }
    return PMPI_Finalize();
}
