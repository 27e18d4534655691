/*
 * transfer: the timed exchanges of the network-map programs. Each is
 * collective over the communicator it is given (every rank of it calls,
 * with no peer where it has nothing to do, so that the others really are
 * alone), starts on every rank together after a barrier, and checks the
 * data after the clock stopped when -c asks for it: every received byte
 * against the sender's pattern (keyed by its rank in comm and iter), with
 * the receive buffers poisoned before. A failed check prints one line on
 * this rank (err_print) and makes the call return false.
 */
#ifndef COMMSWEEP_NETMAP_TRANSFER_H
#define COMMSWEEP_NETMAP_TRANSFER_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

#include "netmap.h"

/* Seconds from this rank's start until every receiver of its windows said
 * it had them all (acked), and until its own receives completed (recv); 0
 * where it had none. */
struct transfer_times {
    double acked, recv;
};

/* Posts nm->cfg.window receives of bytes from each rank in from[], then,
 * after the barrier, sends window messages of bytes to each rank in to[];
 * a receiver answers each sender with an empty message once it has the
 * whole window. The sender's clock measures the bandwidth (as OSU's
 * osu_bw does, at the cost of one small message's latency): both ends of
 * its interval are on one rank, so the ranks' skew leaving the barrier,
 * large on a busy machine, does not enter. nfrom times the window must fit
 * nm->recv_slots. */
bool transfer_window(struct netmap *nm, MPI_Comm comm, const int *to, size_t nto,
                     const int *from, size_t nfrom, size_t bytes, size_t iter,
                     struct transfer_times *times);

/* rounds round trips of bytes that this rank starts with to, while it
 * answers those that from starts (MPI_PROC_NULL: none); half[r] is half of
 * round trip r, in seconds (untouched without to). */
bool transfer_pingpong(struct netmap *nm, MPI_Comm comm, int to, int from, size_t bytes,
                       size_t rounds, size_t iter, double *half);

/* rounds loops of HPCC b_eff's ring step: send bytes to right while
 * receiving from left, then to left while receiving from right (one
 * MPI_Sendrecv each); loop[r] is loop r's time on this rank. */
bool transfer_ring(struct netmap *nm, MPI_Comm comm, int left, int right, size_t bytes,
                   size_t rounds, size_t iter, double *loop);

#endif
