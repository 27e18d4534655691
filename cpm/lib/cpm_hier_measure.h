/*
 * cpm_hier_measure: the measurement of a hierarchical model. Each link of a
 * cpm_hier_plan is measured by the ranks the run has on its two hosts,
 * with the model kind's own estimate on a communicator of those two (the
 * link's first host as process 0); the other ranks wait. The link models
 * end up on rank 0 as the text of their files, read back there, so no rank
 * but 0 holds more than one. It owns the rounds and the messages that
 * bring the models to rank 0.
 */
#ifndef COMMSWEEP_CPM_HIER_MEASURE_H
#define COMMSWEEP_CPM_HIER_MEASURE_H

#include <mpi.h>

#include "cpm_hier_plan.h"
#include "cpm_model.h"

/* Per host: the lowest rank whose host name (names: CPM_HOST_NAME_LEN
 * bytes a rank, cpm_hosts_allgather) is the host's, or -1. */
void cpm_hier_ranks(const struct cpm_hier *h, const char *names, int nranks, int *rank_of);

/* Rounds of links: serial, one link a round; parallel, links taken greedily
 * in order while neither of their ranks is busy in the round. Fills round
 * (room for nlinks) and returns its size, 0 when every link is done (done:
 * one flag per link, false at first; busy: one flag per rank). */
size_t cpm_hier_round(const struct cpm_hier_plan *p, const int *rank_of, bool parallel, bool *done,
                      bool *busy, int nranks, size_t *round);

/* Collective over a->comm: measures every link of p with kind (a's message
 * set and precision; a->parallel runs disjoint links at the same time),
 * links[k] on rank 0 the model of link k. note(k, text, ctx) is called on
 * rank 0 for each line kind->report says about link k. 0, or -1 on every
 * rank with the first failure's message in err on rank 0. */
int cpm_hier_measure(const struct cpm_model_kind *kind, const struct cpm_estimate_args *a,
                     const struct cpm_hier_plan *p, const int *rank_of, void **links,
                     void (*note)(size_t link, const char *text, void *ctx), void *ctx, char *err,
                     size_t errlen);

#endif
