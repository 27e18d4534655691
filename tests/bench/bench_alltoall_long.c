/* A bare MPI_Alltoall loop on MPI_LONG, deliberately without the harness:
 * the reference that alltoall/all's per-call time is compared with.
 * Usage: bench_alltoall_long COUNT REPS [split]. With "split" the loop runs on
 * a communicator made by MPI_Comm_split, as alltoall/all's are: in Open MPI
 * 4.1 creating one leaves the non-blocking collective engine polled by every
 * later progress call, which costs small messages some tens of nanoseconds.
 * Prints two figures in seconds per call:
 *   1. the mean over iterations of each iteration's maximum over ranks (the
 *      definition alltoall/all uses), from the same back-to-back loop;
 *   2. the slowest rank's total time / REPS (a plain throughput figure). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long count = argc > 1 ? atol(argv[1]) : 1, reps = argc > 2 ? atol(argv[2]) : 10000;
    if (count < 1 || reps < 1) {
        if (rank == 0)
            fprintf(stderr, "usage: bench_alltoall_long COUNT REPS\n");
        MPI_Finalize();
        return 2;
    }
    MPI_Comm comm = MPI_COMM_WORLD;
    if (argc > 3 && argv[3][0] == 's')
        MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &comm);
    long *send = calloc((size_t)(count * size), sizeof *send);
    long *recv = calloc((size_t)(count * size), sizeof *recv);
    MPI_Alltoall(send, (int)count, MPI_LONG, recv, (int)count, MPI_LONG, comm);
    double *t = malloc((size_t)reps * sizeof *t), *tmax = malloc((size_t)reps * sizeof *tmax);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime(), prev = t0;
    for (long i = 0; i < reps; i++) {
        MPI_Alltoall(send, (int)count, MPI_LONG, recv, (int)count, MPI_LONG, comm);
        double now = MPI_Wtime();
        t[i] = now - prev;
        prev = now;
    }
    double per_call = (prev - t0) / (double)reps, slowest;
    MPI_Reduce(&per_call, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(t, tmax, (int)reps, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        double sum = 0;
        for (long i = 0; i < reps; i++)
            sum += tmax[i];
        printf("%.9e %.9e\n", sum / (double)reps, slowest);
    }
    free(t);
    free(tmax);
    free(send);
    free(recv);
    MPI_Finalize();
    return 0;
}
