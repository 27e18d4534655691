/* matmul_sets: the collectives of the parallel matrix product; see
 * matmul_sets.h. */
#include "matmul_sets.h"

#include <stdio.h>
#include <string.h>

static const struct {
    const char *name;
    int (*init)(MPI_Comm, const void *);
    int (*finalize)(MPI_Comm);
} models[] = {
#define MODEL(X) {#X, X##_initialize, X##_finalize},
    CPM_COLL_MODELS(MODEL)
#undef MODEL
};

/* The operation X_OP_ALG, or NULL. */
static const struct cpm_coll_entry *op_of(const char *model, const char *op, const char *alg)
{
    char name[120];
    snprintf(name, sizeof name, "%s_%s_%s", model, op, alg);
    return cpm_coll_op_find(name);
}

int matmul_set_parse(const char *name, struct matmul_set *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    if (strlen(name) >= sizeof s->name) {
        snprintf(err, errlen, "collectives '%.40s...': name too long", name);
        return -1;
    }
    strcpy(s->name, name);
    if (strcmp(name, "native") == 0)
        return 0;
    size_t len = strcspn(name, "_");
    if (name[len] == '_' && len < sizeof s->model) {
        memcpy(s->model, name, len);
        s->model[len] = '\0';
        s->scatterv = op_of(s->model, "Scatterv", name + len + 1);
        s->gatherv = op_of(s->model, "Gatherv", name + len + 1);
        s->bcast = op_of(s->model, "Bcast", name + len + 1);
    }
    if (!s->scatterv || !s->gatherv) {
        snprintf(err, errlen,
                 "collectives '%s': neither native nor MODEL_ALGORITHM with a Scatterv and a "
                 "Gatherv in libcpm_coll (e.g. Hockney_dfs_binomial_min, LMO_Traff)",
                 name);
        return -1;
    }
    return 0;
}

void matmul_set_describe(const struct matmul_set *s, char *out, size_t len)
{
    snprintf(out, len, "%s, %s, %s", s->scatterv ? s->scatterv->name : "MPI_Scatterv",
             s->bcast ? s->bcast->name : "MPI_Bcast",
             s->gatherv ? s->gatherv->name : "MPI_Gatherv");
}

int matmul_model_init(const char *model, MPI_Comm comm, const void *instance)
{
    for (size_t k = 0; k < sizeof models / sizeof models[0]; k++)
        if (strcmp(models[k].name, model) == 0)
            return models[k].init(comm, instance);
    return MPI_ERR_ARG;
}

int matmul_model_finalize(const char *model, MPI_Comm comm)
{
    for (size_t k = 0; k < sizeof models / sizeof models[0]; k++)
        if (strcmp(models[k].name, model) == 0)
            return models[k].finalize(comm);
    return MPI_ERR_ARG;
}

int matmul_scatterv(const struct matmul_set *s, const double *sendbuf, const int *counts,
                    const int *displs, double *recvbuf, int recvcount, MPI_Comm comm)
{
    if (!s->scatterv)
        return MPI_Scatterv(sendbuf, counts, displs, MPI_DOUBLE, recvbuf, recvcount, MPI_DOUBLE, 0,
                            comm);
    struct cpm_coll_call a = {sendbuf, recvbuf, recvcount, MPI_DOUBLE, counts, displs,
                              MPI_OP_NULL, 0, comm};
    return cpm_coll_entry_call(s->scatterv, s->scatterv->fn, &a);
}

int matmul_bcast(const struct matmul_set *s, double *buf, int count, MPI_Comm comm)
{
    if (!s->bcast)
        return MPI_Bcast(buf, count, MPI_DOUBLE, 0, comm);
    struct cpm_coll_call a = {buf, NULL, count, MPI_DOUBLE, NULL, NULL, MPI_OP_NULL, 0, comm};
    return cpm_coll_entry_call(s->bcast, s->bcast->fn, &a);
}

int matmul_gatherv(const struct matmul_set *s, const double *sendbuf, int sendcount,
                   double *recvbuf, const int *counts, const int *displs, MPI_Comm comm)
{
    if (!s->gatherv)
        return MPI_Gatherv(sendbuf, sendcount, MPI_DOUBLE, recvbuf, counts, displs, MPI_DOUBLE, 0,
                           comm);
    struct cpm_coll_call a = {sendbuf, recvbuf, sendcount, MPI_DOUBLE, counts, displs,
                              MPI_OP_NULL, 0, comm};
    return cpm_coll_entry_call(s->gatherv, s->gatherv->fn, &a);
}
