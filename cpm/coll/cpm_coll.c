/* cpm_coll: generic model-based collectives; see cpm_coll.h. */
#include "cpm_coll.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"

int cpm_coll_sgv_mode = CPM_SGV_PROPAGATE;

#define TRY(call)                                                                                \
    do {                                                                                         \
        int rc_ = (call);                                                                        \
        if (rc_ != MPI_SUCCESS) {                                                                \
            rc = rc_;                                                                            \
            goto out;                                                                            \
        }                                                                                        \
    } while (0)

enum cpm_tree_dir cpm_coll_op_dir(enum cpm_coll_op_kind op)
{
    return op == CPM_OP_BCAST || op == CPM_OP_SCATTER || op == CPM_OP_SCATTERV ? CPM_TREE_DOWN
                                                                              : CPM_TREE_UP;
}

int cpm_coll_tree(const struct cpm_predictor *p, const struct cpm_coll_alg *alg,
                  enum cpm_coll_op_kind op, int n, int root, size_t m, const size_t *bytes,
                  struct cpm_tree *t)
{
    enum cpm_tree_dir dir = cpm_coll_op_dir(op);
    switch (alg->kind) {
    case CPM_ALG_BINOMIAL:
        return cpm_tree_binomial(p, n, root, dir, alg->search, alg->next, m, bytes, t);
    case CPM_ALG_SORTED_FLAT:
        return cpm_tree_sorted_flat(p, n, root, dir, alg->order, m, bytes, t);
    case CPM_ALG_TRAFF:
        return cpm_tree_traff(p, n, root, dir, m, bytes, t);
    }
    return MPI_ERR_ARG;
}

/* Scatter/Gather without v: every process has m bytes. */
static size_t *equal_bytes(int n, size_t m)
{
    size_t *b = malloc((size_t)n * sizeof *b);
    if (b)
        for (int r = 0; r < n; r++)
            b[r] = m;
    return b;
}

double cpm_coll_predict(const struct cpm_predictor *p, const struct cpm_coll_alg *alg,
                        enum cpm_coll_op_kind op, int n, int root, size_t m, const size_t *bytes)
{
    size_t *own = NULL;
    if (!bytes && (op == CPM_OP_SCATTER || op == CPM_OP_GATHER ||
                   op == CPM_OP_SCATTERV || op == CPM_OP_GATHERV)) {
        own = equal_bytes(n, m);
        if (!own)
            return -1.0;
        bytes = own;
    }
    struct cpm_tree t;
    double time = -1.0;
    if (cpm_coll_tree(p, alg, op, n, root, m, bytes, &t) == MPI_SUCCESS) {
        time = cpm_tree_predict(&t, p, cpm_coll_op_dir(op), m);
        cpm_tree_free(&t);
    }
    free(own);
    return time;
}

/* ---- transfers ---- */

static int send_bytes(const void *buf, size_t n, int dest, MPI_Comm comm)
{
    struct msg_type t;
    if (msg_type_make(n, MPI_BYTE, &t) != 0)
        return MPI_ERR_TYPE;
    int rc = MPI_Send(buf, t.count, t.type, dest, CPM_COLL_TAG, comm);
    msg_type_free(&t);
    return rc;
}

static int recv_bytes(void *buf, size_t n, int src, MPI_Comm comm)
{
    struct msg_type t;
    if (msg_type_make(n, MPI_BYTE, &t) != 0)
        return MPI_ERR_TYPE;
    int rc = MPI_Recv(buf, t.count, t.type, src, CPM_COLL_TAG, comm, MPI_STATUS_IGNORE);
    msg_type_free(&t);
    return rc;
}

/* Local copy between any two descriptions of the same data. */
static int self_copy(const void *src, int sc, MPI_Datatype st, void *dst, int rc_,
                     MPI_Datatype rt)
{
    return MPI_Sendrecv(src, sc, st, 0, 0, dst, rc_, rt, 0, 0, MPI_COMM_SELF, MPI_STATUS_IGNORE);
}

