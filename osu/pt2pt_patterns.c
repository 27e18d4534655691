/* pt2pt_patterns: the communication the point-to-point programs time; see
 * pt2pt.h. Only MPI calls and their checks are inside these loops: the
 * context is read into locals first and the initiator's and the peer's
 * loops are separate, so nothing but the calls (and, with --staging, the
 * copies between device and host) is repeated per message. */
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
    void *send, *recv; /* what MPI is given: the buffers, or their host copies */
    MPI_Datatype type;
    MPI_Comm comm;
    int n, peer, window;
    MPI_Request *req;
    MPI_Status *stat;
    struct buf *send_buf, *recv_buf; /* with --staging only, else NULL */
    size_t bytes;
    const int *peers; /* the one-way window's partners */
    int npeers;
    size_t stride;    /* bytes between their receive slices */
    size_t message;   /* -b multiple: bytes between the messages' buffers (0: one) */
};

static struct call call_of(struct pt2pt_ctx *c)
{
    bool staged = c->send.stage || c->recv.stage;
    struct call m = {buf_mpi(&c->send), buf_mpi(&c->recv), c->type.type, c->comm,
                     c->type.count, c->peer, (int)c->window, c->requests, c->statuses,
                     staged ? &c->send : NULL, staged ? &c->recv : NULL, c->size,
                     c->peers, (int)c->npeers, c->peer_stride, c->message_stride};
    return m;
}

/* Where message w of a window lies in a buffer: its own buffer under -b
 * multiple, else the one buffer every message shares. */
static inline char *at(void *buffer, const struct call *m, int w)
{
    return (char *)buffer + (size_t)w * m->message;
}

/* --staging: the device-to-host copy before a send and the host-to-device
 * copy after a receive (of the slice at offset), inside the timed loops;
 * one test when not staging. MPI forbids writing a send buffer while a
 * send from it is pending and reading a receive buffer before its receive
 * completed, so a window makes its copies (one per message, as each of its
 * messages would need one, from or into the message's buffer) before its
 * first send, and copies back only after its wait. */
static inline void stage_out(const struct call *m)
{
    if (__builtin_expect(m->send_buf != NULL, 0))
        buf_stage_out(m->send_buf, 0, m->bytes);
}

/* The copies of a window's messages, each of its per_buffer messages (a
 * fan sender's partners) from the buffer of its message. */
static inline void stage_out_messages(const struct call *m, int messages, int per_buffer)
{
    if (__builtin_expect(m->send_buf != NULL, 0))
        for (int i = 0; i < messages; i++)
            buf_stage_out(m->send_buf, (size_t)(i / per_buffer) * m->message, m->bytes);
}

static inline void stage_in_at(const struct call *m, size_t offset)
{
    if (__builtin_expect(m->recv_buf != NULL, 0))
        buf_stage_in(m->recv_buf, offset, m->bytes);
}

static inline void stage_in(const struct call *m) { stage_in_at(m, 0); }

void pt2pt_ping_pong(struct pt2pt_ctx *c, size_t count)
{
    if (c->peer < 0)
        return;
    struct call m = call_of(c);
    if (c->initiator) {
        for (size_t k = 0; k < count; k++) {
            stage_out(&m);
            PT2PT_CHECK(MPI_Send(m.send, m.n, m.type, m.peer, TAG_DATA, m.comm));
            PT2PT_CHECK(MPI_Recv(m.recv, m.n, m.type, m.peer, TAG_DATA, m.comm,
                                 MPI_STATUS_IGNORE));
            stage_in(&m);
        }
    } else {
        for (size_t k = 0; k < count; k++) {
            PT2PT_CHECK(MPI_Recv(m.recv, m.n, m.type, m.peer, TAG_DATA, m.comm,
                                 MPI_STATUS_IGNORE));
            stage_in(&m);
            stage_out(&m);
            PT2PT_CHECK(MPI_Send(m.send, m.n, m.type, m.peer, TAG_DATA, m.comm));
        }
    }
}

