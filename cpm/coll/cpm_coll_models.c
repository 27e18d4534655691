/* cpm_coll_models: model instances and the X_Y bindings; see cpm_coll_models.h. */
#include "cpm_coll_models.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpm_lmo.h"
#include "msg.h"

struct instance {
    const struct cpm_model_kind *kind;
    void *model;
};

static void instance_free(struct instance *in)
{
    if (in->model)
        in->kind->destroy(in->model);
    in->model = NULL;
}

/* Rank 0 writes the model as its file text; every process (rank 0 too) reads
 * the text back, so all hold bit-identical models and build the same trees. */
static int instance_init(struct instance *in, const char *kind_name, MPI_Comm comm,
                         const void *model)
{
    const struct cpm_model_kind *kind = cpm_model_kind_find(kind_name);
    int rank, rc = MPI_Comm_rank(comm, &rank);
    if (rc != MPI_SUCCESS)
        return rc;
    char *text = NULL;
    size_t len = 0;
    uint64_t wlen = 0;
    if (rank == 0 && model) {
        FILE *f = open_memstream(&text, &len);
        if (f) {
            int bad = cpm_model_write_stream(f, kind, model);
            if (fclose(f) == 0 && !bad)
                wlen = len;
        }
    }
    rc = MPI_Bcast(&wlen, 1, MPI_UINT64_T, 0, comm);
    if (rc != MPI_SUCCESS || wlen == 0) {
        free(text);
        return rc != MPI_SUCCESS ? rc : MPI_ERR_ARG;
    }
    if (rank != 0)
        text = malloc((size_t)wlen);
    int have = text != NULL, all = 0;
    rc = MPI_Allreduce(&have, &all, 1, MPI_INT, MPI_MIN, comm);
    if (rc == MPI_SUCCESS && !all)
        rc = MPI_ERR_NO_MEM;
    struct msg_type t = {MPI_BYTE, 0, 0};
    if (rc == MPI_SUCCESS && msg_type_make((size_t)wlen, MPI_BYTE, &t) != 0)
        rc = MPI_ERR_TYPE;
    if (rc == MPI_SUCCESS)
        rc = MPI_Bcast(text, t.count, t.type, 0, comm);
    msg_type_free(&t);
    void *copy = NULL;
    if (rc == MPI_SUCCESS) {
        char err[300];
        FILE *f = fmemopen(text, (size_t)wlen, "r");
        if (!f || cpm_model_read_stream(f, kind, &copy, err, sizeof err) != 0)
            rc = MPI_ERR_OTHER;
        if (f)
            fclose(f);
    }
    free(text);
    if (rc == MPI_SUCCESS) {
        instance_free(in);
        in->kind = kind;
        in->model = copy;
    }
    return rc;
}

static const struct cpm_predictor *instance_predictor(const struct instance *in)
{
    return in->model ? in->kind->predictor(in->model) : NULL;
}

#define ALG_BIN(S, N) {CPM_ALG_BINOMIAL, CPM_TREE_##S, CPM_NEXT_##N, CPM_SORT_ASC}
#define ALG_FLAT(O) {CPM_ALG_SORTED_FLAT, CPM_TREE_DFS, CPM_NEXT_MIN, CPM_SORT_##O}
#define ALG_TRAFF {CPM_ALG_TRAFF, CPM_TREE_DFS, CPM_NEXT_MIN, CPM_SORT_ASC}

