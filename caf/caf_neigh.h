/*
 * caf_neigh: who talks to whom, as plain arithmetic on ranks (no MPI):
 * the ping-pong pairings of the three modes, and the neighbour lists of the
 * synchronisation patterns (pairwise, ring, random, 3-D grid). Ranks are
 * 0-based; image i of the seed is rank i-1.
 */
#ifndef COMMSWEEP_CAF_NEIGH_H
#define COMMSWEEP_CAF_NEIGH_H

#include <stddef.h>
#include <stdint.h>

enum caf_mode { CAF_SINGLE, CAF_MULTIPLE, CAF_CROSSING, CAF_NMODES };
extern const char *const caf_mode_names[]; /* "single", "multiple", "crossing" */

/* Role in a ping-pong: the first sends (put) or is read from (get) first. */
enum caf_role { CAF_IDLE, CAF_FIRST, CAF_SECOND };

struct caf_pairing {
    enum caf_role role;
    int partner; /* -1 when idle */
};

/* This rank's role in the mode. Returns NULL, or the reason the mode cannot
 * run with size ranks (the pairing is then all idle):
 *   single    ranks 0 and size-1; needs 2 ranks;
 *   multiple  rank i < size/2 with i + size/2; needs an even size above 2;
 *   crossing  as multiple, but every other pair (odd i) starts from the
 *             upper rank, so half the pairs move data each way at once. */
const char *caf_pairing_for(enum caf_mode mode, int rank, int size, struct caf_pairing *p);

/* Pairwise partner as in the multiple mode (i with i + size/2), or -1 when
 * size is odd or 1. */
int caf_neigh_pairwise(int rank, int size);

/* Largest even neighbour count <= min(maxneigh, size - 2), the original's
 * bound for ring and random (which run for 2, 4, ... up to it); 0 when
 * there is none (below 4 images). */
int caf_neigh_cap(int maxneigh, int size);

/* Ring: rank +/- 1, +/- 2, ... +/- nneigh/2, periodic. Writes nneigh ranks
 * (down and up neighbour of each distance in turn). */
size_t caf_neigh_ring(int rank, int size, int nneigh, int *out);

/* Random: the ranks are put on a ring in the order of a random permutation
 * (the same on every rank for the same seed) and each takes its ring
 * neighbours there, so the lists match up. */
void caf_neigh_permutation(int size, uint64_t seed, int *perm);
size_t caf_neigh_random(int rank, int size, int nneigh, uint64_t seed, int *out);

/* 3-D periodic grid of dims[0] x dims[1] x dims[2] ranks in MPI's cartesian
 * order (last dimension fastest). Writes the 6 neighbours: for d = 0, 1, 2
 * the lower then the upper neighbour along d. Coordinates via caf_grid_coords. */
void caf_grid_coords(int rank, const int dims[3], int coords[3]);
int caf_grid_rank(const int coords[3], const int dims[3]);
void caf_neigh_grid(int rank, const int dims[3], int out[6]);

/* The halo's neighbours of a grid from MPI_Dims_create: the fastest array
 * index goes with the fastest-varying grid dimension (the last in MPI's
 * order), as a Fortran coarray's first index goes with its first
 * codimension. Writes, for array axis a = 0, 1, 2 (0 fastest), the lower
 * then the upper neighbour along grid dimension 2 - a. */
void caf_neigh_halo(int rank, const int dims[3], int out[6]);

/* Keeps the distinct partners of list[0..n) at its front, in order: each
 * other rank once, rank itself not at all (whom a sync images with the list
 * waits for). Returns how many. */
size_t caf_neigh_distinct(int rank, int *list, size_t n);

#endif
