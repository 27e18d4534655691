/* xccl: NCCL or RCCL loaded at run time; see xccl.h. */
#include "xccl.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devmem.h"
#include "harness.h"
#include "report.h"

/* The library's types as its ABI defines them (nccl.h; rccl.h is the
 * same): results, element types and reduction operators are C enums, so
 * ints; the unique id is 128 bytes passed by value; a communicator is an
 * opaque pointer, and so is a stream (cudaStream_t, hipStream_t). Only the
 * values used here are named. */
typedef int xccl_result;
enum { XCCL_SUCCESS = 0, XCCL_SUM = 0 };
enum { XCCL_INT8 = 0, XCCL_UINT8 = 1, XCCL_INT32 = 2, XCCL_FLOAT32 = 7, XCCL_FLOAT64 = 8 };
struct xccl_unique_id {
    char internal[128];
};
typedef struct xccl_comm *xccl_comm;

_Static_assert(sizeof(void *) == sizeof(int (*)(void)),
               "dlsym's pointer holds a function pointer (POSIX)");
_Static_assert(sizeof(int) == 4 && sizeof(float) == 4 && sizeof(double) == 8,
               "MPI_INT, MPI_FLOAT and MPI_DOUBLE map to the library's 32- and 64-bit types");

/* The calls, each found by its name (calls[] below). */
static struct {
    xccl_result (*get_version)(int *version);
    const char *(*get_error_string)(xccl_result result);
    xccl_result (*get_unique_id)(struct xccl_unique_id *id);
    xccl_result (*comm_init_rank)(xccl_comm *comm, int nranks, struct xccl_unique_id id,
                                  int rank);
    xccl_result (*comm_destroy)(xccl_comm comm);
    xccl_result (*all_reduce)(const void *send, void *recv, size_t count, int type, int op,
                              xccl_comm comm, void *stream);
    xccl_result (*all_gather)(const void *send, void *recv, size_t count, int type,
                              xccl_comm comm, void *stream);
    xccl_result (*broadcast)(const void *send, void *recv, size_t count, int type, int root,
                             xccl_comm comm, void *stream);
    xccl_result (*reduce)(const void *send, void *recv, size_t count, int type, int op,
                          int root, xccl_comm comm, void *stream);
    xccl_result (*reduce_scatter)(const void *send, void *recv, size_t count, int type, int op,
                                  xccl_comm comm, void *stream);
    xccl_result (*send)(const void *buf, size_t count, int type, int peer, xccl_comm comm,
                        void *stream);
    xccl_result (*recv)(void *buf, size_t count, int type, int peer, xccl_comm comm,
                        void *stream);
    xccl_result (*group_start)(void);
    xccl_result (*group_end)(void);
} lib;

static const struct {
    const char *name;
    void *slot; /* the member of lib that holds it */
} calls[] = {
    {"ncclGetVersion", &lib.get_version},       {"ncclGetErrorString", &lib.get_error_string},
    {"ncclGetUniqueId", &lib.get_unique_id},    {"ncclCommInitRank", &lib.comm_init_rank},
    {"ncclCommDestroy", &lib.comm_destroy},     {"ncclAllReduce", &lib.all_reduce},
    {"ncclAllGather", &lib.all_gather},         {"ncclBroadcast", &lib.broadcast},
    {"ncclReduce", &lib.reduce},                {"ncclReduceScatter", &lib.reduce_scatter},
    {"ncclSend", &lib.send},                    {"ncclRecv", &lib.recv},
    {"ncclGroupStart", &lib.group_start},       {"ncclGroupEnd", &lib.group_end},
};

static struct {
    const char *asked; /* the name dlopen found */
    char file[512];    /* the file it loaded */
    int version;       /* ncclGetVersion's code */
    xccl_comm comm;
    void *stream;
    int nranks;
} state;

/* RCCL in a HIP build, NCCL in a CUDA build: the library of the device's
 * vendor, which the stream and the buffers are. */
static bool rccl(void)
{
    const char *v = devmem_vendor();
    return v && strcmp(v, "hip") == 0;
}
static const char *lib_name(void) { return rccl() ? "RCCL" : "NCCL"; }

const char *xccl_title(const char *what)
{
    static char title[160];
    snprintf(title, sizeof title, "OSU %s-%s %s", lib_name(), rccl() ? "ROCM" : "CUDA", what);
    return title;
}

