/*
 * cpm_lininterp: the linear interpolation model. For every pair i < j the
 * one-way times measured over a message set (half round trips), made
 * non-decreasing in the size where noise made them fall; a prediction
 * interpolates linearly between the measured sizes (GSL) and extends the
 * first/last segment beyond them (not below 0).
 */
#ifndef COMMSWEEP_CPM_LININTERP_H
#define COMMSWEEP_CPM_LININTERP_H

#include "cpm_model.h"

struct cpm_lininterp {
    struct cpm_predictor predictor; /* first: the model is its predictor */
    int n;
    size_t num_points;
    double *sizes; /* num_points message sizes, increasing */
    double *times; /* [pair][point] one-way times, seconds */
    int adjusted;  /* estimate: pairs whose times fell with the size and were
                    * made non-decreasing (cpm_make_nondecreasing) */
};

struct cpm_lininterp *cpm_lininterp_alloc(int n, size_t num_points);
void cpm_lininterp_free(struct cpm_lininterp *model);
/* Collective; the model on rank 0, NULL elsewhere. */
struct cpm_lininterp *cpm_lininterp_estimate(MPI_Comm comm, const struct cpm_precision *p,
                                             const struct cpm_msgset *set, bool parallel);
/* File, after "processes N": "points K" (at most CPM_MAX_POINTS), "sizes
 * S1 .. SK" (strictly increasing), then per pair i < j a line "i j T1 ..
 * TK" of times that never fall as the size grows (cpm_read_curve). */
int cpm_lininterp_read(struct cpm_reader *r, int n, struct cpm_lininterp **model);
void cpm_lininterp_write(FILE *f, const struct cpm_lininterp *model);
double cpm_lininterp_predict_p2p(const struct cpm_predictor *self, int i, int j, size_t m);

extern const struct cpm_model_kind cpm_lininterp_kind;

#endif
