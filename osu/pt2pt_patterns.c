/* pt2pt_patterns: the communication the point-to-point programs time; see
 * pt2pt.h. Only MPI calls and their checks are inside these loops: the
 * context is read into locals first and the initiator's and the peer's
 * loops are separate, so nothing but the calls is repeated per message. */
#include "pt2pt.h"

enum { TAG_DATA = 1, TAG_REPLY = 2 };

/* The return code is tested inline so a timed loop pays one comparison per
 * call; err_mpi_check still names the call when it fails. */
#define PT2PT_CHECK(call)                                           \
    do {                                                            \
        int pt2pt_rc_ = (call);                                     \
        if (__builtin_expect(pt2pt_rc_ != MPI_SUCCESS, 0))          \
            err_mpi_check(pt2pt_rc_, #call, __FILE__, __LINE__);    \
    } while (0)

void pt2pt_ping_pong(struct pt2pt_ctx *c, size_t count)
{
    if (c->peer < 0)
        return;
    MPI_Datatype type = c->type.type;
    MPI_Comm comm = MPI_COMM_WORLD;
    int n = c->type.count, peer = c->peer;
    void *send = c->send.ptr, *recv = c->recv.ptr;
    if (c->initiator) {
        for (size_t k = 0; k < count; k++) {
            PT2PT_CHECK(MPI_Send(send, n, type, peer, TAG_DATA, comm));
            PT2PT_CHECK(MPI_Recv(recv, n, type, peer, TAG_DATA, comm, MPI_STATUS_IGNORE));
        }
    } else {
        for (size_t k = 0; k < count; k++) {
            PT2PT_CHECK(MPI_Recv(recv, n, type, peer, TAG_DATA, comm, MPI_STATUS_IGNORE));
            PT2PT_CHECK(MPI_Send(send, n, type, peer, TAG_DATA, comm));
        }
    }
}

void pt2pt_window_one_way(struct pt2pt_ctx *c, size_t count)
{
    if (c->peer < 0)
        return;
    MPI_Datatype type = c->type.type;
    MPI_Comm comm = MPI_COMM_WORLD;
    int n = c->type.count, peer = c->peer, window = (int)c->window;
    void *send = c->send.ptr, *recv = c->recv.ptr, *ack = c->ack;
    MPI_Request *req = c->requests;
    MPI_Status *stat = c->statuses;
    if (c->initiator) {
        for (size_t k = 0; k < count; k++) {
            for (int w = 0; w < window; w++)
                PT2PT_CHECK(MPI_Isend(send, n, type, peer, TAG_DATA, comm, &req[w]));
            PT2PT_CHECK(MPI_Waitall(window, req, stat));
            PT2PT_CHECK(MPI_Recv(ack, sizeof c->ack, MPI_CHAR, peer, TAG_REPLY, comm,
                                 MPI_STATUS_IGNORE));
        }
    } else {
        for (size_t k = 0; k < count; k++) {
            for (int w = 0; w < window; w++)
                PT2PT_CHECK(MPI_Irecv(recv, n, type, peer, TAG_DATA, comm, &req[w]));
            PT2PT_CHECK(MPI_Waitall(window, req, stat));
            PT2PT_CHECK(MPI_Send(ack, sizeof c->ack, MPI_CHAR, peer, TAG_REPLY, comm));
        }
    }
}

void pt2pt_window_both_ways(struct pt2pt_ctx *c, size_t count)
{
    if (c->peer < 0)
        return;
    MPI_Datatype type = c->type.type;
    MPI_Comm comm = MPI_COMM_WORLD;
    int n = c->type.count, peer = c->peer, window = (int)c->window;
    void *send = c->send.ptr, *recv = c->recv.ptr;
    MPI_Request *req = c->requests;
    for (size_t k = 0; k < count; k++) {
        for (int w = 0; w < window; w++)
            PT2PT_CHECK(MPI_Irecv(recv, n, type, peer, TAG_DATA, comm, &req[w]));
        for (int w = 0; w < window; w++)
            PT2PT_CHECK(MPI_Isend(send, n, type, peer, TAG_DATA, comm, &req[window + w]));
        PT2PT_CHECK(MPI_Waitall(2 * window, req, c->statuses));
    }
}
