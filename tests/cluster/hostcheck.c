/*
 * hostcheck: what the emulated cluster looks like from inside MPI. Rank 0
 * prints one line per rank: its rank, the name MPI_Get_processor_name gives,
 * and how many ranks share memory with it (MPI_COMM_TYPE_SHARED), which is 1
 * when the library sees every rank on a node of its own.
 * Output: "rank R host NAME shared K".
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hostcheck_entry {
    char name[MPI_MAX_PROCESSOR_NAME];
    int shared;
};

int main(int argc, char **argv)
{
    int rank, size, len;
    struct hostcheck_entry self;
    struct hostcheck_entry *all = NULL;
    MPI_Comm node;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    memset(&self, 0, sizeof self);
    MPI_Get_processor_name(self.name, &len);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &self.shared);
    MPI_Comm_free(&node);
    if (rank == 0 && !(all = malloc(sizeof *all * (size_t)size))) {
        fprintf(stderr, "hostcheck: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Gather(&self, (int)sizeof self, MPI_BYTE, all, (int)sizeof self, MPI_BYTE, 0,
               MPI_COMM_WORLD);
    for (int r = 0; rank == 0 && r < size; r++)
        printf("rank %d host %s shared %d\n", r, all[r].name, all[r].shared);
    free(all);
    MPI_Finalize();
    return 0;
}
