/* fake_nccl: the NCCL calls osu/xccl.c makes, done with MPI, so that the
 * xccl programs run without a GPU or NCCL. tests/device/xccl.sh builds it
 * as libnccl.so.2 in a folder that LD_LIBRARY_PATH puts first, where the
 * programs' dlopen finds it, beside the fake CUDA runtime
 * (tests/device/fake_cudart.c, preloaded), whose "device" memory is host
 * memory and whose streams carry this library's results. The program has
 * started MPI; a communicator's ranks are the world's (ncclCommInitRank
 * checks it) and its MPI work goes over a duplicate of MPI_COMM_WORLD.
 * It is stricter than NCCL where a program can go wrong:
 *   - every buffer must be device memory of the fake runtime, and every
 *     stream one that the fake runtime made;
 *   - a call reads its send buffer when it is made (a copy still queued on
 *     the default stream is not in it), and its results land late: queued
 *     on the call's stream, they reach the receive buffer only when that
 *     stream (or the device) is synchronised, so a program that checks
 *     its data before that reads the old bytes;
 *   - every rank must pass the unique id that rank 0 made.
 * Sends and receives between ncclGroupStart and ncclGroupEnd are posted
 * together at the group's end (MPI_Isend/MPI_Irecv, which match in order
 * per peer, as NCCL's do); outside a group each is a group of its own.
 * Collectives run when called and only outside a group (ncclInvalidUsage
 * in one: no program here groups them).
 * Environment: FAKE_NCCL_FAIL=NAME makes the call NAME (ncclAllReduce,
 * ncclCommInitRank, ...) return ncclInternalError on rank
 * FAKE_NCCL_FAIL_RANK (default 0); FAKE_NCCL_CORRUPT=1 makes one byte of
 * every result wrong (its lowest bit flipped). */
#include <dlfcn.h>
#include <limits.h>
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* NCCL's ABI: the types of nccl.h that the calls below take. */
typedef enum {
    ncclSuccess = 0,
    ncclUnhandledCudaError = 1,
    ncclSystemError = 2,
    ncclInternalError = 3,
    ncclInvalidArgument = 4,
    ncclInvalidUsage = 5,
} ncclResult_t;
typedef struct {
    char internal[128];
} ncclUniqueId;
typedef struct ncclComm *ncclComm_t;
typedef int ncclDataType_t;
typedef int ncclRedOp_t;
typedef void *stream_t; /* cudaStream_t */

#define COMM_MAGIC 0x6e63636cu

struct ncclComm {
    unsigned magic;
    MPI_Comm mpi;
    int rank, nranks;
};

/* ---- the fake CUDA runtime's hooks, found when first needed ---- */

static int (*read_device)(void *host, const void *dev, size_t n);
static int (*stream_result)(stream_t stream, void *dst, const void *src, size_t n);

static bool runtime(void)
{
    if (!read_device) {
        *(void **)&read_device = dlsym(RTLD_DEFAULT, "fake_cudart_read_device");
        *(void **)&stream_result = dlsym(RTLD_DEFAULT, "fake_cudart_stream_result");
    }
    return read_device && stream_result;
}

/* ---- what the environment asks for ---- */

