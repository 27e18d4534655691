/* transfer: timed exchanges of the network-map programs; see transfer.h. */
#include "transfer.h"

#include <stdint.h>
#include <stdlib.h>

#include "err.h"
#include "msg.h"
#include "straggler.h"
#include "timing.h"

enum { TAG_DATA = 71, TAG_ACK, TAG_PING, TAG_PONG, TAG_RING };

/* Describes bytes as one (type, count) pair for any size. */
static void describe(size_t bytes, struct msg_type *m)
{
    if (msg_type_make(bytes, MPI_BYTE, m))
        err_fatal("cannot describe a message of %zu bytes", bytes);
}

static void prepare(struct netmap *nm, int rank, size_t bytes, size_t slots, size_t iter)
{
    if (!nm->cfg.check)
        return;
    struct buf s = buf_view(&nm->send, 0, bytes);
    buf_fill_bytes(&s, rank, iter);
    struct buf r = buf_view(&nm->recv, 0, bytes * slots);
    buf_set_bytes(&r, 0xFF);
}

/* Checks slot s, which must hold what sender (its rank in comm) sent. */
static bool verify(struct netmap *nm, size_t slot, size_t bytes, int sender, size_t iter,
                   const char *what)
{
    if (!nm->cfg.check || bytes == 0)
        return true;
    if (nm->corrupt && slot == 0)
        buf_flip_byte(&nm->recv, bytes / 2);
    size_t bad = buf_check_bytes(&nm->recv, slot * bytes, bytes, sender, iter);
    if (bad == SIZE_MAX)
        return true;
    err_print("data check failed: byte %zu of a %zu-byte %s message from endpoint %d "
              "(repetition %zu) is not what it sent",
              bad, bytes, what, sender, iter);
    return false;
}

/* What an exchange sends and receives with: bytes as one message type,
 * and the driver's buffers. */
struct exchange {
    struct msg_type m;
    char *rbuf, *sbuf;
};

/* The start every exchange shares: with -c, this rank's pattern (its rank
 * in comm) in the send buffer and the receive buffer's first slots
 * messages poisoned; then the message type of bytes, which transfer_end
 * frees. */
static void transfer_begin(struct netmap *nm, MPI_Comm comm, size_t bytes, size_t slots,
                           size_t iter, struct exchange *x)
{
    int me;
    MPI_Comm_rank(comm, &me);
    prepare(nm, me, bytes, slots, iter);
    describe(bytes, &x->m);
    x->rbuf = buf_mpi(&nm->recv);
    x->sbuf = buf_mpi(&nm->send);
}

static void transfer_end(struct exchange *x)
{
    msg_type_free(&x->m);
}

bool transfer_window(struct netmap *nm, MPI_Comm comm, const int *to, size_t nto,
                     const int *from, size_t nfrom, size_t bytes, size_t iter,
                     struct transfer_times *times)
{
    size_t window = nm->cfg.window, nrecv = nfrom * window, nsend = nto * window;
    if (nrecv > nm->recv_slots)
        err_fatal("%zu receives of a window do not fit the %zu slots", nrecv, nm->recv_slots);
    struct exchange x;
    transfer_begin(nm, comm, bytes, nrecv, iter, &x);
    /* Requests: the receives, the acks this rank waits for, the sends, the
     * acks it sends; completions are told apart by index. */
    size_t total = nrecv + nto + nsend + nfrom;
    MPI_Request *req = malloc((total + 1) * sizeof *req);
    if (!req)
        err_fatal("cannot allocate %zu requests", total);
    MPI_Request *acks_in = req + nrecv, *sends = acks_in + nto, *acks_out = sends + nsend;
    for (size_t i = 0; i < nrecv; i++)
        MPI_CHECK(MPI_Irecv(x.rbuf + i * bytes, x.m.count, x.m.type, from[i / window], TAG_DATA,
                            comm, &req[i]));
    for (size_t i = 0; i < nto; i++)
        MPI_CHECK(MPI_Irecv(NULL, 0, MPI_BYTE, to[i], TAG_ACK, comm, &acks_in[i]));
    for (size_t i = 0; i < nfrom; i++)
        acks_out[i] = MPI_REQUEST_NULL;
    MPI_CHECK(MPI_Barrier(comm));
    double t0 = timing_now();
    if (nsend + nrecv > 0)
        straggler_test_delay();
    for (size_t i = 0; i < nsend; i++)
        MPI_CHECK(MPI_Isend(x.sbuf, x.m.count, x.m.type, to[i / window], TAG_DATA, comm,
                            &sends[i]));
    size_t *got = calloc(nfrom + 1, sizeof *got); /* windows complete, per sender */
    if (!got)
        err_fatal("cannot allocate %zu counters", nfrom);
    size_t left_recv = nrecv, left_acks = nto;
    times->acked = times->recv = 0;
    for (size_t done = 0; done < nrecv + nto + nsend; done++) {
        int idx;
        MPI_CHECK(MPI_Waitany((int)(nrecv + nto + nsend), req, &idx, MPI_STATUS_IGNORE));
        size_t i = (size_t)idx;
        double t = timing_now() - t0;
        if (i < nrecv) {
            if (--left_recv == 0)
                times->recv = t;
            size_t sender = i / window;
            if (++got[sender] == window)
                MPI_CHECK(MPI_Isend(NULL, 0, MPI_BYTE, from[sender], TAG_ACK, comm,
                                    &acks_out[sender]));
        } else if (i < nrecv + nto && --left_acks == 0) {
            times->acked = t;
        }
    }
    MPI_CHECK(MPI_Waitall((int)nfrom, acks_out, MPI_STATUSES_IGNORE));
    free(got);
    free(req);
    transfer_end(&x);
    bool ok = true;
    for (size_t i = 0; i < nrecv && ok; i++)
        ok = verify(nm, i, bytes, from[i / window], iter, "window");
    return ok;
}