/* Typed data to or from n contiguous bytes. */
static int pack(const void *src, int count, MPI_Datatype type, void *dst, size_t n)
{
    struct msg_type t;
    if (msg_type_make(n, MPI_BYTE, &t) != 0)
        return MPI_ERR_TYPE;
    int rc = self_copy(src, count, type, dst, t.count, t.type);
    msg_type_free(&t);
    return rc;
}
static int unpack(const void *src, size_t n, void *dst, int count, MPI_Datatype type)
{
    struct msg_type t;
    if (msg_type_make(n, MPI_BYTE, &t) != 0)
        return MPI_ERR_TYPE;
    int rc = self_copy(src, t.count, t.type, dst, count, type);
    msg_type_free(&t);
    return rc;
}

static size_t type_size(MPI_Datatype type)
{
    MPI_Count size = 0;
    MPI_Type_size_x(type, &size);
    return (size_t)size;
}

static MPI_Aint type_extent(MPI_Datatype type)
{
    MPI_Aint lb, extent;
    MPI_Type_get_extent(type, &lb, &extent);
    return extent;
}

/* Index of the parent of the node at k (k > 0): the closest earlier node
 * whose subtree holds k's. */
static int parent_index(const struct cpm_tree *t, int k)
{
    int j = k - 1;
    while (j > 0 && j + t->size[j] < k + t->size[k])
        j--;
    return j;
}

static int check_args(const struct cpm_predictor *p, int root, MPI_Comm comm, int *rank, int *n)
{
    int rc = MPI_Comm_rank(comm, rank);
    if (rc == MPI_SUCCESS)
        rc = MPI_Comm_size(comm, n);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!p || (p->n != 0 && p->n < *n) || (!p->p2p && !p->predict_p2p))
        return MPI_ERR_ARG; /* n 0: a program's own predictor states no count */
    if (root < 0 || root >= *n)
        return MPI_ERR_ROOT;
    return MPI_SUCCESS;
}

/* My place in a tree every process built: index and parent's rank. */
static int locate(const struct cpm_tree *t, int rank, int *k, int *parent)
{
    *k = cpm_tree_find(t, rank);
    if (*k < 0)
        return MPI_ERR_INTERN;
    *parent = *k ? t->order[parent_index(t, *k)] : -1;
    return MPI_SUCCESS;
}

/* ---- Bcast and Reduce ---- */

int cpm_coll_bcast(const struct cpm_predictor *p, const struct cpm_coll_alg *alg, void *buffer,
                   int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    int rank, n, k, parent;
    int rc = check_args(p, root, comm, &rank, &n);
    if (rc != MPI_SUCCESS)
        return rc;
    if (count < 0)
        return MPI_ERR_COUNT;
    if (buffer == MPI_IN_PLACE)
        return MPI_ERR_BUFFER;
    struct cpm_tree t = {0};
    size_t m = (size_t)count * type_size(datatype);
    TRY(cpm_coll_tree(p, alg, CPM_OP_BCAST, n, root, m, NULL, &t));
    TRY(locate(&t, rank, &k, &parent));
    if (parent >= 0)
        TRY(MPI_Recv(buffer, count, datatype, parent, CPM_COLL_TAG, comm, MPI_STATUS_IGNORE));
    for (int j = k + 1; j < k + t.size[k]; j += t.size[j])
        TRY(MPI_Send(buffer, count, datatype, t.order[j], CPM_COLL_TAG, comm));
out:
    cpm_tree_free(&t);
    return rc;
}

/* Room for count elements of a type, and where element 0 starts in it. */
static void *alloc_typed(int count, MPI_Datatype type, void **base)
{
    MPI_Aint lb, extent, true_lb, true_extent;
    MPI_Type_get_extent(type, &lb, &extent);
    MPI_Type_get_true_extent(type, &true_lb, &true_extent);
    size_t bytes = count > 0 ? (size_t)(count - 1) * (size_t)extent + (size_t)true_extent : 1;
    char *raw = malloc(bytes ? bytes : 1);
    *base = raw;
    return raw ? raw - true_lb : NULL;
}

