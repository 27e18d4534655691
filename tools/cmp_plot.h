/*
 * cmp_plot: a comparison as PNG through gnuplot (pngcairo): per table,
 * above both values against the key along x (the size) on log scales,
 * below the ratio B / A with the significant rows marked and the line of
 * no change. The data go to gnuplot inline; nothing is left on disk but
 * the PNG, which compare writes itself from gnuplot's output (ofile.h:
 * whole or not at all).
 */
#ifndef COMMSWEEP_CMP_PLOT_H
#define COMMSWEEP_CMP_PLOT_H

#include <stddef.h>

#include "cmp_file.h"
#include "cmp_match.h"
#include "cmp_test.h"
#include "ofile.h"

/* The PNGs of one comparison, one per table that has pairs. */
struct cmp_plot {
    size_t n;
    size_t table[CMP_MAX_TABLES];
    struct ofile out[CMP_MAX_TABLES];
};

/* Opens the PNGs before anything is printed: png itself when there is one
 * table, else png with "-TABLE" before its ".png". 0, or -1 with a one-line
 * message in err (a path that cannot be written: bad input). */
int cmp_plot_open(struct cmp_plot *p, const char *png, const struct cmp_file *a,
                  const struct cmp_match *m, char *err, size_t errlen);
/* Draws them; o[i] is the outcome of m->pairs[i]. 0; -1 with a one-line
 * message in err when gnuplot failed; -1 with err empty when a PNG could
 * not be written (err_write_failed said why). Every PNG ends written or
 * dropped, the file it would replace as it was. */
int cmp_plot_draw(struct cmp_plot *p, const struct cmp_file *a, const struct cmp_file *b,
                  const struct cmp_match *m, const struct cmp_outcome *o, char *err,
                  size_t errlen);

#endif
