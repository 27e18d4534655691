/*
 * coll_compute: the CPU work a non-blocking collective is given to overlap
 * with. A busy floating-point loop that lasts a given time, with a number of
 * MPI_Test calls spread evenly through it so that libraries which progress
 * only inside MPI calls get the chance to.
 */
#ifndef COMMSWEEP_COLL_COMPUTE_H
#define COMMSWEEP_COLL_COMPUTE_H

#include <mpi.h>
#include <stddef.h>

/* Computes for seconds, calling MPI_Test on req tests times, the k-th
 * (k = 1..tests) after seconds * k / (tests + 1) of computing. Returns the
 * time spent computing, without the MPI_Test calls, whose total time goes to
 * *test_took (as OMB 7.4 reports them apart). */
double coll_compute(double seconds, MPI_Request *req, size_t tests, double *test_took);

#endif
