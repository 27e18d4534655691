/* cpm_p2p: round trips, all-pairs and one-to-two experiments; see cpm_measure.h. */
#include "cpm_measure.h"

#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "msg.h"

static void *alloc_bytes(size_t bytes)
{
    void *p = calloc(bytes ? bytes : 1, 1);
    if (!p)
        err_fatal("out of memory for a message of %zu bytes", bytes);
    return p;
}

void cpm_send_bytes(const void *buf, size_t bytes, int dest, int tag, MPI_Comm comm)
{
    struct msg_type m;
    if (msg_type_make(bytes, MPI_BYTE, &m) != 0)
        err_fatal("cannot describe a message of %zu bytes", bytes);
    MPI_CHECK(MPI_Send(buf, m.count, m.type, dest, tag, comm));
    msg_type_free(&m);
}

void cpm_recv_bytes(void *buf, size_t bytes, int src, int tag, MPI_Comm comm)
{
    struct msg_type m;
    if (msg_type_make(bytes, MPI_BYTE, &m) != 0)
        err_fatal("cannot describe a message of %zu bytes", bytes);
    MPI_CHECK(MPI_Recv(buf, m.count, m.type, src, tag, comm, MPI_STATUS_IGNORE));
    msg_type_free(&m);
}

/* A round trip with a partner: fwd bytes out, back bytes back. */
struct roundtrip {
    char *buf;
    int peer;
    size_t fwd, back;
};

static void roundtrip_repeat(MPI_Comm comm, void *ctx, double *samples)
{
    const struct roundtrip *r = ctx;
    double t0 = MPI_Wtime();
    cpm_send_bytes(r->buf, r->fwd, r->peer, CPM_TAG_DATA, comm);
    cpm_recv_bytes(r->buf, r->back, r->peer, CPM_TAG_BACK, comm);
    samples[0] = MPI_Wtime() - t0;
}

static void roundtrip_answer(MPI_Comm comm, void *ctx)
{
    const struct roundtrip *r = ctx;
    cpm_recv_bytes(r->buf, r->fwd, r->peer, CPM_TAG_DATA, comm);
    cpm_send_bytes(r->buf, r->back, r->peer, CPM_TAG_BACK, comm);
}

void cpm_roundtrip(MPI_Comm comm, int i, int j, size_t fwd, size_t back,
                   const struct cpm_precision *p, struct cpm_result *r)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    if (rank != i && rank != j)
        return;
    struct roundtrip rt = {alloc_bytes(fwd > back ? fwd : back), rank == i ? j : i, fwd, back};
    struct cpm_experiment e = {i, &j, 1, fwd, 1, roundtrip_repeat, roundtrip_answer, &rt};
    cpm_experiment_run(comm, &e, p, r);
    free(rt.buf);
}

void cpm_measure_pair_group(MPI_Comm comm, size_t size, const int *pairs, size_t npairs,
                            size_t nq, cpm_pair_fn pair_fn, void *ctx, struct cpm_result *results)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    size_t count = npairs * nq;
    double *local = calloc(count * CPM_RESULT_DOUBLES + 1, sizeof *local);
    double *sum = calloc(count * CPM_RESULT_DOUBLES + 1, sizeof *sum);
    struct cpm_result *mine = calloc(nq + 1, sizeof *mine);
    if (!local || !sum || !mine)
        err_fatal("out of memory for %zu results", count);
    for (size_t k = 0; k < npairs; k++) {
        int i = pairs[2 * k], j = pairs[2 * k + 1];
        if (rank != i && rank != j)
            continue;
        pair_fn(comm, i, j, size, ctx, mine);
        if (rank == i)
            for (size_t q = 0; q < nq; q++)
                cpm_result_pack(&mine[q], local + (k * nq + q) * CPM_RESULT_DOUBLES);
    }
    /* Every rank waits here for every experiment of the group, so the next
     * group never overlaps this one. */
    MPI_CHECK(MPI_Allreduce(local, sum, (int)(count * CPM_RESULT_DOUBLES), MPI_DOUBLE, MPI_SUM,
                            comm));
    if (rank == 0)
        for (size_t k = 0; k < count; k++)
            cpm_result_unpack(sum + k * CPM_RESULT_DOUBLES, &results[k]);
    free(local);
    free(sum);
    free(mine);
}

