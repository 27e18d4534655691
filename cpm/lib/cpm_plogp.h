/*
 * cpm_plogp: the heterogeneous PLogP model and the LogGP model derived from
 * it. For every pair i < j (i the sender): the latency L and the
 * piecewise-linear functions os(M), or(M) (sender and receiver overheads)
 * and g(M) (gap), sampled at the sizes of a message set (0 always first) and
 * measured as the PLogP method defines them:
 *   RTT(M)  round trip of M bytes forward and an empty answer;
 *   os(M)   time of the send call in that round trip;
 *   or(M)   time of the receive call after waiting about 1.2 RTT(M), so the
 *           message is already there;
 *   g(M)    time per message in a stream of back-to-back sends of M bytes
 *           closed by one empty answer: (stream - RTT(M)) / (K - 1) for K
 *           messages (logp_mpi's gap, measured at every size);
 *   L = RTT(0)/2 - g(0),
 * g made non-decreasing first where noise made it fall (the estimate
 * counts those pairs). A point-to-point prediction is L + g(M). LogGP per
 * pair: L' = L + g(1) - os(1) - or(1), 2o = os(1) + or(1), g' = g(1),
 * G = g(Mmax)/Mmax, and a point-to-point prediction L' + 2o + G(M - 1),
 * with M - 1 taken as 0 for an empty message.
 */
#ifndef COMMSWEEP_CPM_PLOGP_H
#define COMMSWEEP_CPM_PLOGP_H

#include "cpm_model.h"

struct cpm_plogp_pair {
    double L;
    double *os, *orecv, *g; /* num_points values each */
};

struct cpm_loggp_params {
    double L, o2, g, G; /* o2 = 2o */
};

struct cpm_plogp {
    struct cpm_predictor predictor; /* PLogP; first member */
    union {                         /* LogGP from the same data */
        struct cpm_predictor loggp_predictor;
        struct cpm_predictor LogGP_predictor; /* the manual's name */
    };
    int n;
    size_t num_points;
    double *sizes;                /* num_points, increasing, sizes[0] = 0 */
    struct cpm_plogp_pair *pairs; /* cpm_pair_index order */
    int adjusted; /* estimate: pairs whose g fell with the size and was made
                   * non-decreasing (cpm_make_nondecreasing) */
};

struct cpm_plogp *cpm_plogp_alloc(int n, size_t num_points);
void cpm_plogp_free(struct cpm_plogp *model);
/* Collective; the model on rank 0, NULL elsewhere. */
struct cpm_plogp *cpm_plogp_estimate(MPI_Comm comm, const struct cpm_precision *p,
                                     const struct cpm_msgset *set, bool parallel);
/* File, after "processes N": "points K" (at most CPM_MAX_POINTS), "sizes 0
 * S2 .. SK", then per pair i < j: "pair i j L", "os V1 .. VK", "or V1 ..
 * VK", "g V1 .. VK". os, or and g are times; g never falls as the size
 * grows (cpm_read_curve); L, within +-CPM_MAX_TIME, may be below 0 as
 * long as L + g(0) is not. Those are what keep every prediction >= 0.
 * os and or may fall: they enter only LogGP's L' + 2o, where they cancel. */
int cpm_plogp_read(struct cpm_reader *r, int n, struct cpm_plogp **model);
void cpm_plogp_write(FILE *f, const struct cpm_plogp *model);

double cpm_plogp_predict_p2p(const struct cpm_predictor *self, int i, int j, size_t m);
double cpm_loggp_predict_p2p(const struct cpm_predictor *self, int i, int j, size_t m);
/* loggp_predictor's predict_p2p (cpm_model.h): self the LogGP predictor,
 * or the model (whose first member is the PLogP one). */
double cpm_loggp_predict_p2p_int(void *self, int i, int j, int m);
void cpm_loggp_params(const struct cpm_plogp *model, int i, int j, struct cpm_loggp_params *out);
/* Homogeneous (averaged over pairs) linear scatter/gather:
 * PLogP L + (n-1) g(M);  LogGP L + 2o + (n-1)(M-1)G + (n-2)g. */
double cpm_plogp_hpredict_sg_linear(const struct cpm_plogp *model, size_t m);
double cpm_loggp_hpredict_sg_linear(const struct cpm_plogp *model, size_t m);

extern const struct cpm_model_kind cpm_plogp_kind;
extern const struct cpm_model_kind cpm_loggp_kind;

#endif
