/* bench_alltoall_bare: MPI_Alltoall timed with plain MPI and nothing else, the
 * reference that osu_alltoall's harness overhead is measured against. Same
 * method as the benchmark: warm-up, each call timed alone and followed by an
 * untimed barrier, each rank's average, then the average across ranks.
 * Sizes double from 1 to MAX bytes per rank per peer (argument, default 65536). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, nranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    size_t max = argc > 1 ? strtoul(argv[1], NULL, 10) : 65536;
    char *send = malloc(max * (size_t)nranks), *recv = malloc(max * (size_t)nranks);
    if (!send || !recv || max == 0) {
        if (rank == 0)
            fprintf(stderr, "bench_alltoall_bare: bad size or out of memory\n");
        MPI_Finalize();
        return 2;
    }
    memset(send, 1, max * (size_t)nranks);
    if (rank == 0)
        printf("%-10s%20s\n", "# Size", "Avg Latency(us)");
    for (size_t size = 1; size <= max; size *= 2) {
        int iters = size > 8192 ? 100 : 1000, warm = size > 8192 ? 10 : 100;
        double total = 0;
        for (int i = 0; i < warm + iters; i++) {
            double t0 = MPI_Wtime();
            MPI_Alltoall(send, (int)size, MPI_BYTE, recv, (int)size, MPI_BYTE, MPI_COMM_WORLD);
            double t = MPI_Wtime() - t0;
            if (i >= warm)
                total += t;
            MPI_Barrier(MPI_COMM_WORLD);
        }
        double mine = total / iters, sum = 0;
        MPI_Reduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        if (rank == 0)
            printf("%-10zu%20.2f\n", size, sum / nranks * 1e6);
    }
    free(send);
    free(recv);
    MPI_Finalize();
    return 0;
}
