/* Programs written from the text of the CPM manual, sections 6-8, one
 * function a snippet, against the one header cpm_api.h: they use only the
 * names, argument lists and struct fields the manual gives (MPIBlib's
 * MPIB_precision and MPIB_msgset by their field names; the constants of
 * the next-node and sort-order strategies by libcpm's names, which the
 * manual does not give). tests/integration/cpm_api.sh builds this file
 * against an installed copy with -Wall -Wextra -Werror and runs it at 3
 * and 4 processes; each snippet checks what the manual says of its result
 * and rank 0 prints "snippet NAME: ok" or "snippet NAME: FAILED (why)". */
#include <commsweep/cpm_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;
static int failures;

/* Every process reaches every verdict: the worst of them counts. */
static void verdict(const char *name, int ok, const char *why)
{
    int all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (rank == 0)
        printf(all ? "snippet %s: ok\n" : "snippet %s: FAILED (%s)\n", name, why);
    failures += !all;
}

static int close_to(double a, double b)
{
    return fabs(a - b) <= 1e-9 * (fabs(a) + fabs(b)) + 1e-15;
}

static MPIB_precision quick_precision(void)
{
    MPIB_precision p = {.min_reps = 2, .max_reps = 3, .cl = 0.95, .eps = 0.5};
    return p;
}

static MPIB_msgset small_msgset(void)
{
    MPIB_msgset m = {.min_size = 0, .max_size = 4096, .stride = 2048, .max_diff = 0.1,
                     .min_stride = 1024, .max_num = 10};
    return m;
}

/* 6.1: "results: array of 3 C(n,3) measurement results (significant only at root)". */
static void measure_p2pp(void)
{
    int n3 = LMO_C3(size), ok = 1;
    MPIB_result *results = malloc(3 * (size_t)n3 * sizeof *results + 1);
    MPIB_result *p2p[2] = {malloc(3 * (size_t)n3 * sizeof *results + 1),
                           malloc(3 * (size_t)n3 * sizeof *results + 1)};
    CPM_measure_p2pp(MPI_COMM_WORLD, 1024, 0, quick_precision(), results);
    for (int k = 0; rank == 0 && k < 3 * n3; k++)
        ok &= results[k].time > 0;
    CPM_measure_p2pp_p2p(MPI_COMM_WORLD, 1024, 1, quick_precision(), results, p2p);
    for (int k = 0; rank == 0 && k < 3 * n3; k++)
        ok &= results[k].time > 0 && p2p[0][k].time > 0 && p2p[1][k].time > 0;
    verdict("6.1 CPM_measure_p2pp, CPM_measure_p2pp_p2p", ok, "a time not above 0");
    free(results);
    free(p2p[0]);
    free(p2p[1]);
}

/* 6.6.2: LMO_IJK2INDEX numbers the triplets i < j < k from 0 to C(n,3) - 1. */
static void triplet_index(void)
{
    int ok = LMO_C3(5) == 10, next = 0;
    for (int i = 0; i < 6; i++)
        for (int j = i + 1; j < 6; j++)
            for (int k = j + 1; k < 6; k++)
                ok &= LMO_IJK2INDEX(6, i, j, k) == next++;
    verdict("6.6.2 LMO_C3, LMO_IJK2INDEX", ok && next == LMO_C3(6), "an index out of order");
}

/* 6.4.2.5 and 6.4.2.7: T_ij(M) = a_ij + b_ij M, with the struct of 8.10. */
static void hockney_estimate(void)
{
    Hockney_model *model = NULL;
    Hockney_estimate(MPI_COMM_WORLD, 4096, quick_precision(), 0, &model);
    int ok = rank == 0 ? model != NULL : model == NULL;
    if (rank == 0 && model) {
        ok &= model->n == size;
        int k = 0;
        for (int i = 0; i < model->n; i++)
            for (int j = i + 1; j < model->n; j++, k++)
                ok &= close_to(Hockney_predict_p2p(model, i, j, 1000),
                               model->a[k] + model->b[k] * 1000) &&
                      close_to(model->predictor.predict_p2p(model, j, i, 1000),
                               model->a[k] + model->b[k] * 1000);
        Hockney_free(model);
    }
    verdict("6.4 Hockney_estimate, Hockney_predict_p2p, a and b", ok, "a prediction is not a + bM");
}

