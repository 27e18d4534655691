/* rma_window: window creation and owner access; see rma_window.h. */
#include "rma_window.h"

#include <stdio.h>
#include <string.h>

#include "err.h"
#include "win.h"

const char *const rma_win_memory_names[] = {"alloc_mem", "malloc", NULL};

/* The seed's hint: MVAPICH2 places such memory in shared memory, other
 * libraries ignore it. */
static MPI_Info hint_info(bool hints)
{
    if (!hints)
        return MPI_INFO_NULL;
    MPI_Info info;
    MPI_CHECK(MPI_Info_create(&info));
    MPI_CHECK(MPI_Info_set(info, "alloc_shm", "true"));
    return info;
}

static void alloc_mpi_memory(struct rma_window *w, size_t bytes, MPI_Info info, MPI_Comm comm)
{
    void *ptr = NULL;
    int rc = MPI_Alloc_mem((MPI_Aint)bytes, info, &ptr);
    err_any(comm, rc != MPI_SUCCESS, ERR_STATUS_USAGE,
            "cannot allocate %zu bytes of window memory with MPI_Alloc_mem", bytes);
    w->mem.ptr = ptr;
    w->mpi_memory = true;
}

/* Window creation is collective and fails alike on every rank when the
 * library has no one-sided component for the window (Open MPI's osc/rdma
 * needs a transport with RDMA, osc/sm serves MPI_Win_allocate only): that is
 * a property of the installation, reported once, without an abort. */
static void created(int rc, const char *call, MPI_Comm comm)
{
    char text[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    if (rc != MPI_SUCCESS)
        MPI_Error_string(rc, text, &len);
    err_any(comm, rc != MPI_SUCCESS, ERR_STATUS_FAIL,
            "%s failed: %s (the MPI library cannot create this kind of window here; try "
            "another -w)", call, text);
}

void rma_window_open(struct rma_window *w, enum rma_win_kind kind, enum rma_win_memory memory,
                     size_t bytes, enum buf_where where, bool hints, int rank, int peer,
                     MPI_Comm comm)
{
    memset(w, 0, sizeof *w);
    w->kind = kind;
    w->rank = rank;
    w->mem.bytes = bytes;
    w->mem.where = where;
    MPI_Info info = hint_info(hints && where == BUF_HOST);
    if (where != BUF_HOST || (kind != RMA_WIN_ALLOCATE && memory == RMA_MEM_MALLOC)) {
        buf_alloc_all(&w->mem, bytes, where, comm);
        if (where == BUF_HOST) /* touched before the window exists, as OMB 7.4 does */
            memset(w->mem.ptr, 0, bytes);
    } else if (kind != RMA_WIN_ALLOCATE) {
        alloc_mpi_memory(w, bytes, info, comm);
    }

    switch (kind) {
    case RMA_WIN_CREATE:
        created(MPI_Win_create(w->mem.ptr, (MPI_Aint)bytes, 1, MPI_INFO_NULL, comm, &w->win),
                "MPI_Win_create", comm);
        break;
    case RMA_WIN_ALLOCATE: {
        void *ptr = NULL;
        created(win_allocate(bytes, 1, info, comm, &ptr, &w->win), "MPI_Win_allocate", comm);
        w->mem.ptr = ptr;
        break;
    }
    default: {
        created(MPI_Win_create_dynamic(MPI_INFO_NULL, comm, &w->win), "MPI_Win_create_dynamic",
                comm);
        MPI_CHECK(MPI_Win_attach(w->win, w->mem.ptr, (MPI_Aint)bytes));
        MPI_Aint mine;
        MPI_CHECK(MPI_Get_address(w->mem.ptr, &mine));
        MPI_CHECK(MPI_Sendrecv(&mine, 1, MPI_AINT, peer, 0, &w->peer_base, 1, MPI_AINT, peer,
                               0, comm, MPI_STATUS_IGNORE));
        break;
    }
    }
    MPI_CHECK(MPI_Win_set_errhandler(w->win, MPI_ERRORS_RETURN));
    if (info != MPI_INFO_NULL)
        MPI_CHECK(MPI_Info_free(&info));
}

void rma_window_close(struct rma_window *w)
{
    if (w->kind == RMA_WIN_DYNAMIC)
        MPI_CHECK(MPI_Win_detach(w->win, w->mem.ptr));
    MPI_CHECK(MPI_Win_free(&w->win));
    if (w->kind == RMA_WIN_ALLOCATE)
        return; /* MPI_Win_free released it */
    if (w->mpi_memory)
        MPI_CHECK(MPI_Free_mem(w->mem.ptr));
    else
        buf_free(&w->mem);
    w->mem.ptr = NULL;
}

void rma_window_describe(enum rma_win_kind kind, enum rma_win_memory memory_from, bool hints,
                         bool device, char *text, size_t len)
{
    bool own = device || (kind != RMA_WIN_ALLOCATE && memory_from == RMA_MEM_MALLOC);
    const char *memory = device ? "device memory"
                         : own  ? "page-aligned memory (posix_memalign)"
                                : "MPI_Alloc_mem memory";
    const char *hint = own ? "" : hints ? ", info alloc_shm=true" : ", no info hints";
    switch (kind) {
    case RMA_WIN_CREATE:
        snprintf(text, len, "create (MPI_Win_create over %s%s)", memory, hint);
        break;
    case RMA_WIN_ALLOCATE:
        snprintf(text, len, "allocate (MPI_Win_allocate%s)", hint);
        break;
    default:
        snprintf(text, len, "dynamic (MPI_Win_create_dynamic, MPI_Win_attach of %s%s)", memory,
                 hint);
        break;
    }
}

void rma_window_local_begin(const struct rma_window *w, enum rma_local how)
{
    if (how == RMA_LOCAL_DIRECT)
        return;
    int lock = how == RMA_LOCAL_WRITE ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED;
    MPI_CHECK(MPI_Win_lock(lock, w->rank, 0, w->win));
}

void rma_window_local_end(const struct rma_window *w, enum rma_local how)
{
    if (how == RMA_LOCAL_DIRECT)
        return;
    MPI_CHECK(MPI_Win_unlock(w->rank, w->win));
}
