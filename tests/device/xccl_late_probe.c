/* xccl_late_probe: shows that the fake NCCL (tests/device/fake_nccl.c)
 * lands its results late, as a GPU may: beside the fake CUDA runtime, an
 * ncclAllReduce's sum is not in the receive buffer when a copy to the host
 * reads it before the stream is synchronised, and is there after. So a
 * program that checks its data too early fails on the fakes, while the
 * xccl programs, which check after xccl_sync, pass. Each rank prints what
 * it read; status 0 when both held on every rank, 1 otherwise.
 * tests/device/xccl.sh builds it against the fake library and runs it. */
#include <cuda_runtime_api.h>
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>

/* The NCCL calls used, as the library's ABI has them (osu/xccl.c). */
typedef struct {
    char internal[128];
} ncclUniqueId;
typedef struct ncclComm *ncclComm_t;
int ncclGetUniqueId(ncclUniqueId *id);
int ncclCommInitRank(ncclComm_t *comm, int nranks, ncclUniqueId id, int rank);
int ncclAllReduce(const void *sendbuff, void *recvbuff, size_t count, int datatype, int op,
                  ncclComm_t comm, cudaStream_t stream);
int ncclCommDestroy(ncclComm_t comm);
enum { FLOAT32 = 7, SUM = 0, COUNT = 4 };

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, ranks = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    float ones[COUNT] = {1, 1, 1, 1}, zeros[COUNT] = {0}, early[COUNT], late[COUNT];
    float *send = NULL, *recv = NULL;
    cudaStream_t stream = NULL;
    ncclUniqueId id = {{0}};
    ncclComm_t comm = NULL;
    bool set = cudaSetDevice(0) == cudaSuccess && cudaMalloc((void **)&send, sizeof ones) == 0 &&
               cudaMalloc((void **)&recv, sizeof ones) == 0 &&
               cudaMemcpy(send, ones, sizeof ones, cudaMemcpyHostToDevice) == 0 &&
               cudaMemcpy(recv, zeros, sizeof zeros, cudaMemcpyHostToDevice) == 0 &&
               cudaDeviceSynchronize() == 0 &&
               cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == 0 &&
               (rank != 0 || ncclGetUniqueId(&id) == 0);
    MPI_Bcast(&id, (int)sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
    set = set && ncclCommInitRank(&comm, ranks, id, rank) == 0 &&
          ncclAllReduce(send, recv, COUNT, FLOAT32, SUM, comm, stream) == 0 &&
          cudaMemcpy(early, recv, sizeof early, cudaMemcpyDeviceToHost) == 0 &&
          cudaStreamSynchronize(stream) == 0 &&
          cudaMemcpy(late, recv, sizeof late, cudaMemcpyDeviceToHost) == 0;
    bool held = set && early[0] == 0 && late[0] == (float)ranks;
    if (set)
        printf("rank %d: before the stream's synchronisation %g, after %g\n", rank,
               (double)early[0], (double)late[0]);
    else
        printf("rank %d: a CUDA or NCCL call failed\n", rank);
    int mine = held, all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (comm)
        ncclCommDestroy(comm);
    MPI_Finalize();
    return all ? 0 : 1;
}