/* X_Y is the seed's "return CPM_Y(&X_model_instance->predictor, args)". */
#define DEFINE_BINOMIAL(X, s, n, S, N)                                                           \
    int X##_Bcast_##s##_binomial_##n(CPM_COLL_ARGS_BCAST)                                        \
    {                                                                                            \
        return CPM_Bcast_##s##_binomial(instance_predictor(&X##_instance), CPM_NEXT_##N, buffer, \
                                        count, datatype, root, comm);                            \
    }                                                                                            \
    int X##_Reduce_##s##_binomial_##n(CPM_COLL_ARGS_REDUCE)                                      \
    {                                                                                            \
        return CPM_Reduce_##s##_binomial(instance_predictor(&X##_instance), CPM_NEXT_##N,       \
                                         sendbuf, recvbuf, count, datatype, op, root, comm);     \
    }                                                                                            \
    int X##_Scatter_##s##_binomial_##n(CPM_COLL_ARGS_SG)                                         \
    {                                                                                            \
        return CPM_Scatter_##s##_binomial(instance_predictor(&X##_instance), CPM_NEXT_##N,      \
                                          sendbuf, sendcount, sendtype, recvbuf, recvcount,      \
                                          recvtype, root, comm);                                 \
    }                                                                                            \
    int X##_Gather_##s##_binomial_##n(CPM_COLL_ARGS_SG)                                          \
    {                                                                                            \
        return CPM_Gather_##s##_binomial(instance_predictor(&X##_instance), CPM_NEXT_##N,       \
                                         sendbuf, sendcount, sendtype, recvbuf, recvcount,       \
                                         recvtype, root, comm);                                  \
    }                                                                                            \
    int X##_Scatterv_##s##_binomial_##n(CPM_COLL_ARGS_SCATTERV)                                  \
    {                                                                                            \
        return CPM_Scatterv_##s##_binomial(instance_predictor(&X##_instance), CPM_NEXT_##N,     \
                                           sendbuf, sendcounts, displs, sendtype, recvbuf,       \
                                           recvcount, recvtype, root, comm);                     \
    }                                                                                            \
    int X##_Gatherv_##s##_binomial_##n(CPM_COLL_ARGS_GATHERV)                                    \
    {                                                                                            \
        return CPM_Gatherv_##s##_binomial(instance_predictor(&X##_instance), CPM_NEXT_##N,      \
                                          sendbuf, sendcount, sendtype, recvbuf, recvcounts,     \
                                          displs, recvtype, root, comm);                         \
    }