bool transfer_pingpong(struct netmap *nm, MPI_Comm comm, int to, int from, size_t bytes,
                       size_t rounds, size_t iter, double *half)
{
    /* Slot 0 takes the pings answered, slot 1 the pongs. */
    struct exchange x;
    transfer_begin(nm, comm, bytes, 2, iter, &x);
    MPI_CHECK(MPI_Barrier(comm));
    for (size_t r = 0; r < rounds; r++) {
        /* The answer goes out as soon as the ping is in, whichever of the
         * two this rank waits for first: a partner's round trip never
         * waits on this rank's own. */
        MPI_Request req[3] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
        double t0 = timing_now();
        if (from != MPI_PROC_NULL || to != MPI_PROC_NULL)
            straggler_test_delay();
        if (from != MPI_PROC_NULL)
            MPI_CHECK(MPI_Irecv(x.rbuf, x.m.count, x.m.type, from, TAG_PING, comm, &req[0]));
        if (to != MPI_PROC_NULL) {
            MPI_CHECK(MPI_Irecv(x.rbuf + bytes, x.m.count, x.m.type, to, TAG_PONG, comm, &req[1]));
            MPI_CHECK(MPI_Send(x.sbuf, x.m.count, x.m.type, to, TAG_PING, comm));
        }
        for (int pending = (from != MPI_PROC_NULL) + (to != MPI_PROC_NULL); pending > 0;
             pending--) {
            int idx;
            MPI_CHECK(MPI_Waitany(2, req, &idx, MPI_STATUS_IGNORE));
            if (idx == 0)
                MPI_CHECK(MPI_Isend(x.sbuf, x.m.count, x.m.type, from, TAG_PONG, comm, &req[2]));
            else
                half[r] = (timing_now() - t0) / 2;
        }
        MPI_CHECK(MPI_Wait(&req[2], MPI_STATUS_IGNORE));
    }
    transfer_end(&x);
    bool ok = true;
    if (from != MPI_PROC_NULL)
        ok = verify(nm, 0, bytes, from, iter, "ping");
    if (ok && to != MPI_PROC_NULL)
        ok = verify(nm, 1, bytes, to, iter, "pong");
    return ok;
}

bool transfer_ring(struct netmap *nm, MPI_Comm comm, int left, int right, size_t bytes,
                   size_t rounds, size_t iter, double *loop)
{
    struct exchange x;
    transfer_begin(nm, comm, bytes, 2, iter, &x);
    MPI_CHECK(MPI_Barrier(comm));
    for (size_t r = 0; r < rounds; r++) {
        double t0 = timing_now();
        MPI_CHECK(MPI_Sendrecv(x.sbuf, x.m.count, x.m.type, right, TAG_RING, x.rbuf, x.m.count,
                               x.m.type, left, TAG_RING, comm, MPI_STATUS_IGNORE));
        MPI_CHECK(MPI_Sendrecv(x.sbuf, x.m.count, x.m.type, left, TAG_RING, x.rbuf + bytes,
                               x.m.count, x.m.type, right, TAG_RING, comm, MPI_STATUS_IGNORE));
        loop[r] = timing_now() - t0;
    }
    transfer_end(&x);
    bool ok = verify(nm, 0, bytes, left, iter, "ring");
    return ok && verify(nm, 1, bytes, right, iter, "ring");
}
