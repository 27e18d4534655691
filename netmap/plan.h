/*
 * plan: who talks to whom in the network-map programs, as pure arithmetic
 * over endpoint indices (no MPI), so that every rank computes the same plan
 * from the same seed without a message, and the unit tests can check it:
 * seeded permutations (random rings, random bisections), the partner of a
 * bisection, and the victims of the congestion test spread over the job.
 */
#ifndef COMMSWEEP_NETMAP_PLAN_H
#define COMMSWEEP_NETMAP_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A permutation of 0..n-1 from seed and stream (the ring or bisection
 * number): Fisher-Yates over splitmix64, identical on every rank and every
 * platform. stream 0 with any seed is still random; the natural order is
 * the caller's, not a stream. */
void plan_permutation(uint64_t seed, uint64_t stream, size_t n, size_t *out);

/* The neighbours of endpoint me on the ring that visits order[0..n-1] in
 * turn (and back to order[0]): left is the one before, right the one after. */
void plan_ring_neighbours(const size_t *order, size_t n, size_t me, size_t *left, size_t *right);

/* In the bisection given by order (a permutation of n endpoints),
 * order[i] pairs with order[i + n/2] for i < n/2; with n odd the last one,
 * order[n - 1], sits out. The partner of me, or false when me sits out. */
bool plan_bisection_partner(const size_t *order, size_t n, size_t me, size_t *partner);

/* The victims of the congestion test: nvictims endpoints of n spread evenly
 * over the job (endpoint floor(i * n / nvictims) for i < nvictims, so
 * endpoint 0 is one), the others are congestors. */
bool plan_is_victim(size_t n, size_t nvictims, size_t endpoint);
/* How many victims a percentage of n gives: rounded up, at least 2, and
 * leaving at least 2 congestors; 0 when n < 4. */
size_t plan_victim_count(size_t n, double percent);

#endif
