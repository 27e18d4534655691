/* cpm_hier_measure: the links of a hierarchical model, measured; see
 * cpm_hier_measure.h. */
#include "cpm_hier_measure.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpm_hosts.h"
#include "err.h"

enum { TAG_LINK = 7400 };

void cpm_hier_ranks(const struct cpm_hier *h, const char *names, int nranks, int *rank_of)
{
    for (size_t i = 0; i < h->nleaves; i++) {
        rank_of[i] = -1;
        for (int r = 0; r < nranks && rank_of[i] < 0; r++)
            if (strcmp(names + (size_t)r * CPM_HOST_NAME_LEN, h->nodes[h->leaves[i]].model_data) ==
                0)
                rank_of[i] = r;
    }
}

size_t cpm_hier_round(const struct cpm_hier_plan *p, const int *rank_of, bool parallel, bool *done,
                      bool *busy, int nranks, size_t *round)
{
    memset(busy, 0, (size_t)nranks * sizeof *busy);
    size_t n = 0;
    for (size_t k = 0; k < p->nlinks && (parallel || n == 0); k++) {
        int a = rank_of[p->links[k].a], b = rank_of[p->links[k].b];
        if (done[k] || busy[a] || busy[b])
            continue;
        done[k] = busy[a] = busy[b] = true;
        round[n++] = k;
    }
    return n;
}

/* What the first rank of a link sends rank 0: a status, the model as the
 * text of its file (or the estimate's message) and the kind's notes. */
struct payload {
    uint64_t status, model_len, notes_len; /* status 0: measured */
    char *model, *notes;
};

static void note_line(const char *text, void *ctx) { fprintf(ctx, "%s\n", text); }

/* Measures one link on its two ranks; the first fills out. */
static void measure_link(const struct cpm_model_kind *kind, const struct cpm_estimate_args *a,
                         MPI_Comm sub, struct payload *out)
{
    struct cpm_estimate_args la = *a;
    la.comm = sub;
    la.parallel = false;
    void *model = NULL;
    char err[400] = "";
    int failed = kind->estimate(&la, &model, err, sizeof err) != 0, rank;
    MPI_CHECK(MPI_Comm_rank(sub, &rank));
    if (rank != 0)
        return;
    size_t mlen = 0, nlen = 0;
    FILE *m = open_memstream(&out->model, &mlen), *n = open_memstream(&out->notes, &nlen);
    if (!m || !n)
        err_fatal("out of memory for a link's model");
    if (failed) {
        fputs(err, n);
    } else {
        failed = cpm_model_write_stream(m, kind, model) != 0;
        if (kind->report)
            kind->report(model, &la, note_line, n);
        kind->destroy(model);
    }
    if (fclose(m) != 0 || fclose(n) != 0)
        err_fatal("out of memory for a link's model");
    *out = (struct payload){failed != 0, mlen, nlen, out->model, out->notes};
}

static void send_payload(const struct payload *pl, MPI_Comm comm)
{
    uint64_t head[3] = {pl->status, pl->model_len, pl->notes_len};
    MPI_CHECK(MPI_Send(head, 3, MPI_UINT64_T, 0, TAG_LINK, comm));
    MPI_CHECK(MPI_Send(pl->model, (int)pl->model_len, MPI_CHAR, 0, TAG_LINK, comm));
    MPI_CHECK(MPI_Send(pl->notes, (int)pl->notes_len, MPI_CHAR, 0, TAG_LINK, comm));
}

static void recv_payload(struct payload *pl, int from, MPI_Comm comm)
{
    uint64_t head[3];
    MPI_CHECK(MPI_Recv(head, 3, MPI_UINT64_T, from, TAG_LINK, comm, MPI_STATUS_IGNORE));
    pl->status = head[0];
    pl->model_len = head[1];
    pl->notes_len = head[2];
    pl->model = malloc(pl->model_len + 1);
    pl->notes = malloc(pl->notes_len + 1);
    if (!pl->model || !pl->notes || pl->model_len > INT32_MAX || pl->notes_len > INT32_MAX)
        err_fatal("out of memory for a link's model of %llu bytes",
                  (unsigned long long)pl->model_len);
    MPI_CHECK(
        MPI_Recv(pl->model, (int)pl->model_len, MPI_CHAR, from, TAG_LINK, comm, MPI_STATUS_IGNORE));
    MPI_CHECK(
        MPI_Recv(pl->notes, (int)pl->notes_len, MPI_CHAR, from, TAG_LINK, comm, MPI_STATUS_IGNORE));
    pl->notes[pl->notes_len] = '\0';
}