static void hockney_regression(void)
{
    Hockney_model *model = NULL;
    Hockney_estimate_regression(MPI_COMM_WORLD, small_msgset(), quick_precision(), 1, &model);
    int ok = rank == 0 ? model != NULL && model->n == size : model == NULL;
    if (model)
        Hockney_free(model);
    verdict("6.4 Hockney_estimate_regression", ok, "no model on the root");
}

/* 6.4.2.8-6.4.2.13 on a model made by hand. */
static void hockney_collectives(void)
{
    Hockney_model *model = Hockney_alloc(4);
    int k = 0, ok = model != NULL;
    for (int i = 0; i < 4; i++)
        for (int j = i + 1; j < 4; j++, k++) {
            model->a[k] = 1e-5 * (1 + k);
            model->b[k] = 1e-9 * (1 + i + j);
        }
    double serial = 0, parallel = 0, a = 0, b = 0;
    for (int i = 1; i < 4; i++) {
        double t = Hockney_predict_p2p(model, 0, i, 1024);
        serial += t;
        parallel = t > parallel ? t : parallel;
    }
    for (k = 0; k < 6; k++) {
        a += model->a[k] / 6;
        b += model->b[k] / 6;
    }
    ok &= close_to(Hockney_predict_sg_flat_serial(model, 0, 1024), serial);
    ok &= close_to(Hockney_predict_sg_flat_parallel(model, 0, 1024), parallel);
    ok &= Hockney_predict_sg_binomial(model, 0, 1024) > parallel;
    ok &= close_to(Hockney_hpredict_sg_flat_serial(model, 1024), 3 * (a + b * 1024));
    ok &= close_to(Hockney_hpredict_sg_flat_parallel(model, 1024), a + b * 1024);
    ok &= close_to(Hockney_hpredict_sg_binomial(model, 1024), 2 * a + 3 * b * 1024);
    /* 6.3: the generic forms over the model's predictor. */
    CPM_predictor *p = &model->predictor;
    ok &= close_to(CPM_predict_flat_sg_serial(p, 4, 0, 1024), serial);
    ok &= close_to(CPM_predict_flat_sg(p, 4, 0, 1024), serial);
    ok &= close_to(CPM_predict_flat_sg_parallel(p, 4, 0, 1024), parallel);
    int bytes[4] = {1024, 1024, 1024, 1024};
    ok &= close_to(CPM_predict_flat_sgv_serial(p, 4, 0, bytes), serial);
    ok &= close_to(CPM_predict_flat_sgv(p, 4, 0, bytes), serial);
    ok &= close_to(CPM_predict_flat_sgv_parallel(p, 4, 0, bytes), parallel);
    ok &= close_to(CPM_predict_sgv(p, 4, 0, bytes, CPM_COLL_SCATTER),
                   CPM_predict_brsg(p, 4, 0, 1024, CPM_COLL_SCATTER));
    ok &= CPM_predict_brsg(p, 4, 0, 1024, CPM_COLL_BCAST) > parallel;
    ok &= isnan(Hockney_predict_p2p(model, 0, 1, -1));
    Hockney_free(model);
    verdict("6.3, 6.4 Hockney_predict_sg_*, Hockney_hpredict_sg_*, CPM_predict_*", ok,
            "a prediction is not the manual's formula");
}

/* 6.5 and 8.12. */
static void lininterp(void)
{
    LinInterp_model *model = NULL;
    LinInterp_estimate(MPI_COMM_WORLD, quick_precision(), small_msgset(), 0, &model);
    int ok = rank == 0 ? model != NULL : model == NULL;
    if (model) {
        ok &= model->n == size && model->num_points == 3;
        ok &= LinInterp_predict_p2p(model, 0, 1, 3000) >= LinInterp_predict_p2p(model, 0, 1, 0);
        LinInterp_free(model);
    }
    LinInterp_model *made = LinInterp_alloc(size, 4);
    ok &= made && made->num_points == 4;
    LinInterp_free(made);
    verdict("6.5 LinInterp_estimate, LinInterp_alloc, LinInterp_predict_p2p", ok,
            "no model, or a curve that falls");
}

