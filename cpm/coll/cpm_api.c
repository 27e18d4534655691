/* cpm_api: the CPM manual's interface over libcpm; see cpm_api.h. */
#include "cpm_api.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

static char api_error[400];

const char *cpm_api_error(void) { return api_error; }
const char *cpm_api_read_error(void) { return api_error; }

static void read_model(FILE *stream, const struct cpm_model_kind *kind, void **model)
{
    api_error[0] = '\0';
    if (!stream) {
        *model = NULL;
        snprintf(api_error, sizeof api_error, "no stream to read a %s model from", kind->name);
        return;
    }
    cpm_model_read_stream(stream, kind, model, api_error, sizeof api_error);
}

/* Every model begins with its predictor, whose predict_p2p takes the model. */
#define CPM_API_DEFINE_FILE(X, KIND, FREE)                                                       \
    void X##_free(X##_model *model) { FREE(model); }                                            \
    void X##_read(FILE *stream, X##_model **model)                                               \
    {                                                                                            \
        void *m;                                                                                 \
        read_model(stream, &KIND, &m);                                                           \
        *model = m;                                                                              \
    }                                                                                            \
    void X##_write(FILE *stream, const X##_model *model)                                         \
    {                                                                                            \
        if (stream && model)                                                                     \
            cpm_model_write_stream(stream, &KIND, model);                                        \
    }                                                                                            \
    double X##_predict_p2p(void *_this, int i, int j, int M)                                     \
    {                                                                                            \
        return cpm_predict_p2p_int(_this, i, j, M);                                              \
    }
CPM_API_DEFINE_FILE(Hockney, cpm_hockney_kind, cpm_hockney_free)
CPM_API_DEFINE_FILE(LinInterp, cpm_lininterp_kind, cpm_lininterp_free)
CPM_API_DEFINE_FILE(PLogP, cpm_plogp_kind, cpm_plogp_free)
CPM_API_DEFINE_FILE(LMO, cpm_lmo_kind, cpm_lmo_free)

static bool processes_ok(int n) { return n >= 1 && n <= CPM_MAX_PROCESSES; }

Hockney_model *Hockney_alloc(int n) { return processes_ok(n) ? cpm_hockney_alloc(n) : NULL; }

LinInterp_model *LinInterp_alloc(int size, int num_points)
{
    if (!processes_ok(size) || num_points < 1 || num_points > CPM_MAX_POINTS)
        return NULL;
    return cpm_lininterp_alloc(size, (size_t)num_points);
}

PLogP_model *PLogP_alloc(int n) { return processes_ok(n) ? cpm_plogp_alloc(n, 1) : NULL; }

LMO_model *LMO_alloc(int n) { return processes_ok(n) ? cpm_lmo_alloc(n, false) : NULL; }

/* ---- measurement and estimates ---- */

void CPM_measure_p2pp(MPI_Comm comm, int M, int parallel, MPIB_precision precision,
                      MPIB_result *results)
{
    if (M >= 0)
        cpm_measure_p2pp(comm, (size_t)M, parallel != 0, &precision, results);
}

void CPM_measure_p2pp_p2p(MPI_Comm comm, int M, int parallel, MPIB_precision precision,
                          MPIB_result *results_p2pp, MPIB_result *results_p2p[2])
{
    if (M >= 0)
        cpm_measure_p2pp_p2p(comm, (size_t)M, parallel != 0, &precision, results_p2pp,
                             results_p2p);
}

/* The tools' path: the kind checks the arguments (the same verdict on
 * every process, so none is left waiting), then estimates. */
static void *estimate(const struct cpm_model_kind *kind, MPI_Comm comm, MPIB_msgset msgset,
                      MPIB_precision precision, int parallel, bool two_point, bool homogeneous)
{
    struct cpm_estimate_args a = {comm, msgset, precision, parallel != 0, two_point, homogeneous};
    char err[sizeof api_error] = "";
    void *model = NULL;
    int size = 0;
    api_error[0] = '\0';
    MPI_Comm_size(comm, &size);
    if (size < kind->min_procs)
        snprintf(err, sizeof err, "the %s model needs at least %d processes, not %d", kind->name,
                 kind->min_procs, size);
    else if (cpm_precision_check(&a.precision, err, sizeof err) == 0 &&
             kind->check(&a, err, sizeof err) == 0 &&
             kind->estimate(&a, &model, err, sizeof err) == 0)
        return model;
    snprintf(api_error, sizeof api_error, "%s", err);
    return NULL;
}

