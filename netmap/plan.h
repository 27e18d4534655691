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

/* A well-mixed 64-bit value of x (splitmix64's step): the draws of the
 * plans and of locate's choices of partners. */
uint64_t plan_hash(uint64_t x);

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

/* What a screening round of netmap/locate pairs up: endpoints of one
 * switch, of one group on other switches, of other groups, or at random
 * (no topology). */
enum plan_aim { PLAN_SAME_SWITCH, PLAN_SAME_GROUP, PLAN_ACROSS_GROUPS, PLAN_RANDOM };

/* A perfect matching of n endpoints (each in one pair; with n odd one sits
 * out) for the round-th round of its aim, with seed: partner[e] is e's
 * partner, or SIZE_MAX. sw and group give each endpoint's switch and group
 * (NULL, or -1 entries: unknown, paired at random with the others left
 * over).
 *  - Across groups: whole groups meet by the circle method (a round-robin
 *    tournament, the groups in an order drawn once per seed), so that
 *    rounds 0 to G - 2 (G rounded up to even) bring every two groups
 *    together once, every node of the smaller with one of the larger: a
 *    link between two groups carries all their pairs at once, loaded as a
 *    job loads it.
 *  - Same group: inside each group, its switches meet the same way.
 *  - Same switch: a switch's endpoints two by two.
 *  - Random (no topology): the whole job by the circle method, in an order
 *    drawn once per seed: rounds 0 to N - 2 (N rounded up to even) bring
 *    every two endpoints together once.
 * The endpoints of a unit are in an order drawn anew each round. Those
 * left over (a unit of odd size, the larger of two, the bye) pair among
 * themselves, inside their group first where aiming at one. scratch has
 * room for 3 n + 2 size_t. */
void plan_matching(uint64_t seed, uint64_t round, enum plan_aim aim, size_t n, const int *sw,
                   const int *group, size_t *partner, size_t *scratch);

/* The circle method: the partner of participant i of m (m rounded up to
 * even; the last of those is the bye where m is odd) in round t of m - 1;
 * i itself where there is none. */
size_t plan_circle_partner(size_t m, size_t t, size_t i);

#endif