static int world_rank(void)
{
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

/* FAKE_NCCL_FAIL names call on this rank. */
static bool fails(const char *call)
{
    const char *which = getenv("FAKE_NCCL_FAIL");
    const char *on = getenv("FAKE_NCCL_FAIL_RANK");
    return which && strcmp(which, call) == 0 && world_rank() == (on && *on ? atoi(on) : 0);
}

static bool corrupt(void)
{
    const char *v = getenv("FAKE_NCCL_CORRUPT");
    return v && strcmp(v, "1") == 0;
}

/* ---- the calls' parts ---- */

static bool comm_ok(const struct ncclComm *c) { return c && c->magic == COMM_MAGIC; }

/* Bytes of an element and the MPI type reductions use (MPI_DATATYPE_NULL:
 * none, the halves); 0 bytes for a type NCCL does not have. */
static size_t type_size(ncclDataType_t t, MPI_Datatype *mpi)
{
    static const struct {
        size_t bytes;
        int which;
    } types[] = {{1, 0}, {1, 1}, {4, 2}, {4, 3}, {8, 4}, {8, 5}, {2, -1}, {4, 6}, {8, 7}, {2, -1}};
    if (t < 0 || (size_t)t >= sizeof types / sizeof types[0])
        return 0;
    MPI_Datatype mpis[] = {MPI_INT8_T,  MPI_UINT8_T, MPI_INT32_T, MPI_UINT32_T,
                           MPI_INT64_T, MPI_UINT64_T, MPI_FLOAT,  MPI_DOUBLE};
    *mpi = types[t].which < 0 ? MPI_DATATYPE_NULL : mpis[types[t].which];
    return types[t].bytes;
}

static MPI_Op op_of(ncclRedOp_t op)
{
    return op == 0 ? MPI_SUM : op == 1 ? MPI_PROD : op == 2 ? MPI_MAX : op == 3 ? MPI_MIN
                                                                                : MPI_OP_NULL;
}

/* count elements of t in bytes, within what one MPI call of MPI_BYTE can
 * move (this fake's limit, not NCCL's); 0 for a bad type or size. */
static size_t bytes_of(size_t count, ncclDataType_t t, MPI_Datatype *mpi)
{
    size_t size = type_size(t, mpi);
    if (size == 0 || count > (size_t)INT_MAX / size)
        return 0;
    return count * size;
}

/* A host copy of n device bytes at dev, as they are now; NULL when dev is
 * not device memory. */
static void *take(const void *dev, size_t n)
{
    void *host = malloc(n ? n : 1);
    if (host && read_device(host, dev, n) != 0) {
        free(host);
        host = NULL;
    }
    return host;
}

/* Queues n result bytes for dst on stream; frees result. */
static ncclResult_t deliver(stream_t stream, void *dst, char *result, size_t n)
{
    if (corrupt() && n > 0)
        result[n / 2] ^= 1;
    int rc = stream_result(stream, dst, result, n);
    free(result);
    return rc == 0 ? ncclSuccess : ncclInvalidArgument;
}

/* ---- groups of sends and receives ---- */

struct p2p {
    bool send;
    char *data; /* a send's bytes, or a receive's landing place */
    void *dst;  /* a receive's buffer */
    size_t n;
    int peer;
    struct ncclComm *comm;
    stream_t stream;
};
static struct p2p *ops;
static size_t nops, ops_cap;
static int depth;
static ncclResult_t group_failed; /* a call of the open group that failed */

/* Posts every queued send and receive, waits for all, and queues what
 * arrived on its stream. */
static ncclResult_t flush(void)
{
    ncclResult_t rc = group_failed;
    MPI_Request *req = malloc((nops ? nops : 1) * sizeof *req);
    if (!req)
        rc = ncclSystemError;
    for (size_t i = 0; i < nops && rc == ncclSuccess; i++) {
        struct p2p *o = &ops[i];
        int err = o->send ? MPI_Isend(o->data, (int)o->n, MPI_BYTE, o->peer, 0, o->comm->mpi,
                                      &req[i])
                          : MPI_Irecv(o->data, (int)o->n, MPI_BYTE, o->peer, 0, o->comm->mpi,
                                      &req[i]);
        if (err != MPI_SUCCESS)
            rc = ncclSystemError;
    }
    if (rc == ncclSuccess && MPI_Waitall((int)nops, req, MPI_STATUSES_IGNORE) != MPI_SUCCESS)
        rc = ncclSystemError;
    for (size_t i = 0; i < nops; i++) {
        struct p2p *o = &ops[i];
        ncclResult_t r = rc;
        if (rc == ncclSuccess && !o->send)
            r = deliver(o->stream, o->dst, o->data, o->n);
        else
            free(o->data);
        rc = rc == ncclSuccess ? r : rc;
    }
    free(req);
    nops = 0;
    group_failed = ncclSuccess;
    return rc;
}

/* A send or receive: into the open group, or a group of its own. */
static ncclResult_t point(bool send, const void *buf, size_t count, ncclDataType_t t, int peer,
                          ncclComm_t comm, stream_t stream)
{
    MPI_Datatype mpi;
    size_t n = bytes_of(count, t, &mpi);
    ncclResult_t rc = ncclSuccess;
    char *data = NULL;
    if (!runtime())
        rc = ncclUnhandledCudaError;
    else if (fails(send ? "ncclSend" : "ncclRecv"))
        rc = ncclInternalError;
    else if (!comm_ok(comm) || (n == 0 && count > 0) || peer < 0 || peer >= comm->nranks ||
             !(data = take(buf, n)))
        rc = ncclInvalidArgument;
    if (rc == ncclSuccess && nops == ops_cap) {
        size_t cap = ops_cap ? 2 * ops_cap : 64;
        struct p2p *more = realloc(ops, cap * sizeof *more);
        if (more) {
            ops = more;
            ops_cap = cap;
        } else {
            rc = ncclSystemError;
        }
    }
    if (rc != ncclSuccess) {
        free(data);
        if (depth > 0)
            group_failed = rc;
        return rc;
    }
    ops[nops++] = (struct p2p){send, data, (void *)buf, n, peer, comm, stream};
    return depth > 0 ? ncclSuccess : flush();
}

/* ---- the calls ---- */

ncclResult_t ncclGetVersion(int *version)
{
    if (fails("ncclGetVersion"))
        return ncclInternalError;
    *version = 29999; /* 2.99.99: no NCCL that exists */
    return ncclSuccess;
}

const char *ncclGetErrorString(ncclResult_t result)
{
    switch (result) {
    case ncclSuccess: return "no error (fake NCCL)";
    case ncclUnhandledCudaError: return "unhandled cuda error (fake NCCL: no fake CUDA runtime)";
    case ncclSystemError: return "unhandled system error (fake NCCL: an MPI call failed)";
    case ncclInternalError: return "internal error (fake NCCL: FAKE_NCCL_FAIL)";
    case ncclInvalidArgument: return "invalid argument (fake NCCL)";
    case ncclInvalidUsage: return "invalid usage (fake NCCL)";
    }
    return "unknown result (fake NCCL)";
}

ncclResult_t ncclGetUniqueId(ncclUniqueId *id)
{
    if (fails("ncclGetUniqueId"))
        return ncclInternalError;
    memset(id, 0, sizeof *id);
    snprintf(id->internal, sizeof id->internal, "fake nccl %ld %ld", (long)getpid(),
             (long)time(NULL));
    return ncclSuccess;
}

/* Collective over the world: the MPI work first, so that a rank that
 * refuses leaves none waiting in it. */
ncclResult_t ncclCommInitRank(ncclComm_t *comm, int nranks, ncclUniqueId id, int rank)
{
    int up = 0, size = 0, me = 0;
    MPI_Initialized(&up);
    if (!up)
        return ncclInvalidUsage; /* the world model's MPI_COMM_WORLD: MPI_Init first */
    struct ncclComm *c = calloc(1, sizeof *c);
    if (!c)
        return ncclSystemError;
    ncclUniqueId first = id;
    if (MPI_Comm_dup(MPI_COMM_WORLD, &c->mpi) != MPI_SUCCESS ||
        MPI_Bcast(&first, (int)sizeof first, MPI_BYTE, 0, c->mpi) != MPI_SUCCESS) {
        free(c);
        return ncclSystemError;
    }
    MPI_Comm_size(c->mpi, &size);
    MPI_Comm_rank(c->mpi, &me);
    ncclResult_t rc = ncclSuccess;
    if (fails("ncclCommInitRank"))
        rc = ncclInternalError;
    else if (nranks != size || rank != me || memcmp(&first, &id, sizeof id) != 0)
        rc = ncclInvalidArgument;
    if (rc != ncclSuccess) {
        MPI_Comm_free(&c->mpi);
        free(c);
        return rc;
    }
    c->magic = COMM_MAGIC;
    c->rank = me;
    c->nranks = size;
    *comm = c;
    return ncclSuccess;
}

ncclResult_t ncclCommDestroy(ncclComm_t comm)
{
    if (fails("ncclCommDestroy"))
        return ncclInternalError;
    if (!comm_ok(comm))
        return ncclInvalidArgument;
    comm->magic = 0;
    MPI_Comm_free(&comm->mpi);
    free(comm);
    return ncclSuccess;
}

ncclResult_t ncclGroupStart(void)
{
    if (fails("ncclGroupStart"))
        return ncclInternalError;
    depth++;
    return ncclSuccess;
}

ncclResult_t ncclGroupEnd(void)
{
    if (fails("ncclGroupEnd"))
        return ncclInternalError;
    if (depth == 0)
        return ncclInvalidUsage;
    return --depth > 0 ? ncclSuccess : flush();
}

ncclResult_t ncclSend(const void *sendbuff, size_t count, ncclDataType_t datatype, int peer,
                      ncclComm_t comm, stream_t stream)
{
    return point(true, sendbuff, count, datatype, peer, comm, stream);
}

ncclResult_t ncclRecv(void *recvbuff, size_t count, ncclDataType_t datatype, int peer,
                      ncclComm_t comm, stream_t stream)
{
    return point(false, recvbuff, count, datatype, peer, comm, stream);
}

/* What every collective checks first; *n gets count's bytes, *mpi the
 * element's MPI type; op is a reduction's operator, or -1. */
static ncclResult_t collective(const char *call, size_t count, ncclDataType_t t, int op,
                               const struct ncclComm *comm, size_t *n, MPI_Datatype *mpi)
{
    if (!runtime())
        return ncclUnhandledCudaError;
    if (fails(call))
        return ncclInternalError;
    if (depth > 0)
        return ncclInvalidUsage;
    *n = bytes_of(count, t, mpi);
    if (!comm_ok(comm) || (*n == 0 && count > 0) ||
        *n > (size_t)INT_MAX / (size_t)comm->nranks ||
        (op >= 0 && (*mpi == MPI_DATATYPE_NULL || op_of(op) == MPI_OP_NULL)))
        return ncclInvalidArgument;
    return ncclSuccess;
}

/* A collective's send bytes, taken (sent of them at sendbuff), and room
 * for its result (result bytes; none when want_result is false): false,
 * with nothing held, when sendbuff is not device memory or memory ran
 * out. */
static bool hold(const void *sendbuff, size_t sent, size_t result, bool want_result,
                 char **sent_bytes, char **result_bytes)
{
    *sent_bytes = take(sendbuff, sent);
    *result_bytes = want_result ? malloc(result ? result : 1) : NULL;
    if (*sent_bytes && (*result_bytes || !want_result))
        return true;
    free(*sent_bytes);
    free(*result_bytes);
    return false;
}

/* The end of a collective: the result delivered (or, after a failure,
 * dropped) and the send bytes freed. */
static ncclResult_t finish(int mpi_rc, stream_t stream, void *dst, char *result, size_t n,
                           void *sent)
{
    free(sent);
    if (mpi_rc != MPI_SUCCESS) {
        free(result);
        return ncclSystemError;
    }
    return result ? deliver(stream, dst, result, n) : ncclSuccess;
}

ncclResult_t ncclAllReduce(const void *sendbuff, void *recvbuff, size_t count,
                           ncclDataType_t datatype, ncclRedOp_t op, ncclComm_t comm,
                           stream_t stream)
{
    size_t n;
    MPI_Datatype mpi;
    char *sent, *result;
    ncclResult_t rc = collective("ncclAllReduce", count, datatype, op, comm, &n, &mpi);
    if (rc != ncclSuccess)
        return rc;
    if (!hold(sendbuff, n, n, true, &sent, &result))
        return ncclInvalidArgument;
    int mrc = MPI_Allreduce(sent, result, (int)count, mpi, op_of(op), comm->mpi);
    return finish(mrc, stream, recvbuff, result, n, sent);
}

ncclResult_t ncclReduce(const void *sendbuff, void *recvbuff, size_t count,
                        ncclDataType_t datatype, ncclRedOp_t op, int root, ncclComm_t comm,
                        stream_t stream)
{
    size_t n;
    MPI_Datatype mpi;
    char *sent, *result;
    ncclResult_t rc = collective("ncclReduce", count, datatype, op, comm, &n, &mpi);
    if (rc != ncclSuccess)
        return rc;
    if (root < 0 || root >= comm->nranks ||
        !hold(sendbuff, n, n, comm->rank == root, &sent, &result))
        return ncclInvalidArgument;
    int mrc = MPI_Reduce(sent, result, (int)count, mpi, op_of(op), root, comm->mpi);
    return finish(mrc, stream, recvbuff, result, n, sent);
}

/* The root's data is its send buffer; every rank's result, the root's
 * too, lands in its receive buffer. */
ncclResult_t ncclBroadcast(const void *sendbuff, void *recvbuff, size_t count,
                           ncclDataType_t datatype, int root, ncclComm_t comm, stream_t stream)
{
    size_t n;
    MPI_Datatype mpi;
    ncclResult_t rc = collective("ncclBroadcast", count, datatype, -1, comm, &n, &mpi);
    if (rc != ncclSuccess)
        return rc;
    if (root < 0 || root >= comm->nranks)
        return ncclInvalidArgument;
    char *result = comm->rank == root ? take(sendbuff, n) : malloc(n ? n : 1);
    if (!result)
        return ncclInvalidArgument;
    int mrc = MPI_Bcast(result, (int)n, MPI_BYTE, root, comm->mpi);
    return finish(mrc, stream, recvbuff, result, n, NULL);
}

ncclResult_t ncclAllGather(const void *sendbuff, void *recvbuff, size_t sendcount,
                           ncclDataType_t datatype, ncclComm_t comm, stream_t stream)
{
    size_t n;
    MPI_Datatype mpi;
    char *sent, *result;
    ncclResult_t rc = collective("ncclAllGather", sendcount, datatype, -1, comm, &n, &mpi);
    if (rc != ncclSuccess)
        return rc;
    size_t all = n * (size_t)comm->nranks;
    if (!hold(sendbuff, n, all, true, &sent, &result))
        return ncclInvalidArgument;
    int mrc = MPI_Allgather(sent, (int)n, MPI_BYTE, result, (int)n, MPI_BYTE, comm->mpi);
    return finish(mrc, stream, recvbuff, result, all, sent);
}

ncclResult_t ncclReduceScatter(const void *sendbuff, void *recvbuff, size_t recvcount,
                               ncclDataType_t datatype, ncclRedOp_t op, ncclComm_t comm,
                               stream_t stream)
{
    size_t n;
    MPI_Datatype mpi;
    char *sent, *result;
    ncclResult_t rc = collective("ncclReduceScatter", recvcount, datatype, op, comm, &n, &mpi);
    if (rc != ncclSuccess)
        return rc;
    if (!hold(sendbuff, n * (size_t)comm->nranks, n, true, &sent, &result))
        return ncclInvalidArgument;
    int mrc = MPI_Reduce_scatter_block(sent, result, (int)recvcount, mpi, op_of(op), comm->mpi);
    return finish(mrc, stream, recvbuff, result, n, sent);
}
