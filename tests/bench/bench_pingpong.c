/* bench_pingpong: the same point-to-point patterns as osu_latency and osu_bw
 * written as bare MPI loops with no harness, so p2p_overhead.sh can show what
 * the shared driver adds. Prints "SIZE VALUE" lines (us or MB/s) on rank 0.
 *   bench_pingpong latency MIN MAX ITERATIONS WARMUP
 *   bench_pingpong bw      MIN MAX ITERATIONS WARMUP WINDOW */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double ping_pong(int rank, char *sbuf, char *rbuf, int size, long iters)
{
    int peer = 1 - rank;
    double start = MPI_Wtime();
    for (long i = 0; i < iters; i++) {
        if (rank == 0) {
            MPI_Send(sbuf, size, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
            MPI_Recv(rbuf, size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(rbuf, size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(sbuf, size, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
        }
    }
    return MPI_Wtime() - start;
}

static double windows(int rank, char *sbuf, char *rbuf, int size, long iters, int window,
                      MPI_Request *req, MPI_Status *stat)
{
    int peer = 1 - rank;
    char ack[4] = {0};
    double start = MPI_Wtime();
    for (long i = 0; i < iters; i++) {
        if (rank == 0) {
            for (int w = 0; w < window; w++)
                MPI_Isend(sbuf, size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &req[w]);
            MPI_Waitall(window, req, stat);
            MPI_Recv(ack, 4, MPI_CHAR, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            for (int w = 0; w < window; w++)
                MPI_Irecv(rbuf, size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &req[w]);
            MPI_Waitall(window, req, stat);
            MPI_Send(ack, 4, MPI_CHAR, peer, 2, MPI_COMM_WORLD);
        }
    }
    return MPI_Wtime() - start;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, nranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    int bw = argc == 7 && strcmp(argv[1], "bw") == 0;
    if (nranks != 2 || !(bw || (argc == 6 && strcmp(argv[1], "latency") == 0))) {
        if (rank == 0)
            fprintf(stderr, "usage (2 ranks): bench_pingpong latency MIN MAX ITERS WARMUP | "
                            "bw MIN MAX ITERS WARMUP WINDOW\n");
        MPI_Finalize();
        return 2;
    }
    int min = atoi(argv[2]), max = atoi(argv[3]), window = bw ? atoi(argv[6]) : 1;
    long iters = atol(argv[4]), warmup = atol(argv[5]);
    char *sbuf = malloc((size_t)max + 1), *rbuf = malloc((size_t)max + 1);
    if (!sbuf || !rbuf)
        MPI_Abort(MPI_COMM_WORLD, 1);
    /* Touched like the driver's buffers: untouched zero pages would all map
     * to one cached page and flatter the bare loop. */
    memset(sbuf, 'a', (size_t)max + 1);
    memset(rbuf, 0, (size_t)max + 1);
    MPI_Request *req = malloc((size_t)window * sizeof *req);
    MPI_Status *stat = malloc((size_t)window * sizeof *stat);
    for (int size = min; size <= max; size = size ? size * 2 : 1) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (bw)
            windows(rank, sbuf, rbuf, size, warmup, window, req, stat);
        else
            ping_pong(rank, sbuf, rbuf, size, warmup);
        MPI_Barrier(MPI_COMM_WORLD);
        double t = bw ? windows(rank, sbuf, rbuf, size, iters, window, req, stat)
                      : ping_pong(rank, sbuf, rbuf, size, iters);
        if (rank == 0) {
            double value = bw ? (double)size * window * iters / 1e6 / t : t / 2.0 / iters * 1e6;
            /* Flushed per line like the driver's output: the launcher's
             * forwarding then runs during the next size in both programs. */
            printf("%d %.2f\n", size, value);
            fflush(stdout);
        }
    }
    free(req);
    free(stat);
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