/* 6.6.3.5 and 6.6.3.7: C_i + L_ij + C_j + M (t_i + 1/beta_ij + t_j), struct 8.13. */
static void lmo(void)
{
    LMO_model *model = NULL;
    LMO_estimate(MPI_COMM_WORLD, quick_precision(), small_msgset(), 0, &model);
    int ok = rank == 0 ? model != NULL : model == NULL;
    if (model) {
        int k = 0;
        for (int i = 0; i < model->n; i++)
            for (int j = i + 1; j < model->n; j++, k++) {
                double fixed = model->C[i] + model->L[k] + model->C[j];
                double per_byte = model->t[i] + 1 / model->b[k] + model->t[j];
                if (fixed >= 0 && per_byte >= 0)
                    ok &= close_to(LMO_predict_p2p(model, i, j, 4096), fixed + 4096 * per_byte);
            }
        ok &= LMO_predict_scatter_flat(model, 0, 4096) > 0 &&
              LMO_predict_gather_flat(model, 0, 4096) > 0;
        ok &= model->M1 <= model->M2 || model->M2 == CPM_NO_THRESHOLD;
        ok &= isfinite(model->one2many_small[0] + model->one2many_large[1] +
                       model->many2one_small[0] + model->many2one_large[1]);
        (void)model->S;
        LMO_free(model);
    }
    LMO_model *hom = NULL;
    LMO_estimate_homogeneous(MPI_COMM_WORLD, quick_precision(), small_msgset(), &hom);
    ok &= rank == 0 ? hom != NULL : hom == NULL;
    LMO_free(hom);
    verdict("6.6 LMO_estimate(_homogeneous), LMO_predict_*, C L t b S M1 M2", ok,
            "a prediction is not the manual's formula");
}

/* 6.7 and 8.14: PLogP L + g(M); LogGP from the same model, its own predictor. */
static void plogp(void)
{
    PLogP_model *model = NULL;
    PLogP_estimate(MPI_COMM_WORLD, quick_precision(), small_msgset(), 0, &model);
    int ok = rank == 0 ? model != NULL : model == NULL;
    if (model) {
        ok &= model->n == size;
        ok &= PLogP_predict_p2p(model, 0, 1, 4096) >= PLogP_predict_p2p(model, 0, 1, 0);
        CPM_predictor *loggp = &model->LogGP_predictor;
        ok &= close_to(loggp->predict_p2p(loggp, 0, 1, 4096), LogGP_predict_p2p(model, 0, 1, 4096));
        ok &= close_to(model->predictor.predict_p2p(model, 0, 1, 4096),
                       PLogP_predict_p2p(model, 0, 1, 4096));
        ok &= PLogP_hpredict_sg_linear(model, 4096) > 0;
        ok &= LogGP_hpredict_sg_linear(model, 4096) > 0;
        PLogP_free(model);
    }
    verdict("6.7 PLogP_estimate, PLogP_/LogGP_predict_p2p, *_hpredict_sg_linear, LogGP_predictor",
            ok, "a prediction is out of order");
}

/* 6.2: X_write and X_read give the model back. */
static void files(void)
{
    int ok = 1;
    if (rank == 0) {
        LMO_model *model = LMO_alloc(3), *back = NULL;
        model->C[0] = 1e-6;
        model->t[2] = 1e-10;
        model->L[1] = 1e-5;
        FILE *f = tmpfile();
        LMO_write(f, model);
        rewind(f);
        LMO_read(f, &back);
        fclose(f);
        ok = back && close_to(LMO_predict_p2p(back, 0, 2, 100), LMO_predict_p2p(model, 0, 2, 100));
        LMO_free(model);
        LMO_free(back);
        Hockney_model *none = NULL;
        f = tmpfile();
        fputs("not a model\n", f);
        rewind(f);
        Hockney_read(f, &none);
        fclose(f);
        ok &= none == NULL;
    }
    verdict("6.2 X_write, X_read", ok, "the model did not come back");
}

/* 6.8 and 8.3: a model of one's own, its predictor first, runs a generic
 * collective ("int CPM_Y(CPM_predictor* predictor, standard args)"). */
struct ring_model {
    CPM_predictor predictor;
    double latency;
};

static double ring_predict_p2p(void *_this, int i, int j, int M)
{
    struct ring_model *m = _this;
    int hops = abs(i - j);
    return m->latency * hops + 1e-9 * M;
}