int cpm_coll_reduce(const struct cpm_predictor *p, const struct cpm_coll_alg *alg,
                    const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                    MPI_Op op, int root, MPI_Comm comm)
{
    int rank, n, k, parent, commute = 0;
    int rc = check_args(p, root, comm, &rank, &n);
    if (rc != MPI_SUCCESS)
        return rc;
    if (count < 0)
        return MPI_ERR_COUNT;
    if (MPI_Op_commutative(op, &commute) != MPI_SUCCESS || !commute)
        return MPI_ERR_OP;
    /* MPI_IN_PLACE at the root: its contribution is in recvbuf, where the
     * result goes; anywhere else it is erroneous, as in MPI. */
    if (recvbuf == MPI_IN_PLACE || (sendbuf == MPI_IN_PLACE && rank != root))
        return MPI_ERR_BUFFER;
    const void *mine = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    struct cpm_tree t = {0};
    void *acc_raw = NULL, *in_raw = NULL;
    size_t m = (size_t)count * type_size(datatype);
    TRY(cpm_coll_tree(p, alg, CPM_OP_REDUCE, n, root, m, NULL, &t));
    TRY(locate(&t, rank, &k, &parent));
    void *acc = alloc_typed(count, datatype, &acc_raw), *in = alloc_typed(count, datatype, &in_raw);
    if (!acc || !in)
        TRY(MPI_ERR_NO_MEM);
    /* Whether the library can apply op to this datatype, tried on one local
     * element before any message: every process finds the same answer, so
     * a refusal cannot leave a partner waiting. */
    if (count > 0) {
        TRY(self_copy(mine, 1, datatype, acc, 1, datatype));
        TRY(self_copy(mine, 1, datatype, in, 1, datatype));
        TRY(MPI_Reduce_local(in, acc, 1, datatype, op));
    }
    TRY(self_copy(mine, count, datatype, acc, count, datatype));
    for (int j = k + 1; j < k + t.size[k]; j += t.size[j]) {
        TRY(MPI_Recv(in, count, datatype, t.order[j], CPM_COLL_TAG, comm, MPI_STATUS_IGNORE));
        TRY(MPI_Reduce_local(in, acc, count, datatype, op));
    }
    if (parent >= 0)
        TRY(MPI_Send(acc, count, datatype, parent, CPM_COLL_TAG, comm));
    else
        TRY(self_copy(acc, count, datatype, recvbuf, count, datatype));
out:
    free(acc_raw);
    free(in_raw);
    cpm_tree_free(&t);
    return rc;
}

/* ---- Scatter(v) and Gather(v) ---- */

/* The data of the root's side: block of rank r at displs[r] (or r * count)
 * elements, counts[r] (or count) elements. */
struct root_side {
    const char *buf;
    const int *counts, *displs;
    int count;
    MPI_Datatype type;
};
static const char *root_block(const struct root_side *s, int r, int *count)
{
    *count = s->counts ? s->counts[r] : s->count;
    MPI_Aint disp = s->displs ? s->displs[r] : (MPI_Aint)r * s->count;
    return s->buf + disp * type_extent(s->type);
}

/* Offsets of the blocks of the subtree at k, relative to its start. */
static size_t *offsets(const struct cpm_tree *t, int k)
{
    size_t *off = malloc((size_t)t->size[k] * sizeof *off);
    if (off) {
        size_t at = 0;
        for (int j = 0; j < t->size[k]; j++) {
            off[j] = at;
            at += t->bytes[k + j];
        }
    }
    return off;
}

/* Down the tree: the node at k (parent rank or -1 at the root) gets its
 * subtree's blocks, keeps its own, passes the children's on. */
static int scatter_run(const struct cpm_tree *t, int k, int parent, const struct root_side *s,
                       void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    int rc = MPI_SUCCESS;
    char *tmp = NULL;
    size_t *off = NULL;
    if (parent >= 0 && t->size[k] == 1)
        return MPI_Recv(recvbuf, recvcount, recvtype, parent, CPM_COLL_TAG, comm,
                        MPI_STATUS_IGNORE);
    size_t total = cpm_tree_edge_bytes(t, k, 0);
    off = offsets(t, k);
    tmp = malloc(total ? total : 1);
    if (!off || !tmp)
        TRY(MPI_ERR_NO_MEM);
    if (parent < 0) {
        for (int j = 1; j < t->size[k]; j++) {
            int c;
            const char *b = root_block(s, t->order[k + j], &c);
            TRY(pack(b, c, s->type, tmp + off[j], t->bytes[k + j]));
        }
        int c;
        const char *b = root_block(s, t->order[k], &c);
        if (recvbuf != MPI_IN_PLACE) /* in place: the root's block stays where it is */
            TRY(self_copy(b, c, s->type, recvbuf, recvcount, recvtype));
    } else {
        TRY(recv_bytes(tmp, total, parent, comm));
        TRY(unpack(tmp, t->bytes[k], recvbuf, recvcount, recvtype));
    }
    for (int j = k + 1; j < k + t->size[k]; j += t->size[j])
        TRY(send_bytes(tmp + off[j - k], cpm_tree_edge_bytes(t, j, 0), t->order[j], comm));
out:
    free(tmp);
    free(off);
    return rc;
}

