/* cpm_dump: the output of cpm_lmo_dump read back as rounds, for
 * cpm_lmo_replay. Owns the rounds' arrays. */
#ifndef COMMSWEEP_CPM_DUMP_H
#define COMMSWEEP_CPM_DUMP_H

#include <stdbool.h>
#include <stddef.h>

#include "cpm_measure.h"

/* One round: r[k][3 t + q] for triplet t and its root q, k = 0 the
 * one-to-two time at 0 bytes, 1 and 2 the root's round trips to the next
 * and the one after at 0 bytes, 3 .. 5 the same at m bytes (the layout of
 * cpm_measure_p2pp_p2p, as struct cpm_lmo_data wants it); p2p[3 k + s] the
 * round trip of pair k at 0, 1024 and m bytes (s = 0, 1, 2); clock when its
 * p2p block began (NAN when the dump has no clock lines). */
struct cpm_dump_round {
    bool complete; /* every value of both blocks was read */
    struct cpm_result *r[6];
    double *p2p;
    double clock;
    size_t seen;
};

struct cpm_dump {
    int n;         /* processes */
    size_t m;      /* the largest size of the p2p lines */
    size_t rounds; /* rounds numbered 0 .. rounds - 1 */
    struct cpm_dump_round *round;
};

/* Reads path; 0, or -1 with a message in err (a line it cannot read, a
 * dump of fewer than 3 processes, out of memory). */
int cpm_dump_read(const char *path, struct cpm_dump *d, char *err, size_t errlen);
void cpm_dump_free(struct cpm_dump *d);

#endif
