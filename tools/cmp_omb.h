/*
 * cmp_omb: a result file in OMB 7.x's plain layout, as OMB's programs
 * print it and as the suite's OSU programs print it by default: the title
 * ("# OSU MPI Latency Test v7.4", to which the suite adds " (commsweep
 * VERSION)"), '#' lines before the table ("# Datatype: MPI_CHAR."), the
 * column heading and one row per size; -f adds Min, Max and Iterations, -c
 * Validation, -T all a block per datatype. Each row is handed, in a shape
 * of this reader's own, to the caller's function, with the main column's
 * JSON name (osu_fields.h): the reader needs nothing else of compare, and
 * keeps nothing (the caller keeps the rows in its own structures).
 * A file without OMB's title, or with the suite's "# command:" line (its
 * own text layout), is not this one and is left to the other readers.
 */
#ifndef COMMSWEEP_CMP_OMB_H
#define COMMSWEEP_CMP_OMB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define CMP_OMB_DATATYPE_LEN 32

struct cmp_omb_row {
    char datatype[CMP_OMB_DATATYPE_LEN];  /* of the row's block; "" when no Datatype line came */
    char size[24];      /* in bytes, as written; "" when the table has no Size column */
    double main;        /* the first value column: an average over the iterations */
    bool has_spread;    /* the suite's --stats columns gave median, p5, p95 */
    double median, p5, p95;
    size_t iterations;  /* -f's Iterations column; 0: not known */
    size_t line;
};

struct cmp_omb {
    char title[256];              /* "OSU MPI Latency Test": no version, no suite */
    char version[32];             /* "7.4"; "" when the title names none */
    char suite[64];               /* "commsweep 0.1.0" when the suite wrote it; "" for OMB */
    char main[48], main_unit[16]; /* the JSON name and unit of the first value column */
    bool lower_better;            /* the main column is a time */
    bool sized;                   /* rows start with the message size */
    bool typed;                   /* a Datatype line came before the table: a key of rows */
    size_t nrows;                 /* handed on so far */
};

/* Takes one row, the file's title and columns already in o: 0, or -1 with
 * a message the function wrote into the err of cmp_omb_read. */
typedef int (*cmp_omb_take)(const struct cmp_omb *o, const struct cmp_omb_row *row, void *arg);

/* 0: every row handed to take; 1: not this layout (nothing handed on, in
 * rewound for another reader); -1: a one-line message in err, "PATH:LINE:
 * ..." where a line is to blame. */
int cmp_omb_read(FILE *in, const char *path, struct cmp_omb *o, cmp_omb_take take, void *arg,
                 char *err, size_t errlen);

#endif