#define DEFINE_V(X, suffix, ALG)                                                                 \
    int X##_Scatterv_##suffix(CPM_COLL_ARGS_SCATTERV)                                            \
    {                                                                                            \
        static const struct cpm_coll_alg a = ALG;                                                \
        return cpm_coll_scatterv(instance_predictor(&X##_instance), &a, sendbuf, sendcounts,    \
                                 displs, sendtype, recvbuf, recvcount, recvtype, root, comm);    \
    }                                                                                            \
    int X##_Gatherv_##suffix(CPM_COLL_ARGS_GATHERV)                                              \
    {                                                                                            \
        static const struct cpm_coll_alg a = ALG;                                                \
        return cpm_coll_gatherv(instance_predictor(&X##_instance), &a, sendbuf, sendcount,      \
                                sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);    \
    }

#define DEFINE_MODEL(X)                                                                          \
    static struct instance X##_instance;                                                         \
    CPM_COLL_TYPE_##X *X##_model_instance;                                                       \
    int X##_initialize(MPI_Comm comm, const void *model)                                         \
    {                                                                                            \
        int rc = instance_init(&X##_instance, #X, comm, model);                                  \
        X##_model_instance = X##_instance.model;                                                 \
        return rc;                                                                               \
    }                                                                                            \
    int X##_finalize(MPI_Comm comm)                                                              \
    {                                                                                            \
        (void)comm;                                                                              \
        instance_free(&X##_instance);                                                            \
        X##_model_instance = NULL;                                                               \
        return MPI_SUCCESS;                                                                      \
    }                                                                                            \
    DEFINE_BINOMIAL(X, dfs, min, DFS, MIN)                                                       \
    DEFINE_BINOMIAL(X, dfs, max, DFS, MAX)                                                       \
    DEFINE_BINOMIAL(X, bfs, min, BFS, MIN)                                                       \
    DEFINE_BINOMIAL(X, bfs, max, BFS, MAX)                                                       \
    DEFINE_BINOMIAL(X, ucs, min, UCS, MIN)                                                       \
    DEFINE_BINOMIAL(X, ucs, max, UCS, MAX)                                                       \
    DEFINE_V(X, sorted_flat_asc, ALG_FLAT(ASC))                                                  \
    DEFINE_V(X, sorted_flat_dsc, ALG_FLAT(DESC))                                                 \
    DEFINE_V(X, Traff, ALG_TRAFF)

CPM_COLL_MODELS(DEFINE_MODEL)

/* ---- the seed's generic names ---- */

#define GENERIC_ALG(S) {CPM_ALG_BINOMIAL, CPM_TREE_##S, next, CPM_SORT_ASC}
#define DEFINE_GENERIC(s, S)                                                                     \
    int CPM_Bcast_##s##_binomial(const struct cpm_predictor *p, enum cpm_next_node next,        \
                                 CPM_COLL_ARGS_BCAST)                                            \
    {                                                                                            \
        struct cpm_coll_alg a = GENERIC_ALG(S);                                                  \
        return cpm_coll_bcast(p, &a, buffer, count, datatype, root, comm);                      \
    }                                                                                            \
    int CPM_Reduce_##s##_binomial(const struct cpm_predictor *p, enum cpm_next_node next,       \
                                  CPM_COLL_ARGS_REDUCE)                                          \
    {                                                                                            \
        struct cpm_coll_alg a = GENERIC_ALG(S);                                                  \
        return cpm_coll_reduce(p, &a, sendbuf, recvbuf, count, datatype, op, root, comm);       \
    }                                                                                            \
    int CPM_Scatter_##s##_binomial(const struct cpm_predictor *p, enum cpm_next_node next,      \
                                   CPM_COLL_ARGS_SG)                                             \
    {                                                                                            \
        struct cpm_coll_alg a = GENERIC_ALG(S);                                                  \
        return cpm_coll_scatter(p, &a, sendbuf, sendcount, sendtype, recvbuf, recvcount,        \
                                recvtype, root, comm);                                           \
    }                                                                                            \
    int CPM_Gather_##s##_binomial(const struct cpm_predictor *p, enum cpm_next_node next,       \
                                  CPM_COLL_ARGS_SG)                                              \
    {                                                                                            \
        struct cpm_coll_alg a = GENERIC_ALG(S);                                                  \
        return cpm_coll_gather(p, &a, sendbuf, sendcount, sendtype, recvbuf, recvcount,         \
                               recvtype, root, comm);                                            \
    }                                                                                            \
    int CPM_Scatterv_##s##_binomial(const struct cpm_predictor *p, enum cpm_next_node next,     \
                                    CPM_COLL_ARGS_SCATTERV)                                      \
    {                                                                                            \
        struct cpm_coll_alg a = GENERIC_ALG(S);                                                  \
        return cpm_coll_scatterv(p, &a, sendbuf, sendcounts, displs, sendtype, recvbuf,         \
                                 recvcount, recvtype, root, comm);                               \
    }                                                                                            \
    int CPM_Gatherv_##s##_binomial(const struct cpm_predictor *p, enum cpm_next_node next,      \
                                   CPM_COLL_ARGS_GATHERV)                                        \
    {                                                                                            \
        struct cpm_coll_alg a = GENERIC_ALG(S);                                                  \
        return cpm_coll_gatherv(p, &a, sendbuf, sendcount, sendtype, recvbuf, recvcounts,       \
                                displs, recvtype, root, comm);                                   \
    }
DEFINE_GENERIC(dfs, DFS)
DEFINE_GENERIC(bfs, BFS)
DEFINE_GENERIC(ucs, UCS)