void Hockney_estimate(MPI_Comm comm, int M, MPIB_precision precision, int parallel,
                      Hockney_model **model)
{
    MPIB_msgset two = CPM_MSGSET_DEFAULT;
    two.max_size = M > 0 ? (size_t)M : 0;
    *model = estimate(&cpm_hockney_kind, comm, two, precision, parallel, true, false);
}

void Hockney_estimate_regression(MPI_Comm comm, MPIB_msgset msgset, MPIB_precision precision,
                                 int parallel, Hockney_model **model)
{
    *model = estimate(&cpm_hockney_kind, comm, msgset, precision, parallel, false, false);
}

void LinInterp_estimate(MPI_Comm comm, MPIB_precision precision, MPIB_msgset msgset,
                        int parallel, LinInterp_model **model)
{
    *model = estimate(&cpm_lininterp_kind, comm, msgset, precision, parallel, false, false);
}

void PLogP_estimate(MPI_Comm comm, MPIB_precision precision, MPIB_msgset msgset, int parallel,
                    PLogP_model **model)
{
    *model = estimate(&cpm_plogp_kind, comm, msgset, precision, parallel, false, false);
}

void LMO_estimate(MPI_Comm comm, MPIB_precision precision, MPIB_msgset msgset, int parallel,
                  LMO_model **model)
{
    *model = estimate(&cpm_lmo_kind, comm, msgset, precision, parallel, false, false);
}

void LMO_estimate_homogeneous(MPI_Comm comm, MPIB_precision precision, MPIB_msgset msgset,
                              LMO_model **model)
{
    *model = estimate(&cpm_lmo_kind, comm, msgset, precision, 0, false, true);
}

/* ---- each model's own predictions ---- */

#define CPM_API_ROOTED(NAME, TYPE, CALL)                                                         \
    double NAME(void *_this, int root, int M)                                                    \
    {                                                                                            \
        return M < 0 ? NAN : CALL((const TYPE *)_this, root, (size_t)M);                         \
    }
#define CPM_API_HOMOGENEOUS(NAME, TYPE, CALL)                                                    \
    double NAME(void *_this, int M) { return M < 0 ? NAN : CALL((const TYPE *)_this, (size_t)M); }

CPM_API_ROOTED(Hockney_predict_sg_flat_serial, Hockney_model, cpm_hockney_predict_sg_flat_serial)
CPM_API_ROOTED(Hockney_predict_sg_flat_parallel, Hockney_model,
               cpm_hockney_predict_sg_flat_parallel)
CPM_API_ROOTED(Hockney_predict_sg_binomial, Hockney_model, cpm_hockney_predict_sg_binomial)
CPM_API_HOMOGENEOUS(Hockney_hpredict_sg_flat_serial, Hockney_model,
                    cpm_hockney_hpredict_sg_flat_serial)
CPM_API_HOMOGENEOUS(Hockney_hpredict_sg_flat_parallel, Hockney_model,
                    cpm_hockney_hpredict_sg_flat_parallel)
CPM_API_HOMOGENEOUS(Hockney_hpredict_sg_binomial, Hockney_model, cpm_hockney_hpredict_sg_binomial)
CPM_API_ROOTED(LMO_predict_scatter_flat, LMO_model, cpm_lmo_predict_scatter_flat)
CPM_API_ROOTED(LMO_predict_gather_flat, LMO_model, cpm_lmo_predict_gather_flat)
CPM_API_HOMOGENEOUS(PLogP_hpredict_sg_linear, PLogP_model, cpm_plogp_hpredict_sg_linear)
CPM_API_HOMOGENEOUS(LogGP_hpredict_sg_linear, PLogP_model, cpm_loggp_hpredict_sg_linear)

