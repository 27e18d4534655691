/* cpm_replay: the point-to-point predictions that cpm_lmo_replay compares,
 * each from one round of a dump (cpm_dump.h):
 *   medians  libcpm's solver (cpm_lmo_solve), which gives the line through
 *            the medians of the pair's 2(n-2) round trips of 0 and M bytes;
 *   means    the same line through their means: the solver before it took
 *            medians (its point-to-point prediction depends on nothing else);
 *   seed     the seed's order: C_v and t_v per triplet and their means, L
 *            and 1/beta per triplet (with that triplet's C and t) and their
 *            means per pair, nothing corrected whatever its sign;
 *   p2p      the round's own p2p block, halved.
 * Owns nothing. */
#ifndef COMMSWEEP_CPM_REPLAY_H
#define COMMSWEEP_CPM_REPLAY_H

#include "cpm_dump.h"

enum cpm_replay_kind {
    CPM_REPLAY_MEDIANS,
    CPM_REPLAY_MEANS,
    CPM_REPLAY_SEED,
    CPM_REPLAY_P2P,
    CPM_REPLAY_KINDS
};
extern const char *const cpm_replay_names[CPM_REPLAY_KINDS];

/* pred[2 k + s]: the one-way time of pair k (cpm_pair_index order) at 1024
 * (s = 0) and m bytes (s = 1); false when the kind cannot predict the round
 * (the solver refused its times, or out of memory). */
bool cpm_replay_predict(enum cpm_replay_kind kind, const struct cpm_dump *d,
                        const struct cpm_dump_round *r, double *pred);

#endif
