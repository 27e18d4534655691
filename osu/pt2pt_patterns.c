/* pt2pt_patterns: the communication the point-to-point programs time; see
 * pt2pt.h. Only MPI calls and their checks are inside these loops. */
#include "pt2pt.h"

enum { TAG_DATA = 1, TAG_REPLY = 2 };

void pt2pt_ping_pong(struct pt2pt_ctx *c, size_t count)
{
    if (c->peer < 0)
        return;
    MPI_Datatype type = c->type.type;
    int n = c->type.count;
    for (size_t k = 0; k < count; k++) {
        if (c->initiator) {
            MPI_CHECK(MPI_Send(c->send.ptr, n, type, c->peer, TAG_DATA, MPI_COMM_WORLD));
            MPI_CHECK(MPI_Recv(c->recv.ptr, n, type, c->peer, TAG_DATA, MPI_COMM_WORLD,
                               MPI_STATUS_IGNORE));
        } else {
            MPI_CHECK(MPI_Recv(c->recv.ptr, n, type, c->peer, TAG_DATA, MPI_COMM_WORLD,
                               MPI_STATUS_IGNORE));
            MPI_CHECK(MPI_Send(c->send.ptr, n, type, c->peer, TAG_DATA, MPI_COMM_WORLD));
        }
    }
}

void pt2pt_window_one_way(struct pt2pt_ctx *c, size_t count)
{
    if (c->peer < 0)
        return;
    MPI_Datatype type = c->type.type;
    int n = c->type.count, window = (int)c->window;
    for (size_t k = 0; k < count; k++) {
        if (c->initiator) {
            for (int w = 0; w < window; w++)
                MPI_CHECK(MPI_Isend(c->send.ptr, n, type, c->peer, TAG_DATA, MPI_COMM_WORLD,
                                    &c->requests[w]));
            MPI_CHECK(MPI_Waitall(window, c->requests, c->statuses));
            MPI_CHECK(MPI_Recv(c->ack, sizeof c->ack, MPI_CHAR, c->peer, TAG_REPLY,
                               MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        } else {
            for (int w = 0; w < window; w++)
                MPI_CHECK(MPI_Irecv(c->recv.ptr, n, type, c->peer, TAG_DATA, MPI_COMM_WORLD,
                                    &c->requests[w]));
            MPI_CHECK(MPI_Waitall(window, c->requests, c->statuses));
            MPI_CHECK(MPI_Send(c->ack, sizeof c->ack, MPI_CHAR, c->peer, TAG_REPLY,
                               MPI_COMM_WORLD));
        }
    }
}

void pt2pt_window_both_ways(struct pt2pt_ctx *c, size_t count)
{
    if (c->peer < 0)
        return;
    MPI_Datatype type = c->type.type;
    int n = c->type.count, window = (int)c->window;
    for (size_t k = 0; k < count; k++) {
        for (int w = 0; w < window; w++)
            MPI_CHECK(MPI_Irecv(c->recv.ptr, n, type, c->peer, TAG_DATA, MPI_COMM_WORLD,
                                &c->requests[w]));
        for (int w = 0; w < window; w++)
            MPI_CHECK(MPI_Isend(c->send.ptr, n, type, c->peer, TAG_DATA, MPI_COMM_WORLD,
                                &c->requests[window + w]));
        MPI_CHECK(MPI_Waitall(2 * window, c->requests, c->statuses));
    }
}