static void own_predictor(void)
{
    struct ring_model model;
    memset(&model, 0, sizeof model);
    model.predictor.predict_p2p = ring_predict_p2p;
    model.latency = 1e-6;
    CPM_predictor *predictor = &model.predictor;
    int ok = close_to(predictor->predict_p2p(predictor, 0, 2, 1000), 2e-6 + 1e-6);
    ok &= close_to(CPM_predict_flat_sg_serial(predictor, 3, 0, 1000), 1e-6 + 2e-6 + 2e-6);
    int data[4] = {0, 0, 0, 0};
    if (rank == size - 1)
        for (int k = 0; k < 4; k++)
            data[k] = 10 + k;
    ok &= CPM_Bcast_ucs_binomial(predictor, CPM_NEXT_MIN, data, 4, MPI_INT, size - 1,
                                 MPI_COMM_WORLD) == MPI_SUCCESS;
    ok &= data[0] == 10 && data[3] == 13;
    int mine = rank + 1, sum = 0;
    ok &= CPM_Reduce_dfs_binomial(predictor, CPM_NEXT_MAX, &mine, &sum, 1, MPI_INT, MPI_SUM, 0,
                                  MPI_COMM_WORLD) == MPI_SUCCESS;
    ok &= rank != 0 || sum == size * (size + 1) / 2;
    verdict("6.8, 8.3 a CPM_predictor of one's own, CPM_Bcast_ucs_binomial, "
            "CPM_Reduce_dfs_binomial",
            ok, "wrong data or prediction");
}

/* 6.8.2.1: sorted flat scatterv over a model's predictor; 6.9: the Hockney
 * binding after Hockney_initialize, with MPI_IN_PLACE at the root. */
static void sorted_flat_and_bindings(void)
{
    Hockney_model *model = NULL;
    if (rank == 0) {
        model = Hockney_alloc(size);
        for (int k = 0; k < size * (size - 1) / 2; k++) {
            model->a[k] = 1e-5;
            model->b[k] = 1e-9 * (k + 1);
        }
    }
    int ok = Hockney_initialize(MPI_COMM_WORLD, model) == MPI_SUCCESS;
    Hockney_free(model);
    int *all = malloc(2 * (size_t)size * sizeof *all);
    int *counts = malloc((size_t)size * sizeof *counts);
    int *displs = malloc((size_t)size * sizeof *displs), got[2] = {-1, -1};
    for (int r = 0; r < size; r++) {
        counts[r] = 2;
        displs[r] = 2 * r;
        all[2 * r] = 100 * r;
        all[2 * r + 1] = 100 * r + 1;
    }
    MPIB_sort_order order = CPM_SORT_DESC;
    ok &= CPM_Scatterv_sorted_flat(&Hockney_model_instance->predictor, order, all, counts, displs,
                                   MPI_INT, got, 2, MPI_INT, 0, MPI_COMM_WORLD) == MPI_SUCCESS;
    ok &= got[0] == 100 * rank && got[1] == 100 * rank + 1;
    for (int k = 0; k < 2 * size; k++)
        all[k] = rank == 0 ? (k < 2 ? k : -1) : 0;
    int mine[2] = {100 * rank, 100 * rank + 1};
    ok &= Hockney_Gather_dfs_binomial_min(rank == 0 ? MPI_IN_PLACE : mine, 2, MPI_INT, all, 2,
                                          MPI_INT, 0, MPI_COMM_WORLD) == MPI_SUCCESS;
    for (int r = 1; rank == 0 && r < size; r++)
        ok &= all[2 * r] == 100 * r && all[2 * r + 1] == 100 * r + 1;
    ok &= Hockney_finalize(MPI_COMM_WORLD) == MPI_SUCCESS && Hockney_model_instance == NULL;
    free(all);
    free(counts);
    free(displs);
    verdict("6.8 CPM_Scatterv_sorted_flat, 6.9 Hockney_initialize, Hockney_Gather_dfs_binomial_min",
            ok, "wrong data");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    measure_p2pp();
    triplet_index();
    hockney_estimate();
    hockney_regression();
    hockney_collectives();
    lininterp();
    lmo();
    plogp();
    files();
    own_predictor();
    sorted_flat_and_bindings();
    if (rank == 0)
        printf("%d snippets failed\n", failures);
    MPI_Finalize();
    return failures != 0;
}