int CPM_Scatterv_sorted_flat(const struct cpm_predictor *p, enum cpm_sort_order order,
                             CPM_COLL_ARGS_SCATTERV)
{
    struct cpm_coll_alg a = {CPM_ALG_SORTED_FLAT, CPM_TREE_DFS, CPM_NEXT_MIN, order};
    return cpm_coll_scatterv(p, &a, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                             recvtype, root, comm);
}
int CPM_Gatherv_sorted_flat(const struct cpm_predictor *p, enum cpm_sort_order order,
                            CPM_COLL_ARGS_GATHERV)
{
    struct cpm_coll_alg a = {CPM_ALG_SORTED_FLAT, CPM_TREE_DFS, CPM_NEXT_MIN, order};
    return cpm_coll_gatherv(p, &a, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                            recvtype, root, comm);
}
int CPM_Scatterv_Traff(const struct cpm_predictor *p, CPM_COLL_ARGS_SCATTERV)
{
    static const struct cpm_coll_alg a = ALG_TRAFF;
    return cpm_coll_scatterv(p, &a, sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                             recvtype, root, comm);
}
int CPM_Gatherv_Traff(const struct cpm_predictor *p, CPM_COLL_ARGS_GATHERV)
{
    static const struct cpm_coll_alg a = ALG_TRAFF;
    return cpm_coll_gatherv(p, &a, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                            recvtype, root, comm);
}

/* ---- LMO split flat ---- */

/* A flat scatter or gather of count elements per process starting at
 * element first of each block: the root posts every transfer at once. */
static int flat_piece(int scatter, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                      void *recvbuf, int recvcount, MPI_Datatype recvtype, int first, int count,
                      int root, MPI_Comm comm)
{
    int rank, n, rc = MPI_Comm_rank(comm, &rank);
    if (rc == MPI_SUCCESS)
        rc = MPI_Comm_size(comm, &n);
    if (rc != MPI_SUCCESS)
        return rc;
    MPI_Aint lb, sext, rext;
    MPI_Type_get_extent(sendtype, &lb, &sext);
    MPI_Type_get_extent(recvtype, &lb, &rext);
    const char *s = sendbuf;
    char *r = recvbuf;
    if (rank != root)
        return scatter ? MPI_Recv(r + first * rext, count, recvtype, root, CPM_COLL_TAG, comm,
                                  MPI_STATUS_IGNORE)
                       : MPI_Send(s + first * sext, count, sendtype, root, CPM_COLL_TAG, comm);
    MPI_Request *req = malloc((size_t)n * sizeof *req);
    if (!req)
        return MPI_ERR_NO_MEM;
    int nreq = 0;
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
        if (i == root)
            continue;
        if (scatter)
            rc = MPI_Isend(s + ((MPI_Aint)i * sendcount + first) * sext, count, sendtype, i,
                           CPM_COLL_TAG, comm, &req[nreq++]);
        else
            rc = MPI_Irecv(r + ((MPI_Aint)i * recvcount + first) * rext, count, recvtype, i,
                           CPM_COLL_TAG, comm, &req[nreq++]);
    }
    /* In place (recvbuf of a scatter, sendbuf of a gather at the root):
     * the root's own block is where it belongs already. */
    bool in_place = scatter ? recvbuf == MPI_IN_PLACE : sendbuf == MPI_IN_PLACE;
    if (rc == MPI_SUCCESS && !in_place) {
        const char *from = scatter ? s + ((MPI_Aint)root * sendcount + first) * sext
                                   : s + (MPI_Aint)first * sext;
        char *to = scatter ? r + (MPI_Aint)first * rext
                           : r + ((MPI_Aint)root * recvcount + first) * rext;
        rc = MPI_Sendrecv(from, count, sendtype, 0, 0, to, count, recvtype, 0, 0, MPI_COMM_SELF,
                          MPI_STATUS_IGNORE);
    }
    int wrc = MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
    free(req);
    return rc != MPI_SUCCESS ? rc : wrc;
}

/* MPI_IN_PLACE at the root as MPI defines it: the root's count and type
 * of the other side stand for the ignored ones. Elsewhere: MPI_ERR_BUFFER. */
static int split_flat_in_place(int scatter, const void *sendbuf, int *sendcount,
                               MPI_Datatype *sendtype, const void *recvbuf, int *recvcount,
                               MPI_Datatype *recvtype, int root, MPI_Comm comm)
{
    int rank, rc = MPI_Comm_rank(comm, &rank);
    if (rc != MPI_SUCCESS)
        return rc;
    const void *own = scatter ? recvbuf : sendbuf, *other = scatter ? sendbuf : recvbuf;
    if (rank == root && other == MPI_IN_PLACE)
        return MPI_ERR_BUFFER;
    if (own != MPI_IN_PLACE)
        return MPI_SUCCESS;
    if (rank != root)
        return MPI_ERR_BUFFER;
    if (scatter) {
        *recvcount = *sendcount;
        *recvtype = *sendtype;
    } else {
        *sendcount = *recvcount;
        *sendtype = *recvtype;
    }
    return MPI_SUCCESS;
}