size_t cpm_pair_group(int n, bool parallel, int group, int *pairs)
{
    if (!parallel) {
        cpm_pair_at(n, (size_t)group, &pairs[0], &pairs[1]);
        return 1;
    }
    size_t count = 0;
    for (int rank = 0; rank < n; rank++) {
        int partner = cpm_schedule_partner(n, group, rank);
        if (partner > rank) {
            pairs[2 * count] = rank;
            pairs[2 * count + 1] = partner;
            count++;
        }
    }
    return count;
}

int cpm_pair_groups(int n, bool parallel)
{
    return parallel ? cpm_schedule_rounds(n) : (int)cpm_pairs(n);
}

void cpm_measure_pairs(MPI_Comm comm, size_t size, bool parallel, size_t nq,
                       cpm_pair_fn pair_fn, void *ctx, struct cpm_result *results)
{
    int rank, n;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &n);
    int *pairs = calloc((size_t)n + 1, sizeof *pairs);
    struct cpm_result *got = calloc(((size_t)n / 2 + 1) * nq, sizeof *got);
    if (!pairs || !got)
        err_fatal("out of memory for %d processes", n);
    for (int g = 0; g < cpm_pair_groups(n, parallel); g++) {
        size_t npairs = cpm_pair_group(n, parallel, g, pairs);
        cpm_measure_pair_group(comm, size, pairs, npairs, nq, pair_fn, ctx, got);
        for (size_t k = 0; rank == 0 && k < npairs; k++)
            for (size_t q = 0; q < nq; q++)
                results[cpm_pair_index(n, pairs[2 * k], pairs[2 * k + 1]) * nq + q] =
                    got[k * nq + q];
    }
    free(pairs);
    free(got);
}

struct roundtrip_ctx {
    const struct cpm_precision *precision;
};

static void symmetric_pair(MPI_Comm comm, int i, int j, size_t size, void *ctx,
                           struct cpm_result *r)
{
    const struct roundtrip_ctx *c = ctx;
    cpm_roundtrip(comm, i, j, size, size, c->precision, r);
}

size_t cpm_root_only(MPI_Comm comm, size_t n)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    return rank == 0 ? n : 0;
}

void cpm_measure_p2p(MPI_Comm comm, size_t size, bool parallel,
                     const struct cpm_precision *p, struct cpm_result *results)
{
    struct roundtrip_ctx c = {p};
    cpm_measure_pairs(comm, size, parallel, 1, symmetric_pair, &c, results);
}

/* One-to-two: root sends size bytes to each partner, both answer empty. */
struct one_to_two {
    char *buf;
    int root, partner[2];
    size_t size;
    struct msg_type m; /* root: size bytes */
};

static void one_to_two_repeat(MPI_Comm comm, void *ctx, double *samples)
{
    struct one_to_two *o = ctx;
    MPI_Request req[4];
    MPI_Status status[4]; /* not STATUSES_IGNORE: MPICH's prototype trips gcc */
    char ack[2];
    double t0 = MPI_Wtime();
    for (int k = 0; k < 2; k++)
        MPI_CHECK(MPI_Irecv(&ack[k], 0, MPI_BYTE, o->partner[k], CPM_TAG_BACK, comm, &req[k]));
    for (int k = 0; k < 2; k++)
        MPI_CHECK(MPI_Isend(o->buf + (size_t)k * o->size, o->m.count, o->m.type, o->partner[k],
                            CPM_TAG_DATA, comm, &req[2 + k]));
    MPI_CHECK(MPI_Waitall(4, req, status));
    samples[0] = MPI_Wtime() - t0;
}

static void one_to_two_answer(MPI_Comm comm, void *ctx)
{
    const struct one_to_two *o = ctx;
    cpm_recv_bytes(o->buf, o->size, o->root, CPM_TAG_DATA, comm);
    cpm_send_bytes(o->buf, 0, o->root, CPM_TAG_BACK, comm);
}

/* root sends size bytes to a and to b, both answer empty; timed on root. */
static void one_to_two(MPI_Comm comm, int root, int a, int b, size_t size,
                       const struct cpm_precision *p, struct cpm_result *r)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    if (rank != root && rank != a && rank != b)
        return;
    struct one_to_two o = {alloc_bytes(2 * size), root, {a, b}, size, {0}};
    if (rank == root && msg_type_make(size, MPI_BYTE, &o.m) != 0)
        err_fatal("cannot describe a message of %zu bytes", size);
    struct cpm_experiment e = {root, o.partner, 2, size, 1, one_to_two_repeat, one_to_two_answer,
                               &o};
    cpm_experiment_run(comm, &e, p, r);
    if (rank == root)
        msg_type_free(&o.m);
    free(o.buf);
}

