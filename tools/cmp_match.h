/*
 * cmp_match: pairs the rows of two result files of one program, as doc/
 * jsonl.md says a comparison does: rows of the same table with equal keys
 * (numbers equal as numbers, text as text). One program: the same program
 * where both files name theirs, else (OMB's plain layout names none) the
 * same title. Refuses files of two programs,
 * a table whose keys or main field differ between them, and a file with two
 * rows of the same keys. Pairs come table by table in A's order of rows,
 * rows only in B after A's, and within a table grouped by the keys other
 * than the one plotted along x (the last numeric key: the size), so that
 * each group is one curve.
 */
#ifndef COMMSWEEP_CMP_MATCH_H
#define COMMSWEEP_CMP_MATCH_H

#include <stddef.h>

#include "cmp_file.h"

#define CMP_NO_KEY ((size_t)-1)

struct cmp_pair {
    size_t table;             /* index in A's tables */
    const struct cmp_row *a;  /* NULL: the row is only in B */
    const struct cmp_row *b;  /* NULL: only in A */
    size_t group;             /* equal for rows of one curve; counts from 0 per table */
};

struct cmp_match {
    struct cmp_pair *pairs;
    size_t n;
    size_t x_key[CMP_MAX_TABLES]; /* per table of A: the key along x, CMP_NO_KEY for none */
};

/* 0, or -1 with a one-line message in err. */
int cmp_match_files(const struct cmp_file *a, const struct cmp_file *b, struct cmp_match *m,
                    char *err, size_t errlen);
void cmp_match_free(struct cmp_match *m);

/* What two matched files are runs of: a program's name where either names
 * one, else their title. */
const char *cmp_match_program(const struct cmp_file *a, const struct cmp_file *b);

/* The row of a pair that is there (A's when both are). */
const struct cmp_row *cmp_pair_row(const struct cmp_pair *p);

#endif
