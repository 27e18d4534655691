/*
 * cpm_hier_fill: the flat model of every host of a hierarchy, made from
 * the two-process models of the links a cpm_hier_plan measured: the pair of
 * hosts i < j gets the parameters of the link that stands for it. Only the
 * models whose parameters belong to pairs can be filled this way (Hockney,
 * LinInterp, PLogP); LMO's belong to processors as well and come from
 * experiments on three processes. It owns nothing beyond the model it
 * returns.
 */
#ifndef COMMSWEEP_CPM_HIER_FILL_H
#define COMMSWEEP_CPM_HIER_FILL_H

#include <stdbool.h>
#include <stddef.h>

#include "cpm_hier_plan.h"
#include "cpm_model.h"

/* Whether models of this kind can be filled from link models. */
bool cpm_hier_fill_takes(const struct cpm_model_kind *kind);
/* links[k]: the model of kind measured on link k (two processes, the
 * link's hosts a and b as processes 0 and 1). 0 with a model of kind for
 * every host of h in *model, or -1 with a message (links measured at other
 * message sizes cannot share one LinInterp or PLogP model). */
int cpm_hier_fill(const struct cpm_model_kind *kind, const struct cpm_hier *h,
                  const struct cpm_hier_plan *p, void *const *links, void **model, char *err,
                  size_t errlen);

#endif