static void check(xccl_result rc, const char *call)
{
    if (__builtin_expect(rc == XCCL_SUCCESS, 1))
        return;
    const char *what = lib.get_error_string ? lib.get_error_string(rc) : NULL;
    err_fatal("%s failed: %s (%s error %d)", call, what ? what : "no error string", lib_name(),
              rc);
}

/* Opens the library and finds every call; false with why (one line). */
static bool load(char *why, size_t len)
{
    static const char *const nccl[] = {"libnccl.so.2", NULL};
    static const char *const rccl_names[] = {"librccl.so", "librccl.so.1", NULL};
    const char *chosen[] = {getenv("COMMSWEEP_XCCL_LIB"), NULL};
    const char *const *names = chosen[0] && *chosen[0] ? chosen : rccl() ? rccl_names : nccl;
    void *handle = NULL;
    const char *failure = "";
    for (size_t i = 0; names[i] && !handle; i++) {
        handle = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        state.asked = names[i];
        if (!handle)
            failure = dlerror();
    }
    if (!handle) {
        char tried[128] = "";
        for (size_t i = 0, used = 0; names[i] && used < sizeof tried; i++)
            used += (size_t)snprintf(tried + used, sizeof tried - used, "%s%s",
                                     i ? " or " : "", names[i]);
        snprintf(why, len,
                 "cannot load %s (%s): %s; install it, or put its folder in LD_LIBRARY_PATH "
                 "(COMMSWEEP_XCCL_LIB names a file)",
                 lib_name(), tried, failure);
        return false;
    }
    void *first = NULL;
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
        void *found = dlsym(handle, calls[i].name);
        if (!found) {
            snprintf(why, len, "%s (%s) has no %s: is it %s?", state.asked, lib_name(),
                     calls[i].name, lib_name());
            return false;
        }
        /* A data pointer as the function pointer it is (POSIX dlsym). */
        memcpy(calls[i].slot, &found, sizeof found);
        first = first ? first : found;
    }
    Dl_info info;
    bool named = dladdr(first, &info) && info.dli_fname;
    snprintf(state.file, sizeof state.file, "%s", named ? info.dli_fname : state.asked);
    return true;
}

/* At the process's end (err_at_exit): after a failure a call may still be
 * in flight, or wait for a rank that has gone, so that the library's end
 * could wait for ever; the process ends anyway, and the library with it. */
static void end(int status)
{
    if (status != ERR_STATUS_OK && !err_check_failed())
        return;
    xccl_result rc = state.comm ? lib.comm_destroy(state.comm) : XCCL_SUCCESS;
    if (rc != XCCL_SUCCESS)
        err_print("ncclCommDestroy failed: %s", lib.get_error_string(rc));
    state.comm = NULL;
    devmem_stream_destroy(state.stream);
    state.stream = NULL;
}

static void start(void)
{
    char why[768] = "";
    bool bad = !load(why, sizeof why);
    err_any_rank(harness.comm, bad, ERR_STATUS_USAGE, "%s", why);
    check(lib.get_version(&state.version), "ncclGetVersion");
    struct xccl_unique_id id;
    memset(&id, 0, sizeof id);
    if (harness.rank == 0)
        check(lib.get_unique_id(&id), "ncclGetUniqueId");
    MPI_CHECK(MPI_Bcast(&id, (int)sizeof id, MPI_BYTE, 0, harness.comm));
    const char *err = "";
    bad = devmem_stream_create(&state.stream, &err) != 0;
    err_any_rank(harness.comm, bad, ERR_STATUS_FAIL, "%s", err);
    err_at_exit(end);
    check(lib.comm_init_rank(&state.comm, harness.size, id, harness.rank), "ncclCommInitRank");
    state.nranks = harness.size;
}

static const char *omb_line(void) { return rccl() ? "#Using RCCL\n" : "#Using NCCL\n"; }

/* The version code: X * 10000 + Y * 100 + Z since 2.9, X * 1000 + Y * 100
 * + Z before. */
static void describe(void)
{
    int v = state.version, major = v >= 10000 ? v / 10000 : v / 1000;
    int minor = v >= 10000 ? v % 10000 / 100 : v % 1000 / 100;
    char what[700];
    if (strcmp(state.asked, state.file) == 0)
        snprintf(what, sizeof what, "%s %d.%d.%d (%s)", lib_name(), major, minor, v % 100,
                 state.asked);
    else
        snprintf(what, sizeof what, "%s %d.%d.%d (%s: %s)", lib_name(), major, minor, v % 100,
                 state.asked, state.file);
    out_comment("xccl: %s", what);
    report_header_string("xccl", what);
    out_comment("xccl: each timed call is the library's, queued on a stream of its own, and "
                "the stream's synchronisation; MPI never reads the device buffers");
    char mine[128];
    devmem_describe(mine, sizeof mine);
    out_comment_per_rank(harness.comm, " device", "devices", mine, sizeof mine);
}