int LMO_Scatter_split_flat(CPM_COLL_ARGS_SG)
{
    if (!LMO_instance.model)
        return MPI_ERR_ARG;
    int rc = split_flat_in_place(1, sendbuf, &sendcount, &sendtype, recvbuf, &recvcount,
                                 &recvtype, root, comm);
    if (rc != MPI_SUCCESS)
        return rc;
    return flat_piece(1, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 0, recvcount,
                      root, comm);
}

/* The pieces are whole elements of sendtype (which equals recvtype's
 * signature element by element for the split to be exact). */
int LMO_Gather_split_flat(CPM_COLL_ARGS_SG)
{
    if (!LMO_instance.model)
        return MPI_ERR_ARG;
    int rc = split_flat_in_place(0, sendbuf, &sendcount, &sendtype, recvbuf, &recvcount,
                                 &recvtype, root, comm);
    if (rc != MPI_SUCCESS)
        return rc;
    MPI_Count size;
    MPI_Type_size_x(sendtype, &size);
    size_t rounds = cpm_lmo_gather_rounds(LMO_instance.model, (size_t)sendcount * (size_t)size);
    if (rounds > (size_t)sendcount)
        rounds = sendcount > 0 ? (size_t)sendcount : 1;
    int each = (int)(((size_t)sendcount + rounds - 1) / rounds);
    for (int first = 0; rc == MPI_SUCCESS && (first < sendcount || first == 0);
         first += each ? each : 1) {
        int count = sendcount - first < each ? sendcount - first : each;
        rc = flat_piece(0, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, first,
                        count, root, comm);
        if (each == 0)
            break;
    }
    return rc;
}

/* ---- the table ---- */

