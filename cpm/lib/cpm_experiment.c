/* cpm_experiment: the warm-up and the repetitions of a two-sided
 * experiment; see cpm_measure.h. */
#include "cpm_measure.h"

#include "err.h"

bool cpm_warmup_more(size_t done, double elapsed)
{
    if (done < CPM_WARMUP_MIN_REPS)
        return true;
    return done < CPM_WARMUP_MAX_REPS && elapsed < CPM_WARMUP_SECONDS;
}

static void send_flags(const struct cpm_experiment *e, MPI_Comm comm, int flag, int tag)
{
    for (int k = 0; k < e->npartners; k++)
        MPI_CHECK(MPI_Send(&flag, 1, MPI_INT, e->partners[k], tag, comm));
}

static bool recv_flag(const struct cpm_experiment *e, MPI_Comm comm, int tag)
{
    int flag = 0;
    MPI_CHECK(MPI_Recv(&flag, 1, MPI_INT, e->measurer, tag, comm, MPI_STATUS_IGNORE));
    return flag != 0;
}

static void answer_until_told(MPI_Comm comm, const struct cpm_experiment *e)
{
    do
        e->answer(comm, e->ctx);
    while (recv_flag(e, comm, CPM_TAG_WARM));
    do
        e->answer(comm, e->ctx);
    while (!recv_flag(e, comm, CPM_TAG_FLAG));
}

void cpm_experiment_run(MPI_Comm comm, const struct cpm_experiment *e,
                        const struct cpm_precision *p, struct cpm_result *results)
{
    if (e->nq < 1 || e->nq > CPM_EXPERIMENT_MAX_Q)
        err_fatal("an experiment of %zu samples per repetition", e->nq);
    int rank;
    MPI_Comm_rank(comm, &rank);
    if (rank != e->measurer) {
        answer_until_told(comm, e);
        return;
    }
    double x[CPM_EXPERIMENT_MAX_Q], start = MPI_Wtime();
    size_t warm = 0;
    bool more;
    do {
        e->repeat(comm, e->ctx, x);
        more = cpm_warmup_more(++warm, MPI_Wtime() - start);
        send_flags(e, comm, more, CPM_TAG_WARM);
    } while (more);
    struct cpm_sampler s[CPM_EXPERIMENT_MAX_Q];
    for (size_t q = 0; q < e->nq; q++)
        cpm_sampler_init(&s[q], p);
    bool done;
    do {
        e->repeat(comm, e->ctx, x);
        /* Every kind gets its sample, whether or not another kind is done. */
        done = true;
        for (size_t q = 0; q < e->nq; q++)
            done = cpm_sampler_add(&s[q], x[q]) && done;
        send_flags(e, comm, done, CPM_TAG_FLAG);
    } while (!done);
    for (size_t q = 0; q < e->nq; q++) {
        cpm_sampler_result(&s[q], e->size, &results[q]);
        cpm_sampler_free(&s[q]);
    }
}