const struct osu_offload xccl_offload = {.start = start, .omb_line = omb_line,
                                         .describe = describe};

/* The library's element type of an MPI one, and its size. */
static int type_of(MPI_Datatype elem, size_t *size)
{
    if (elem == MPI_CHAR || elem == MPI_SIGNED_CHAR) {
        *size = 1;
        return XCCL_INT8;
    }
    if (elem == MPI_BYTE || elem == MPI_UNSIGNED_CHAR) {
        *size = 1;
        return XCCL_UINT8;
    }
    if (elem == MPI_INT) {
        *size = 4;
        return XCCL_INT32;
    }
    if (elem == MPI_FLOAT) {
        *size = 4;
        return XCCL_FLOAT32;
    }
    if (elem == MPI_DOUBLE) {
        *size = 8;
        return XCCL_FLOAT64;
    }
    err_fatal("no %s element type for this MPI datatype", lib_name());
}

void xccl_allreduce(const void *send, void *recv, size_t count, MPI_Datatype elem)
{
    size_t size;
    check(lib.all_reduce(send, recv, count, type_of(elem, &size), XCCL_SUM, state.comm,
                         state.stream),
          "ncclAllReduce");
}

void xccl_reduce(const void *send, void *recv, size_t count, MPI_Datatype elem, int root)
{
    size_t size;
    check(lib.reduce(send, recv, count, type_of(elem, &size), XCCL_SUM, root, state.comm,
                     state.stream),
          "ncclReduce");
}

void xccl_bcast(void *buf, size_t count, MPI_Datatype elem, int root)
{
    size_t size;
    check(lib.broadcast(buf, buf, count, type_of(elem, &size), root, state.comm, state.stream),
          "ncclBroadcast");
}

void xccl_allgather(const void *send, void *recv, size_t count, MPI_Datatype elem)
{
    size_t size;
    check(lib.all_gather(send, recv, count, type_of(elem, &size), state.comm, state.stream),
          "ncclAllGather");
}

void xccl_reduce_scatter(const void *send, void *recv, size_t count, MPI_Datatype elem)
{
    size_t size;
    check(lib.reduce_scatter(send, recv, count, type_of(elem, &size), XCCL_SUM, state.comm,
                             state.stream),
          "ncclReduceScatter");
}

void xccl_send(const void *buf, size_t count, MPI_Datatype elem, int peer)
{
    size_t size;
    check(lib.send(buf, count, type_of(elem, &size), peer, state.comm, state.stream),
          "ncclSend");
}

void xccl_recv(void *buf, size_t count, MPI_Datatype elem, int peer)
{
    size_t size;
    check(lib.recv(buf, count, type_of(elem, &size), peer, state.comm, state.stream),
          "ncclRecv");
}

void xccl_group_start(void) { check(lib.group_start(), "ncclGroupStart"); }
void xccl_group_end(void) { check(lib.group_end(), "ncclGroupEnd"); }

void xccl_alltoall(const void *send, void *recv, size_t count, MPI_Datatype elem)
{
    size_t size;
    int type = type_of(elem, &size);
    size_t block = count * size;
    xccl_group_start();
    for (int r = 0; r < state.nranks; r++) {
        check(lib.send((const char *)send + (size_t)r * block, count, type, r, state.comm,
                       state.stream),
              "ncclSend");
        check(lib.recv((char *)recv + (size_t)r * block, count, type, r, state.comm,
                       state.stream),
              "ncclRecv");
    }
    xccl_group_end();
}

void xccl_window(const void *send, void *recv, size_t stride, size_t window, size_t count,
                 MPI_Datatype elem, int peer)
{
    xccl_group_start();
    for (size_t w = 0; w < window; w++) {
        if (send)
            xccl_send((const char *)send + w * stride, count, elem, peer);
        if (recv)
            xccl_recv((char *)recv + w * stride, count, elem, peer);
    }
    xccl_group_end();
}

void xccl_sync(void)
{
    const char *err = "";
    if (__builtin_expect(devmem_stream_synchronize(state.stream, &err) != 0, 0))
        err_fatal("%s", err);
}
