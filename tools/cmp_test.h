/*
 * cmp_test: the verdict on one pair of rows: the two values compared
 * (medians where both rows have a spread, else the main values), their
 * ratio B / A, and whether they differ at the level. The test: a bootstrap
 * of the difference of the medians where both rows carry their
 * per-iteration values, else Welch's t on the medians with the standard
 * errors their P5 and P95 give (signif.h), else none, saying why.
 */
#ifndef COMMSWEEP_CMP_TEST_H
#define COMMSWEEP_CMP_TEST_H

#include <stdbool.h>
#include <stddef.h>

#include "cmp_file.h"
#include "cmp_match.h"

/* Fixed, so that a comparison reproduces from its seed alone. */
#define CMP_RESAMPLES 2000
/* Below this many iterations on either side neither P5/P95 nor a
 * resample describes a distribution: not tested. */
#define CMP_MIN_ITERATIONS 20
/* A bootstrap draws both sides again CMP_RESAMPLES times: above this many
 * values of the two rows together (OMB's 10000 iterations a side are 20000)
 * it would take minutes a row, and Welch's t on the spread serves. */
#define CMP_BOOTSTRAP_MAX_VALUES 200000

struct cmp_settings {
    unsigned long seed; /* of the bootstrap's generator; each row starts from it */
    double level;       /* 0.95 */
};

enum cmp_method { CMP_UNTESTED, CMP_WELCH, CMP_BOOTSTRAP };

struct cmp_outcome {
    double a, b;        /* the values compared; NaN where a side has none */
    bool medians;       /* a and b are medians (else main values) */
    double ratio;       /* b / a */
    double p;           /* two-sided; NaN when untested */
    enum cmp_method method;
    int significant;    /* 1, 0, or -1: untested */
    char verdict[64];   /* "significant: B better", "not significant", "no spread: not tested",
                         * "averages only: not tested" (OMB's plain layout), ... */
};

/* 0, or -1 when the bootstrap had no memory. t is the pair's table. */
int cmp_test_pair(const struct cmp_pair *p, const struct cmp_table *t,
                  const struct cmp_settings *s, struct cmp_outcome *o);
const char *cmp_method_name(enum cmp_method m); /* "none", "welch", "bootstrap" */

#endif
