/*
 * nap: waiting for other processes without spinning. A process that only
 * waits while others are measured gives its core up, so the measured ones
 * are not slowed by it where processes outnumber cores (an MPI library's
 * own waits poll without a pause). Under SimGrid's SMPI a nap passes
 * simulated time, and a wait is MPI_Wait.
 */
#ifndef COMMSWEEP_NAP_H
#define COMMSWEEP_NAP_H

#include <mpi.h>

/* Sleeps about seconds (nothing for 0 or less), through signals. */
void nap(double seconds);

/* Completes req like MPI_Wait, napping pause seconds between its tests. */
void nap_wait(MPI_Request *req, MPI_Status *status, double pause);

#endif