/* On rank 0: the link model from its payload, the notes passed on; 0, or
 * -1 with a message. */
static int take_payload(const struct cpm_model_kind *kind, struct payload *pl, size_t k,
                        void **link, void (*note)(size_t, const char *, void *), void *ctx,
                        char *err, size_t errlen)
{
    if (pl->status != 0) {
        snprintf(err, errlen, "link %zu: %s", k, pl->notes);
        return -1;
    }
    char inner[300];
    FILE *f = fmemopen(pl->model, pl->model_len, "r");
    if (!f || cpm_model_read_stream_n(f, kind, 2, link, inner, sizeof inner) != 0) {
        snprintf(err, errlen, "link %zu: its model did not read back: %s", k,
                 f ? inner : "out of memory");
        if (f)
            fclose(f);
        return -1;
    }
    fclose(f);
    for (char *line = strtok(pl->notes, "\n"); line; line = strtok(NULL, "\n"))
        note(k, line, ctx);
    return 0;
}

int cpm_hier_measure(const struct cpm_model_kind *kind, const struct cpm_estimate_args *a,
                     const struct cpm_hier_plan *p, const int *rank_of, void **links,
                     void (*note)(size_t link, const char *text, void *ctx), void *ctx, char *err,
                     size_t errlen)
{
    int rank, nranks;
    MPI_CHECK(MPI_Comm_rank(a->comm, &rank));
    MPI_CHECK(MPI_Comm_size(a->comm, &nranks));
    bool *done = calloc(p->nlinks + 1, sizeof *done), *busy = calloc((size_t)nranks, sizeof *busy);
    size_t *round = malloc((p->nlinks + 1) * sizeof *round), n;
    if (!done || !busy || !round)
        err_fatal("out of memory for the rounds of %zu links", p->nlinks);
    int failed = 0;
    for (size_t k = 0; k < p->nlinks; k++)
        links[k] = NULL;
    while ((n = cpm_hier_round(p, rank_of, a->parallel, done, busy, nranks, round)) > 0) {
        int color = MPI_UNDEFINED, key = 0;
        for (size_t r = 0; r < n; r++) {
            const struct cpm_hier_link *l = &p->links[round[r]];
            if (rank == rank_of[l->a] || rank == rank_of[l->b]) {
                color = (int)r;
                key = rank == rank_of[l->b];
            }
        }
        MPI_Comm sub;
        MPI_CHECK(MPI_Comm_split(a->comm, color, key, &sub));
        struct payload mine = {0, 0, 0, NULL, NULL};
        if (sub != MPI_COMM_NULL) {
            measure_link(kind, a, sub, &mine);
            MPI_CHECK(MPI_Comm_free(&sub));
            if (mine.model && rank != 0)
                send_payload(&mine, a->comm);
        }
        for (size_t r = 0; r < n && rank == 0; r++) {
            size_t k = round[r];
            struct payload got = mine;
            if (rank_of[p->links[k].a] != 0)
                recv_payload(&got, rank_of[p->links[k].a], a->comm);
            if (!failed && take_payload(kind, &got, k, &links[k], note, ctx, err, errlen) != 0)
                failed = 1;
            if (rank_of[p->links[k].a] != 0) {
                free(got.model);
                free(got.notes);
            }
        }
        free(mine.model);
        free(mine.notes);
    }
    free(done);
    free(busy);
    free(round);
    MPI_CHECK(MPI_Bcast(&failed, 1, MPI_INT, 0, a->comm));
    if (failed && rank == 0)
        for (size_t k = 0; k < p->nlinks; k++)
            if (links[k]) {
                kind->destroy(links[k]);
                links[k] = NULL;
            }
    return failed ? -1 : 0;
}
