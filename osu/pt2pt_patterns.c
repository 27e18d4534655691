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

/* What the loops use, copied out of the context once. */
struct call {
    void *send, *recv;
    MPI_Datatype type;
    MPI_Comm comm;
    int n, peer, window;
    MPI_Request *req;
    MPI_Status *stat;
};

static struct call call_of(const struct pt2pt_ctx *c)
{
    struct call m = {c->send.ptr, c->recv.ptr, c->type.type, MPI_COMM_WORLD, c->type.count,
                     c->peer, (int)c->window, c->requests, c->statuses};
    return m;
}

void pt2pt_ping_pong(struct pt2pt_ctx *c, size_t count)
{
    if (c->peer < 0)
        return;
    struct call m = call_of(c);
    if (c->initiator) {
        for (size_t k = 0; k < count; k++) {
            PT2PT_CHECK(MPI_Send(m.send, m.n, m.type, m.peer, TAG_DATA, m.comm));
            PT2PT_CHECK(MPI_Recv(m.recv, m.n, m.type, m.peer, TAG_DATA, m.comm,
                                 MPI_STATUS_IGNORE));
        }
    } else {
        for (size_t k = 0; k < count; k++) {
            PT2PT_CHECK(MPI_Recv(m.recv, m.n, m.type, m.peer, TAG_DATA, m.comm,
                                 MPI_STATUS_IGNORE));
            PT2PT_CHECK(MPI_Send(m.send, m.n, m.type, m.peer, TAG_DATA, m.comm));
        }
    }
}

void pt2pt_window_one_way(struct pt2pt_ctx *c, size_t count)
{
    if (c->peer < 0)
        return;
    struct call m = call_of(c);
    void *ack = c->ack;
    if (c->initiator) {
        for (size_t k = 0; k < count; k++) {
            for (int w = 0; w < m.window; w++)
                PT2PT_CHECK(MPI_Isend(m.send, m.n, m.type, m.peer, TAG_DATA, m.comm, &m.req[w]));
            PT2PT_CHECK(MPI_Waitall(m.window, m.req, m.stat));
            PT2PT_CHECK(MPI_Recv(ack, sizeof c->ack, MPI_CHAR, m.peer, TAG_REPLY, m.comm,
                                 MPI_STATUS_IGNORE));
        }
    } else {
        for (size_t k = 0; k < count; k++) {
            for (int w = 0; w < m.window; w++)
                PT2PT_CHECK(MPI_Irecv(m.recv, m.n, m.type, m.peer, TAG_DATA, m.comm, &m.req[w]));
            PT2PT_CHECK(MPI_Waitall(m.window, m.req, m.stat));
            PT2PT_CHECK(MPI_Send(ack, sizeof c->ack, MPI_CHAR, m.peer, TAG_REPLY, m.comm));
        }
    }
}

void pt2pt_window_both_ways(struct pt2pt_ctx *c, size_t count)
{
    if (c->peer < 0)
        return;
    struct call m = call_of(c);
    for (size_t k = 0; k < count; k++) {
        for (int w = 0; w < m.window; w++)
            PT2PT_CHECK(MPI_Irecv(m.recv, m.n, m.type, m.peer, TAG_DATA, m.comm, &m.req[w]));
        for (int w = 0; w < m.window; w++)
            PT2PT_CHECK(MPI_Isend(m.send, m.n, m.type, m.peer, TAG_DATA, m.comm,
                                  &m.req[m.window + w]));
        PT2PT_CHECK(MPI_Waitall(2 * m.window, m.req, m.stat));
    }
}