double LogGP_predict_p2p(void *_this, int i, int j, int M)
{
    return cpm_loggp_predict_p2p_int(_this, i, j, M);
}

/* ---- the generic predictions ---- */

/* A tree of size processes of the predictor with this root (n 0: a
 * program's own predictor, which states no count). */
static bool tree_ok(const CPM_predictor *p, int size, int root)
{
    return p && (p->p2p || p->predict_p2p) && size >= 1 && (p->n == 0 || size <= p->n) &&
           root >= 0 && root < size;
}

/* size_bytes (n >= 1) as sizes; NULL (with *bad set) when one is below 0,
 * or when memory runs out. */
static size_t *sizes_of(int n, const int *size_bytes, bool *bad)
{
    size_t *s = malloc((size_t)n * sizeof *s);
    *bad = false;
    for (int r = 0; s && r < n; r++) {
        if (size_bytes[r] < 0) {
            *bad = true;
            free(s);
            return NULL;
        }
        s[r] = (size_t)size_bytes[r];
    }
    if (!s)
        *bad = true;
    return s;
}

double CPM_predict_brsg(CPM_predictor *predictor, int size, int root, int size_bytes,
                        CPM_coll_ops operation)
{
    if (size_bytes < 0 || !tree_ok(predictor, size, root))
        return NAN;
    return cpm_predict_brsg(predictor, size, root, (size_t)size_bytes, operation);
}

#define CPM_API_SG(NAME, CALL)                                                                   \
    double NAME(CPM_predictor *predictor, int size, int root, int size_bytes)                    \
    {                                                                                            \
        if (size_bytes < 0 || !tree_ok(predictor, size, root))                                   \
            return NAN;                                                                          \
        return CALL(predictor, size, root, (size_t)size_bytes);                                  \
    }
CPM_API_SG(CPM_predict_flat_sg, cpm_predict_flat_sg)
CPM_API_SG(CPM_predict_flat_sg_parallel, cpm_predict_flat_sg_parallel)
CPM_API_SG(CPM_predict_flat_sg_serial, cpm_predict_flat_sg_serial)

enum sgv_form { SGV_TREE, SGV_FLAT, SGV_PARALLEL, SGV_SERIAL };

static double predict_sgv(CPM_predictor *p, int size, int root, const int *size_bytes,
                          enum sgv_form form, CPM_coll_ops operation)
{
    if (!tree_ok(p, size, root))
        return NAN;
    bool bad;
    size_t *s = sizes_of(size, size_bytes, &bad);
    double t = NAN;
    if (!bad)
        t = form == SGV_TREE       ? cpm_predict_sgv(p, size, root, s, operation)
            : form == SGV_FLAT     ? cpm_predict_flat_sgv(p, size, root, s)
            : form == SGV_PARALLEL ? cpm_predict_flat_sgv_parallel(p, size, root, s)
                                   : cpm_predict_flat_sgv_serial(p, size, root, s);
    free(s);
    return t;
}

double CPM_predict_sgv(CPM_predictor *predictor, int size, int root, int *size_bytes,
                       CPM_coll_ops operation)
{
    return predict_sgv(predictor, size, root, size_bytes, SGV_TREE, operation);
}
double CPM_predict_flat_sgv(CPM_predictor *predictor, int size, int root, int *size_bytes)
{
    return predict_sgv(predictor, size, root, size_bytes, SGV_FLAT, CPM_COLL_SCATTER);
}
double CPM_predict_flat_sgv_parallel(CPM_predictor *predictor, int size, int root,
                                     int *size_bytes)
{
    return predict_sgv(predictor, size, root, size_bytes, SGV_PARALLEL, CPM_COLL_SCATTER);
}
double CPM_predict_flat_sgv_serial(CPM_predictor *predictor, int size, int root, int *size_bytes)
{
    return predict_sgv(predictor, size, root, size_bytes, SGV_SERIAL, CPM_COLL_SCATTER);
}
