/*
 * caf_p2p_patterns: the point-to-point patterns of the seed as they translate
 * to C over the caf_rma layer. Each pattern moves the data of one shape
 * between the same positions of coarray x on this image and on the partner,
 * in the direction given (put: to the partner, get: from it). The "sub"
 * variants go through a separate (never inlined) routine, as the seed's
 * subroutines do; "all" variants use a coarray sized exactly ndata.
 */
#ifndef COMMSWEEP_CAF_P2P_PATTERNS_H
#define COMMSWEEP_CAF_P2P_PATTERNS_H

#include <stdbool.h>
#include <stddef.h>

#include "caf_pattern.h"
#include "caf_rma.h"

typedef void (*caf_transfer_fn)(enum caf_dir dir, struct caf_coarray *x, int partner,
                                const struct caf_shape *s);

struct caf_p2p_pattern {
    const char *name;        /* with %s for the direction: "strided_many_%s" */
    const char *description; /* with %s for the direction */
    enum caf_family family;
    bool whole_array;        /* coarray of exactly ndata elements */
    caf_transfer_fn transfer;
};

extern const struct caf_p2p_pattern caf_p2p_patterns[];
extern const size_t caf_p2p_npatterns;

#endif