/* Message w of the window goes to (or comes from) every peer in turn, as
 * OMB 7.4's fan tests post them; with one peer this is osu_bw's loop. */
void pt2pt_window_one_way(struct pt2pt_ctx *c, size_t count)
{
    if (c->npeers == 0)
        return;
    struct call m = call_of(c);
    void *ack = c->ack;
    int total = m.window * m.npeers;
    if (c->initiator) {
        for (size_t k = 0; k < count; k++) {
            stage_out_messages(&m, total, m.npeers);
            for (int w = 0; w < m.window; w++)
                for (int p = 0; p < m.npeers; p++)
                    PT2PT_CHECK(MPI_Isend(at(m.send, &m, w), m.n, m.type, m.peers[p], TAG_DATA,
                                          m.comm, &m.req[w * m.npeers + p]));
            PT2PT_CHECK(MPI_Waitall(total, m.req, m.stat));
            for (int p = 0; p < m.npeers; p++)
                PT2PT_CHECK(MPI_Recv(ack, sizeof c->ack, MPI_CHAR, m.peers[p], TAG_REPLY, m.comm,
                                     MPI_STATUS_IGNORE));
        }
    } else {
        for (size_t k = 0; k < count; k++) {
            for (int w = 0; w < m.window; w++)
                for (int p = 0; p < m.npeers; p++)
                    PT2PT_CHECK(MPI_Irecv(at(m.recv, &m, w) + (size_t)p * m.stride, m.n, m.type,
                                          m.peers[p], TAG_DATA, m.comm,
                                          &m.req[w * m.npeers + p]));
            PT2PT_CHECK(MPI_Waitall(total, m.req, m.stat));
            for (int w = 0; w < m.window; w++)
                for (int p = 0; p < m.npeers; p++)
                    stage_in_at(&m, (size_t)w * m.message + (size_t)p * m.stride);
            for (int p = 0; p < m.npeers; p++)
                PT2PT_CHECK(MPI_Send(ack, sizeof c->ack, MPI_CHAR, m.peers[p], TAG_REPLY, m.comm));
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
            PT2PT_CHECK(MPI_Irecv(at(m.recv, &m, w), m.n, m.type, m.peer, TAG_DATA, m.comm,
                                  &m.req[w]));
        stage_out_messages(&m, m.window, 1);
        for (int w = 0; w < m.window; w++)
            PT2PT_CHECK(MPI_Isend(at(m.send, &m, w), m.n, m.type, m.peer, TAG_DATA, m.comm,
                                  &m.req[m.window + w]));
        PT2PT_CHECK(MPI_Waitall(2 * m.window, m.req, m.stat));
        for (int w = 0; w < m.window; w++)
            stage_in_at(&m, (size_t)w * m.message);
    }
}

/* Persistent requests: the same messages as the patterns above, each made
 * once per size. The initiator's ping-pong holds (send, recv), the peer's
 * (recv, send); one way holds window sends or window receives; both ways
 * window receives then window sends. */
static int persistent_count; /* requests of the current size on this rank */

/* The request of message w of a window (0 for a ping-pong). */
static void send_init(const struct call *m, int w, MPI_Request *req)
{
    MPI_CHECK(MPI_Send_init(at(m->send, m, w), m->n, m->type, m->peer, TAG_DATA, m->comm, req));
}

static void recv_init(const struct call *m, int w, MPI_Request *req)
{
    MPI_CHECK(MPI_Recv_init(at(m->recv, m, w), m->n, m->type, m->peer, TAG_DATA, m->comm, req));
}

void pt2pt_persistent_ping_pong_begin(struct pt2pt_ctx *c)
{
    persistent_count = 0;
    if (c->peer < 0)
        return;
    struct call m = call_of(c);
    (c->initiator ? send_init : recv_init)(&m, 0, &m.req[0]);
    (c->initiator ? recv_init : send_init)(&m, 0, &m.req[1]);
    persistent_count = 2;
}

void pt2pt_persistent_one_way_begin(struct pt2pt_ctx *c)
{
    persistent_count = 0;
    if (c->peer < 0)
        return;
    struct call m = call_of(c);
    for (int w = 0; w < m.window; w++)
        (c->initiator ? send_init : recv_init)(&m, w, &m.req[w]);
    persistent_count = m.window;
}

void pt2pt_persistent_both_ways_begin(struct pt2pt_ctx *c)
{
    persistent_count = 0;
    if (c->peer < 0)
        return;
    struct call m = call_of(c);
    for (int w = 0; w < m.window; w++) {
        recv_init(&m, w, &m.req[w]);
        send_init(&m, w, &m.req[m.window + w]);
    }
    persistent_count = 2 * m.window;
}

void pt2pt_persistent_end(struct pt2pt_ctx *c)
{
    for (int i = 0; i < persistent_count; i++)
        MPI_CHECK(MPI_Request_free(&c->requests[i]));
    persistent_count = 0;
}

void pt2pt_persistent_ping_pong(struct pt2pt_ctx *c, size_t count)
{
    if (c->peer < 0)
        return;
    struct call m = call_of(c);
    if (c->initiator) {
        for (size_t k = 0; k < count; k++) {
            stage_out(&m);
            PT2PT_CHECK(MPI_Start(&m.req[0]));
            PT2PT_CHECK(MPI_Wait(&m.req[0], MPI_STATUS_IGNORE));
            PT2PT_CHECK(MPI_Start(&m.req[1]));
            PT2PT_CHECK(MPI_Wait(&m.req[1], MPI_STATUS_IGNORE));
            stage_in(&m);
        }
    } else {
        for (size_t k = 0; k < count; k++) {
            PT2PT_CHECK(MPI_Start(&m.req[0]));
            PT2PT_CHECK(MPI_Wait(&m.req[0], MPI_STATUS_IGNORE));
            stage_in(&m);
            stage_out(&m);
            PT2PT_CHECK(MPI_Start(&m.req[1]));
            PT2PT_CHECK(MPI_Wait(&m.req[1], MPI_STATUS_IGNORE));
        }
    }
}

void pt2pt_persistent_window_one_way(struct pt2pt_ctx *c, size_t count)
{
    if (c->peer < 0)
        return;
    struct call m = call_of(c);
    void *ack = c->ack;
    if (c->initiator) {
        for (size_t k = 0; k < count; k++) {
            stage_out_messages(&m, m.window, 1);
            PT2PT_CHECK(MPI_Startall(m.window, m.req));
            PT2PT_CHECK(MPI_Waitall(m.window, m.req, m.stat));
            PT2PT_CHECK(MPI_Recv(ack, sizeof c->ack, MPI_CHAR, m.peer, TAG_REPLY, m.comm,
                                 MPI_STATUS_IGNORE));
        }
    } else {
        for (size_t k = 0; k < count; k++) {
            PT2PT_CHECK(MPI_Startall(m.window, m.req));
            PT2PT_CHECK(MPI_Waitall(m.window, m.req, m.stat));
            for (int w = 0; w < m.window; w++)
                stage_in_at(&m, (size_t)w * m.message);
            PT2PT_CHECK(MPI_Send(ack, sizeof c->ack, MPI_CHAR, m.peer, TAG_REPLY, m.comm));
        }
    }
}

void pt2pt_persistent_window_both_ways(struct pt2pt_ctx *c, size_t count)
{
    if (c->peer < 0)
        return;
    struct call m = call_of(c);
    for (size_t k = 0; k < count; k++) {
        stage_out_messages(&m, m.window, 1);
        PT2PT_CHECK(MPI_Startall(2 * m.window, m.req));
        PT2PT_CHECK(MPI_Waitall(2 * m.window, m.req, m.stat));
        for (int w = 0; w < m.window; w++)
            stage_in_at(&m, (size_t)w * m.message);
    }
}
