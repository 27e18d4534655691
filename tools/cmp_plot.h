/*
 * cmp_plot: a comparison as PNG through gnuplot (pngcairo): per table,
 * above both values against the key along x (the size) on log scales,
 * below the ratio B / A with the significant rows marked and the line of
 * no change. The data go to gnuplot inline; nothing is left on disk but
 * the PNG.
 */
#ifndef COMMSWEEP_CMP_PLOT_H
#define COMMSWEEP_CMP_PLOT_H

#include <stddef.h>

#include "cmp_file.h"
#include "cmp_match.h"
#include "cmp_test.h"

/* One PNG per table that has pairs: png itself when there is one table,
 * else png with "-TABLE" before its ".png". o[i] is the outcome of
 * m->pairs[i]. 0, or -1 with a one-line message in err. */
int cmp_plot_png(const char *png, const struct cmp_file *a, const struct cmp_file *b,
                 const struct cmp_match *m, const struct cmp_outcome *o, char *err, size_t errlen);

#endif