/* Up the tree: the node at k collects its subtree's blocks, its own first. */
static int gather_run(const struct cpm_tree *t, int k, int parent, const void *sendbuf,
                      int sendcount, MPI_Datatype sendtype, const struct root_side *s,
                      MPI_Comm comm)
{
    int rc = MPI_SUCCESS;
    char *tmp = NULL;
    size_t *off = NULL;
    if (parent >= 0 && t->size[k] == 1)
        return MPI_Send(sendbuf, sendcount, sendtype, parent, CPM_COLL_TAG, comm);
    size_t total = cpm_tree_edge_bytes(t, k, 0);
    off = offsets(t, k);
    tmp = malloc(total ? total : 1);
    if (!off || !tmp)
        TRY(MPI_ERR_NO_MEM);
    if (parent >= 0)
        TRY(pack(sendbuf, sendcount, sendtype, tmp, t->bytes[k]));
    for (int j = k + 1; j < k + t->size[k]; j += t->size[j])
        TRY(recv_bytes(tmp + off[j - k], cpm_tree_edge_bytes(t, j, 0), t->order[j], comm));
    if (parent >= 0) {
        TRY(send_bytes(tmp, total, parent, comm));
    } else {
        int c;
        char *b = (char *)root_block(s, t->order[k], &c);
        if (sendbuf != MPI_IN_PLACE) /* in place: the root's block is there already */
            TRY(self_copy(sendbuf, sendcount, sendtype, b, c, s->type));
        for (int j = 1; j < t->size[k]; j++) {
            b = (char *)root_block(s, t->order[k + j], &c);
            TRY(unpack(tmp + off[j], t->bytes[k + j], b, c, s->type));
        }
    }
out:
    free(tmp);
    free(off);
    return rc;
}

/* Propagation: a process learns its parent from the header it gets, so a
 * header must not be taken for one of the next operation's (a quick
 * neighbour may be there already): each v-operation on a communicator
 * gets its own header tag from a counter kept as an attribute of it. */
static int seq_keyval = MPI_KEYVAL_INVALID;
static int free_seq(MPI_Comm comm, int keyval, void *attr, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)extra;
    free(attr);
    return MPI_SUCCESS;
}
static int header_tag(MPI_Comm comm, int *tag)
{
    int rc = MPI_SUCCESS, flag = 0;
    unsigned *seq = NULL;
    if (seq_keyval == MPI_KEYVAL_INVALID)
        rc = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_seq, &seq_keyval, NULL);
    if (rc == MPI_SUCCESS)
        rc = MPI_Comm_get_attr(comm, seq_keyval, &seq, &flag);
    if (rc == MPI_SUCCESS && !flag) {
        seq = calloc(1, sizeof *seq);
        rc = seq ? MPI_Comm_set_attr(comm, seq_keyval, seq) : MPI_ERR_NO_MEM;
    }
    if (rc == MPI_SUCCESS)
        *tag = CPM_COLL_TAG + 2 + (int)((*seq)++ & 0x3FFFu);
    return rc;
}

/* Propagation: the description of each child's subtree, ahead of the data. */
static int send_headers(const struct cpm_tree *t, int tag, MPI_Comm comm)
{
    int rc = MPI_SUCCESS;
    uint64_t *h = malloc(3 * (size_t)t->n * sizeof *h);
    if (!h)
        return MPI_ERR_NO_MEM;
    for (int j = 1; j < t->size[0]; j += t->size[j]) {
        for (int i = 0; i < t->size[j]; i++) {
            h[3 * i] = (uint64_t)t->order[j + i];
            h[3 * i + 1] = (uint64_t)t->size[j + i];
            h[3 * i + 2] = (uint64_t)t->bytes[j + i];
        }
        TRY(MPI_Send(h, 3 * t->size[j], MPI_UINT64_T, t->order[j], tag, comm));
    }
out:
    free(h);
    return rc;
}

