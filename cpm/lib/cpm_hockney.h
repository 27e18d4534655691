/*
 * cpm_hockney: the heterogeneous Hockney model, T_ij(M) = a_ij + b_ij M for
 * every pair i < j (symmetric), where T is the one-way time (half a round
 * trip of M bytes each way). Estimated from round trips of 0 and M bytes, or
 * by least squares over a message set; predictions of point-to-point and of
 * flat and binomial scatter/gather, heterogeneous and homogeneous (the
 * parameters averaged over all pairs).
 */
#ifndef COMMSWEEP_CPM_HOCKNEY_H
#define COMMSWEEP_CPM_HOCKNEY_H

#include "cpm_model.h"

struct cpm_hockney {
    struct cpm_predictor predictor; /* first: the model is its predictor */
    int n;
    double *a; /* latency of each pair, cpm_pair_index order, seconds */
    double *b; /* time per byte of each pair, seconds */
    int constrained; /* estimate: pairs whose fit had to be held at a >= 0, b >= 0 */
};

struct cpm_hockney *cpm_hockney_alloc(int n);
void cpm_hockney_free(struct cpm_hockney *model);
/* Collective; the model on rank 0, NULL elsewhere. m > 0. */
struct cpm_hockney *cpm_hockney_estimate(MPI_Comm comm, size_t m,
                                         const struct cpm_precision *p, bool parallel);
/* Collective; the message set must give at least two sizes
 * (cpm_msgset_check with 2). */
struct cpm_hockney *cpm_hockney_estimate_regression(MPI_Comm comm, const struct cpm_msgset *set,
                                                    const struct cpm_precision *p,
                                                    bool parallel);
/* File, after "processes N": one line "i j a b" per pair i < j, a a time
 * and b a time per byte (cpm_read_time, cpm_read_per_byte: never negative). */
int cpm_hockney_read(struct cpm_reader *r, int n, struct cpm_hockney **model);
void cpm_hockney_write(FILE *f, const struct cpm_hockney *model);

double cpm_hockney_predict_p2p(const struct cpm_predictor *self, int i, int j, size_t m);
/* Heterogeneous: sum / max over i != root of a_ri + b_ri M; binomial tree. */
double cpm_hockney_predict_sg_flat_serial(const struct cpm_hockney *h, int root, size_t m);
double cpm_hockney_predict_sg_flat_parallel(const struct cpm_hockney *h, int root, size_t m);
double cpm_hockney_predict_sg_binomial(const struct cpm_hockney *h, int root, size_t m);
/* Homogeneous (a, b averaged over pairs): (n-1)(a + bM), a + bM,
 * ceil(log2 n) a + (n-1) b M. */
double cpm_hockney_hpredict_sg_flat_serial(const struct cpm_hockney *h, size_t m);
double cpm_hockney_hpredict_sg_flat_parallel(const struct cpm_hockney *h, size_t m);
double cpm_hockney_hpredict_sg_binomial(const struct cpm_hockney *h, size_t m);

extern const struct cpm_model_kind cpm_hockney_kind;

#endif