#define FN(f) ((void (*)(void))(f))
#define OP_BIN(X, Y, s, n, S, N, K)                                                              \
    {#X "_" #Y "_" #s "_binomial_" #n, #X, K, 0, ALG_BIN(S, N), FN(X##_##Y##_##s##_binomial_##n)},
#define OPS_BINOMIAL(X, s, n, S, N)                                                              \
    OP_BIN(X, Bcast, s, n, S, N, CPM_OP_BCAST)                                                   \
    OP_BIN(X, Reduce, s, n, S, N, CPM_OP_REDUCE)                                                 \
    OP_BIN(X, Scatter, s, n, S, N, CPM_OP_SCATTER)                                               \
    OP_BIN(X, Gather, s, n, S, N, CPM_OP_GATHER)                                                 \
    OP_BIN(X, Scatterv, s, n, S, N, CPM_OP_SCATTERV)                                             \
    OP_BIN(X, Gatherv, s, n, S, N, CPM_OP_GATHERV)
#define OPS_V(X, suffix, ALG)                                                                    \
    {#X "_Scatterv_" #suffix, #X, CPM_OP_SCATTERV, 0, ALG, FN(X##_Scatterv_##suffix)},          \
        {#X "_Gatherv_" #suffix, #X, CPM_OP_GATHERV, 0, ALG, FN(X##_Gatherv_##suffix)},
#define OPS_MODEL(X)                                                                             \
    OPS_BINOMIAL(X, dfs, min, DFS, MIN)                                                          \
    OPS_BINOMIAL(X, dfs, max, DFS, MAX)                                                          \
    OPS_BINOMIAL(X, bfs, min, BFS, MIN)                                                          \
    OPS_BINOMIAL(X, bfs, max, BFS, MAX)                                                          \
    OPS_BINOMIAL(X, ucs, min, UCS, MIN)                                                          \
    OPS_BINOMIAL(X, ucs, max, UCS, MAX)                                                          \
    OPS_V(X, sorted_flat_asc, ALG_FLAT(ASC))                                                     \
    OPS_V(X, sorted_flat_dsc, ALG_FLAT(DESC))                                                    \
    OPS_V(X, Traff, ALG_TRAFF)

const struct cpm_coll_entry cpm_coll_ops[] = {
    CPM_COLL_MODELS(OPS_MODEL)
    {"LMO_Scatter_split_flat", "LMO", CPM_OP_SCATTER, 1, ALG_TRAFF, FN(LMO_Scatter_split_flat)},
    {"LMO_Gather_split_flat", "LMO", CPM_OP_GATHER, 1, ALG_TRAFF, FN(LMO_Gather_split_flat)},
};
const size_t cpm_coll_nops = sizeof cpm_coll_ops / sizeof cpm_coll_ops[0];

const struct cpm_coll_entry *cpm_coll_op_find(const char *name)
{
    for (size_t k = 0; k < cpm_coll_nops; k++)
        if (strcmp(cpm_coll_ops[k].name, name) == 0)
            return &cpm_coll_ops[k];
    return NULL;
}

int cpm_coll_op_tree(const struct cpm_coll_entry *o, const void *model, int n, int root, size_t m,
                     struct cpm_tree *t)
{
    if (o->lmo_split)
        return MPI_ERR_ARG;
    const struct cpm_predictor *p = cpm_model_kind_find(o->model)->predictor(model);
    size_t *bytes = NULL;
    if (o->op != CPM_OP_BCAST && o->op != CPM_OP_REDUCE) {
        bytes = malloc((size_t)n * sizeof *bytes);
        if (!bytes)
            return MPI_ERR_NO_MEM;
        for (int r = 0; r < n; r++)
            bytes[r] = m;
    }
    int rc = cpm_coll_tree(p, &o->alg, o->op, n, root, m, bytes, t);
    free(bytes);
    return rc;
}

double cpm_coll_op_predict(const struct cpm_coll_entry *o, const void *model, int n, int root,
                           size_t m)
{
    if (o->lmo_split)
        return o->op == CPM_OP_SCATTER ? cpm_lmo_predict_scatter_flat(model, root, m)
                                       : cpm_lmo_predict_gather_flat(model, root, m);
    struct cpm_tree t;
    if (cpm_coll_op_tree(o, model, n, root, m, &t) != MPI_SUCCESS)
        return -1.0;
    const struct cpm_predictor *p = cpm_model_kind_find(o->model)->predictor(model);
    double time = cpm_tree_predict(&t, p, cpm_coll_op_dir(o->op), m);
    cpm_tree_free(&t);
    return time;
}

int cpm_coll_entry_call(const struct cpm_coll_entry *e, void (*fn)(void),
                        const struct cpm_coll_call *a)
{
    switch (e->op) {
    case CPM_OP_BCAST:
        return ((int (*)(CPM_COLL_ARGS_BCAST))fn)((void *)a->sendbuf, a->count, a->type, a->root,
                                                  a->comm);
    case CPM_OP_REDUCE:
        return ((int (*)(CPM_COLL_ARGS_REDUCE))fn)(a->sendbuf, a->recvbuf, a->count, a->type,
                                                   a->op, a->root, a->comm);
    case CPM_OP_SCATTER:
    case CPM_OP_GATHER:
        return ((int (*)(CPM_COLL_ARGS_SG))fn)(a->sendbuf, a->count, a->type, a->recvbuf,
                                               a->count, a->type, a->root, a->comm);
    case CPM_OP_SCATTERV:
        return ((int (*)(CPM_COLL_ARGS_SCATTERV))fn)(a->sendbuf, a->counts, a->displs, a->type,
                                                     a->recvbuf, a->count, a->type, a->root,
                                                     a->comm);
    case CPM_OP_GATHERV:
        return ((int (*)(CPM_COLL_ARGS_GATHERV))fn)(a->sendbuf, a->count, a->type, a->recvbuf,
                                                    a->counts, a->displs, a->type, a->root,
                                                    a->comm);
    }
    return MPI_ERR_ARG;
}