static int recv_header(MPI_Comm comm, int tag, struct cpm_tree *t, int *parent)
{
    MPI_Status st;
    int rc = MPI_SUCCESS, count = 0;
    uint64_t *h = NULL;
    int *order = NULL, *size = NULL;
    size_t *bytes = NULL;
    TRY(MPI_Probe(MPI_ANY_SOURCE, tag, comm, &st));
    TRY(MPI_Get_count(&st, MPI_UINT64_T, &count));
    *parent = st.MPI_SOURCE;
    int n = count / 3;
    h = malloc((size_t)(count ? count : 1) * sizeof *h);
    order = malloc((size_t)(n ? n : 1) * sizeof *order);
    size = malloc((size_t)(n ? n : 1) * sizeof *size);
    bytes = malloc((size_t)(n ? n : 1) * sizeof *bytes);
    if (!h || !order || !size || !bytes)
        TRY(MPI_ERR_NO_MEM);
    TRY(MPI_Recv(h, count, MPI_UINT64_T, *parent, tag, comm, MPI_STATUS_IGNORE));
    for (int i = 0; i < n; i++) {
        order[i] = (int)h[3 * i];
        size[i] = (int)h[3 * i + 1];
        bytes[i] = (size_t)h[3 * i + 2];
    }
    TRY(cpm_tree_from(n, order, size, bytes, t));
out:
    free(h);
    free(order);
    free(size);
    free(bytes);
    return rc;
}

/* The tree of a v-operation and my place in it, as cpm_coll_sgv_mode says.
 * counts/type are the root's (or everybody's when ALLOVER). */
static int sgv_tree(const struct cpm_predictor *p, const struct cpm_coll_alg *alg,
                    enum cpm_coll_op_kind op, const int *counts, MPI_Datatype type, int rank,
                    int n, int root, MPI_Comm comm, struct cpm_tree *t, int *k, int *parent)
{
    int rc = MPI_SUCCESS;
    size_t *bytes = NULL;
    uint64_t *wire = NULL;
    int mode = cpm_coll_sgv_mode, tag = 0;
    TRY(header_tag(comm, &tag));
    if (mode == CPM_SGV_PROPAGATE && rank != root) {
        *k = 0;
        TRY(recv_header(comm, tag, t, parent));
        TRY(send_headers(t, tag, comm));
        goto out;
    }
    bytes = malloc((size_t)n * sizeof *bytes);
    wire = malloc((size_t)n * sizeof *wire);
    if (!bytes || !wire)
        TRY(MPI_ERR_NO_MEM);
    if (rank == root || mode == CPM_SGV_ALLOVER) {
        size_t size = type_size(type);
        for (int r = 0; r < n; r++) {
            if (counts[r] < 0)
                TRY(MPI_ERR_COUNT);
            wire[r] = (uint64_t)counts[r] * size;
        }
    }
    if (mode == CPM_SGV_BCAST)
        TRY(MPI_Bcast(wire, n, MPI_UINT64_T, root, comm));
    for (int r = 0; r < n; r++)
        bytes[r] = (size_t)wire[r];
    TRY(cpm_coll_tree(p, alg, op, n, root, 0, bytes, t));
    TRY(locate(t, rank, k, parent));
    if (mode == CPM_SGV_PROPAGATE)
        TRY(send_headers(t, tag, comm));
out:
    free(bytes);
    free(wire);
    return rc;
}

/* The tree of Scatter/Gather: m bytes for everyone, built on every process. */
static int sg_tree(const struct cpm_predictor *p, const struct cpm_coll_alg *alg,
                   enum cpm_coll_op_kind op, size_t m, int rank, int n, int root,
                   struct cpm_tree *t, int *k, int *parent)
{
    size_t *bytes = equal_bytes(n, m);
    if (!bytes)
        return MPI_ERR_NO_MEM;
    int rc = cpm_coll_tree(p, alg, op, n, root, m, bytes, t);
    free(bytes);
    if (rc == MPI_SUCCESS)
        rc = locate(t, rank, k, parent);
    return rc;
}

