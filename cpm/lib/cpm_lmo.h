/*
 * cpm_lmo: the LMO model of a switched heterogeneous cluster. A message of
 * M bytes from i to j costs
 *     C_i + L_ij + C_j + M (t_i + 1/beta_ij + t_j)
 * with fixed and per-byte processing delays C, t of each processor and the
 * latency L and rate beta of each link (symmetric). The parameters come from
 * round trips between pairs and one-to-two experiments over every triplet,
 * C and t solved per triplet (their medians over the triplets), L and beta
 * then solved per pair from its round trips (see cpm_lmo_solve). Thresholds describe
 * what the linear model misses on a loaded root: S, where flat one-to-many
 * (scatter) changes regime, and M1 < M2, the medium sizes of many-to-one
 * (gather) where the time escalates; the linear fits on either side of the
 * breaks are kept. The homogeneous variant has one C, t, L and beta.
 * The file stores 1/beta (seconds per byte) so noise never makes it infinite.
 */
#ifndef COMMSWEEP_CPM_LMO_H
#define COMMSWEEP_CPM_LMO_H

#include "cpm_model.h"

/* What the solver corrected or found odd, for the warnings of the tools. */
struct cpm_lmo_fixes {
    int negative_C, negative_t; /* processor delays below 0, set to 0 */
    int falling_pairs;          /* round trip of M bytes faster than the empty
                                 * one: the pair's per-byte sum set to 0 */
    int negative_L, negative_inv_beta; /* link terms below 0, kept (the
                                        * point-to-point sums are as measured) */
};

struct cpm_lmo {
    struct cpm_predictor predictor; /* first: the model is its predictor */
    int n;                          /* processes */
    bool homogeneous;               /* one value per parameter below */
    double *C, *t;                  /* n (1 when homogeneous) delays, s and s/byte */
    double *L, *inv_beta;           /* pairs (1 when homogeneous), s and s/byte */
    double *b; /* the manual's rates beta = 1 / inv_beta, bytes/s (inf where
                * inv_beta is 0), set by cpm_lmo_rates for programs written
                * to it; nothing in the library reads them */
    size_t S;                       /* one-to-many threshold or CPM_NO_THRESHOLD */
    double one2many_small[2], one2many_large[2]; /* intercept, slope */
    size_t M1, M2;                  /* many-to-one thresholds */
    double many2one_small[2], many2one_large[2];
    double worst_ci; /* estimation only: largest relative CI over triplets */
    struct cpm_lmo_fixes fixes; /* estimation only */
};

struct cpm_lmo *cpm_lmo_alloc(int n, bool homogeneous);
void cpm_lmo_free(struct cpm_lmo *model);
/* b from inv_beta; the reader, the estimates and cpm_lmo_homogeneous_of
 * call it once they have set inv_beta. */
void cpm_lmo_rates(struct cpm_lmo *model);

/* The measurements of one size M > 0 that fix the parameters: one-to-two
 * experiments (M out, empty back) of 0 and M bytes (3 per triplet,
 * cpm_measure_p2pp order) and round trips of 0 and M bytes each way (full
 * round-trip times), either taken within each triplet (tri0/trim, the
 * results_p2p of cpm_measure_p2pp_p2p, both directions) or, when
 * those are NULL, once per pair (p2p0/p2pm, cpm_pair_index order). */
struct cpm_lmo_data {
    size_t m;
    const struct cpm_result *p2p0, *p2pm, *p2pp0, *p2ppm;
    struct cpm_result *const *tri0, *const *trim;
};
/* Solves C and t per triplet and takes their medians, then L and 1/beta per
 * pair from the median of the pair's round trips, into model (heterogeneous,
 * n >= 3): its point-to-point predictions reproduce those round trips (halved)
 * and never fall with the message size. Sets model->worst_ci at level cl and
 * model->fixes. Returns -1 with a message in err when a time is negative or
 * not finite. */
int cpm_lmo_solve(struct cpm_lmo *model, const struct cpm_lmo_data *d, double cl, char *err,
                  size_t errlen);
/* A homogeneous model with the averages of a heterogeneous one. */
struct cpm_lmo *cpm_lmo_homogeneous_of(const struct cpm_lmo *het);

/* Collective (n >= 3, msgset max_size > 0): 0 with the model in *model on
 * rank 0 (NULL elsewhere), or -1 on every rank with a message in err on
 * rank 0 when a measured time is negative or not finite. */
int cpm_lmo_estimate(MPI_Comm comm, const struct cpm_precision *p, const struct cpm_msgset *set,
                     bool parallel, struct cpm_lmo **model, char *err, size_t errlen);
int cpm_lmo_estimate_homogeneous(MPI_Comm comm, const struct cpm_precision *p,
                                 const struct cpm_msgset *set, bool parallel,
                                 struct cpm_lmo **model, char *err, size_t errlen);
/* What a tool should print about an estimated model (without the '#'): the
 * largest relative confidence interval against eps, and a warning for each
 * kind of correction the solver made (m: the size of the experiments). */
void cpm_lmo_report(const struct cpm_lmo *model, size_t m, double eps, cpm_note_fn note,
                    void *ctx);

/* File, after "processes N": "homogeneous 0|1", "C" values (times), "t"
 * values (times per byte), then "link i j L 1/beta" per pair (one "link 0
 * 1 ..." when homogeneous; each within +-CPM_MAX_TIME, +-CPM_MAX_PER_BYTE,
 * their sums C_i + L_ij + C_j and t_i + 1/beta_ij + t_j not below 0), then
 * "S", "one2many_small a b", "one2many_large a b", "M1", "M2",
 * "many2one_small a b", "many2one_large a b" (thresholds a size or none;
 * the fits, which no prediction uses, within the same bounds, either sign). */
int cpm_lmo_read(struct cpm_reader *r, int n, struct cpm_lmo **model);
void cpm_lmo_write(FILE *f, const struct cpm_lmo *model);

double cpm_lmo_predict_p2p(const struct cpm_predictor *self, int i, int j, size_t m);
/* Flat scatter: the seed's (n-1)(C_r + M t_r) + max_i (L_ri + C_i +
 * M(1/beta_ri + t_i)) below S; from S on (a deviation from the seed, whose
 * formula has no threshold) the root's link serialises the transfers:
 * (n-1)(C_r + M t_r) + sum_i M/beta_ri + max_i (L_ri + C_i + M t_i). */
double cpm_lmo_predict_scatter_flat(const struct cpm_lmo *model, int root, size_t m);
/* Flat gather: the seed's max form below M1 and, from M2 on, its sum over
 * the root's links (the seed's formula is garbled there: read as the
 * serialised form of the scatter); between M1 and M2, where the seed gives
 * no formula, the split gather that avoids the escalations (rounds of
 * pieces below M1).
 * Both are at least the slowest single transfer from (to) the root, which
 * keeps them >= 0 when link terms below 0 make the serialised sum fall. */
double cpm_lmo_predict_gather_flat(const struct cpm_lmo *model, int root, size_t m);

/* Rounds of the split gather of m bytes per process: pieces below M1 for
 * M1 <= m < M2, else 1. */
size_t cpm_lmo_gather_rounds(const struct cpm_lmo *model, size_t m);

extern const struct cpm_model_kind cpm_lmo_kind;

#endif