/* Rank 0 files the packed results of the root at position r of triplet t. */
static void store_triplet_results(const double *packed, size_t per, size_t t, int r,
                                  struct cpm_result *results_p2pp,
                                  struct cpm_result *results_p2p[2])
{
    size_t at = 3 * t + (size_t)r;
    cpm_result_unpack(packed, &results_p2pp[at]);
    for (size_t q = 1; q < per; q++)
        cpm_result_unpack(packed + q * CPM_RESULT_DOUBLES, &results_p2p[q - 1][at]);
}

void cpm_measure_p2pp_p2p(MPI_Comm comm, size_t size, bool parallel,
                          const struct cpm_precision *p, struct cpm_result *results_p2pp,
                          struct cpm_result *results_p2p[2])
{
    int rank, n;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &n);
    if (cpm_triplets(n) == 0)
        return;
    /* Per root: the one-to-two, then the round trips to the first and
     * second other process of its triplet when asked for. */
    size_t per = results_p2p ? 3 : 1;
    /* Rank 0 decides each round and tells every rank its triplet (-1: none
     * this round, -2: all done); the others send it their results. Rank 0
     * takes a round's results before it hands out the next round, so rounds
     * never overlap. */
    struct cpm_triplet_rounds rounds;
    long long *assign = NULL;
    size_t *round = NULL;
    if (rank == 0) {
        assign = calloc((size_t)n, sizeof *assign);
        round = calloc((size_t)n / 3 + 1, sizeof *round);
        if (!assign || !round || cpm_triplet_rounds_init(&rounds, n, parallel) != 0)
            err_fatal("out of memory for the rounds of %d processes", n);
    }
    double packed[3 * CPM_RESULT_DOUBLES];
    for (;;) {
        size_t taken = 0;
        if (rank == 0) {
            taken = cpm_triplet_round(&rounds, round);
            for (int x = 0; x < n; x++)
                assign[x] = taken ? -1 : -2;
            for (size_t k = 0; k < taken; k++) {
                int v[3];
                cpm_triplet_at(n, round[k], &v[0], &v[1], &v[2]);
                for (int r = 0; r < 3; r++)
                    assign[v[r]] = (long long)round[k];
            }
        }
        long long mine = -1;
        MPI_CHECK(MPI_Scatter(assign, 1, MPI_LONG_LONG, &mine, 1, MPI_LONG_LONG, 0, comm));
        if (mine == -2)
            break;
        if (mine >= 0) {
            int v[3], me = 0;
            cpm_triplet_at(n, (size_t)mine, &v[0], &v[1], &v[2]);
            for (int r = 0; r < 3; r++) {
                struct cpm_result res[3];
                int x = v[(r + 1) % 3], y = v[(r + 2) % 3];
                one_to_two(comm, v[r], x, y, size, p, &res[0]);
                if (results_p2p) {
                    cpm_roundtrip(comm, v[r], x, size, size, p, &res[1]);
                    cpm_roundtrip(comm, v[r], y, size, size, p, &res[2]);
                }
                if (rank != v[r])
                    continue;
                me = r;
                for (size_t q = 0; q < per; q++)
                    cpm_result_pack(&res[q], packed + q * CPM_RESULT_DOUBLES);
            }
            if (rank != 0)
                MPI_CHECK(MPI_Send(packed, (int)(per * CPM_RESULT_DOUBLES), MPI_DOUBLE, 0,
                                   CPM_TAG_RESULT, comm));
            else
                store_triplet_results(packed, per, (size_t)mine, me, results_p2pp, results_p2p);
        }
        for (size_t k = 0; rank == 0 && k < taken; k++) {
            int v[3];
            cpm_triplet_at(n, round[k], &v[0], &v[1], &v[2]);
            for (int r = 0; r < 3; r++) {
                if (v[r] == 0)
                    continue;
                MPI_CHECK(MPI_Recv(packed, (int)(per * CPM_RESULT_DOUBLES), MPI_DOUBLE, v[r],
                                   CPM_TAG_RESULT, comm, MPI_STATUS_IGNORE));
                store_triplet_results(packed, per, round[k], r, results_p2pp, results_p2p);
            }
        }
    }
    if (rank == 0)
        cpm_triplet_rounds_free(&rounds);
    free(assign);
    free(round);
}

void cpm_measure_p2pp(MPI_Comm comm, size_t size, bool parallel,
                      const struct cpm_precision *p, struct cpm_result *results)
{
    cpm_measure_p2pp_p2p(comm, size, parallel, p, results, NULL);
}