int cpm_coll_scatter(const struct cpm_predictor *p, const struct cpm_coll_alg *alg,
                     const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    int rank, n, k, parent;
    int rc = check_args(p, root, comm, &rank, &n);
    if (rc != MPI_SUCCESS)
        return rc;
    /* MPI_IN_PLACE: at the root only, as recvbuf (recvcount and recvtype
     * are then ignored, the root's block of sendbuf is its own). */
    bool in_place = recvbuf == MPI_IN_PLACE;
    if ((in_place && rank != root) || (rank == root && sendbuf == MPI_IN_PLACE))
        return MPI_ERR_BUFFER;
    if ((!in_place && recvcount < 0) || (rank == root && sendcount < 0))
        return MPI_ERR_COUNT;
    struct cpm_tree t = {0};
    size_t m = in_place ? (size_t)sendcount * type_size(sendtype)
                        : (size_t)recvcount * type_size(recvtype);
    struct root_side s = {sendbuf, NULL, NULL, sendcount, sendtype};
    TRY(sg_tree(p, alg, CPM_OP_SCATTER, m, rank, n, root, &t, &k, &parent));
    TRY(scatter_run(&t, k, parent, &s, recvbuf, recvcount, recvtype, comm));
out:
    cpm_tree_free(&t);
    return rc;
}

int cpm_coll_gather(const struct cpm_predictor *p, const struct cpm_coll_alg *alg,
                    const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    int rank, n, k, parent;
    int rc = check_args(p, root, comm, &rank, &n);
    if (rc != MPI_SUCCESS)
        return rc;
    /* MPI_IN_PLACE: at the root only, as sendbuf (sendcount and sendtype
     * are then ignored, its block of recvbuf holds its data). */
    bool in_place = sendbuf == MPI_IN_PLACE;
    if ((in_place && rank != root) || (rank == root && recvbuf == MPI_IN_PLACE))
        return MPI_ERR_BUFFER;
    if ((!in_place && sendcount < 0) || (rank == root && recvcount < 0))
        return MPI_ERR_COUNT;
    struct cpm_tree t = {0};
    size_t m = in_place ? (size_t)recvcount * type_size(recvtype)
                        : (size_t)sendcount * type_size(sendtype);
    struct root_side s = {recvbuf, NULL, NULL, recvcount, recvtype};
    TRY(sg_tree(p, alg, CPM_OP_GATHER, m, rank, n, root, &t, &k, &parent));
    TRY(gather_run(&t, k, parent, sendbuf, sendcount, sendtype, &s, comm));
out:
    cpm_tree_free(&t);
    return rc;
}

int cpm_coll_scatterv(const struct cpm_predictor *p, const struct cpm_coll_alg *alg,
                      const void *sendbuf, const int *sendcounts, const int *displs,
                      MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                      int root, MPI_Comm comm)
{
    int rank, n, k, parent;
    int rc = check_args(p, root, comm, &rank, &n);
    if (rc != MPI_SUCCESS)
        return rc;
    bool in_place = recvbuf == MPI_IN_PLACE; /* as for cpm_coll_scatter */
    if ((in_place && rank != root) || (rank == root && sendbuf == MPI_IN_PLACE))
        return MPI_ERR_BUFFER;
    if (!in_place && recvcount < 0)
        return MPI_ERR_COUNT;
    struct cpm_tree t = {0};
    struct root_side s = {sendbuf, sendcounts, displs, 0, sendtype};
    TRY(sgv_tree(p, alg, CPM_OP_SCATTERV, sendcounts, sendtype, rank, n, root, comm, &t, &k,
                 &parent));
    TRY(scatter_run(&t, k, parent, &s, recvbuf, recvcount, recvtype, comm));
out:
    cpm_tree_free(&t);
    return rc;
}

int cpm_coll_gatherv(const struct cpm_predictor *p, const struct cpm_coll_alg *alg,
                     const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int *recvcounts, const int *displs, MPI_Datatype recvtype, int root,
                     MPI_Comm comm)
{
    int rank, n, k, parent;
    int rc = check_args(p, root, comm, &rank, &n);
    if (rc != MPI_SUCCESS)
        return rc;
    bool in_place = sendbuf == MPI_IN_PLACE; /* as for cpm_coll_gather */
    if ((in_place && rank != root) || (rank == root && recvbuf == MPI_IN_PLACE))
        return MPI_ERR_BUFFER;
    if (!in_place && sendcount < 0)
        return MPI_ERR_COUNT;
    struct cpm_tree t = {0};
    struct root_side s = {recvbuf, recvcounts, displs, 0, recvtype};
    TRY(sgv_tree(p, alg, CPM_OP_GATHERV, recvcounts, recvtype, rank, n, root, comm, &t, &k,
                 &parent));
    TRY(gather_run(&t, k, parent, sendbuf, sendcount, sendtype, &s, comm));
out:
    cpm_tree_free(&t);
    return rc;
}
