/*
 * cpm_api: the names the CPM manual gives its models (seed sections 5.3 and
 * 6.2-6.13), so that a program written against the manual builds with this
 * header in place of its include lines. Thin wrappers over the cpm_ calls
 * of libcpm and libcpm_coll; this module owns nothing but the message of
 * the last failed X_read.
 *
 * For X in Hockney, LinInterp, PLogP and LMO:
 *   X_model        the model struct (struct cpm_hockney, cpm_lininterp,
 *                  cpm_plogp, cpm_lmo), its predictor first;
 *   X_alloc        a zeroed model (NULL for a count outside
 *                  [1, CPM_MAX_PROCESSES] or when memory runs out);
 *   X_free         cpm_X_free;
 *   X_read         the whole model file (as X_write writes it, with the
 *                  strict reader of cpm_model.h); *model is NULL when the
 *                  stream holds no valid model, cpm_api_read_error() says why;
 *   X_write        cpm_model_write_stream.
 * X_initialize, X_finalize, X_model_instance and the collectives X_Y come
 * from cpm_coll_models.h. CPM_predictor is struct cpm_predictor.
 *
 * Where the manual is silent or differs from libcpm: LinInterp_alloc's
 * num_points must be in [1, CPM_MAX_POINTS]; PLogP_alloc(n) samples the
 * curves at the one size 0 (cpm_plogp_alloc takes the count of sizes);
 * LMO_alloc gives the heterogeneous model. The estimates and predictions
 * keep their cpm_ names (sizes are size_t there, int in the manual).
 */
#ifndef COMMSWEEP_CPM_API_H
#define COMMSWEEP_CPM_API_H

#include <stdio.h>

#include "cpm_coll_models.h"
#include "cpm_hockney.h"
#include "cpm_lininterp.h"
#include "cpm_lmo.h"
#include "cpm_plogp.h"

typedef struct cpm_predictor CPM_predictor;
typedef struct cpm_hockney Hockney_model;
typedef struct cpm_lininterp LinInterp_model;
typedef struct cpm_plogp PLogP_model;
typedef struct cpm_lmo LMO_model;

#define CPM_API_DECLARE_FILE(X)                                                                  \
    void X##_free(X##_model *model);                                                             \
    void X##_read(FILE *stream, X##_model **model);                                              \
    void X##_write(FILE *stream, const X##_model *model);
CPM_API_DECLARE_FILE(Hockney)
CPM_API_DECLARE_FILE(LinInterp)
CPM_API_DECLARE_FILE(PLogP)
CPM_API_DECLARE_FILE(LMO)

Hockney_model *Hockney_alloc(int n);
LinInterp_model *LinInterp_alloc(int size, int num_points);
PLogP_model *PLogP_alloc(int n);
LMO_model *LMO_alloc(int n);

/* Why the last X_read of this process gave NULL ("" when it did not). */
const char *cpm_api_read_error(void);

#endif
