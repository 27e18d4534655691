/* osu_latency_mt: ping-pong between sending threads on rank 0 and receiving
 * threads on rank 1 (MPI_THREAD_MULTIPLE). Each sending thread does every
 * iteration; the receiving threads share the messages, each answering with a
 * message of the same size. Latency is rank 0's time for all of its threads'
 * round trips divided by twice the iterations. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "devmem.h"
#include "pt2pt.h"
#include "pt2pt_arith.h"

#define MT_MAX_THREADS 128

static size_t send_threads = 1, recv_threads = 2; /* -t [SEND:]RECV */

struct mt_worker {
    pthread_t id;
    size_t index;       /* thread number on its rank; a sender's tag */
    const char *failed; /* why it could not select the device, or NULL */
};

/* The worker threads wait on start, run count iterations, meet at done. */
static struct {
    struct pt2pt_ctx *c;
    size_t nworkers;
    struct mt_worker workers[MT_MAX_THREADS];
    pthread_barrier_t start, done;
    size_t count;
    bool quit;
} mt;

static int parse_threads(const char *arg, void *dest, char *err, size_t errlen)
{
    (void)dest;
    return pt2pt_parse_counts(arg, "threads", 1, MT_MAX_THREADS, 1, &send_threads,
                              &recv_threads, err, errlen);
}

/* The pattern iteration of sender thread t's message in iteration i. */
static size_t message_key(size_t iteration, size_t thread)
{
    return iteration * send_threads + thread;
}

static size_t slice(const struct pt2pt_ctx *c, size_t thread)
{
    return thread * c->opts->max_size;
}

static void send_round_trips(struct pt2pt_ctx *c, struct mt_worker *w)
{
    size_t at = slice(c, w->index);
    char *send = (char *)buf_mpi(&c->send) + at;
    char *recv = (char *)buf_mpi(&c->recv) + at;
    int tag = (int)w->index;
    for (size_t k = 0; k < mt.count; k++) {
        buf_stage_out(&c->send, at, c->size);
        MPI_CHECK(MPI_Send(send, c->type.count, c->type.type, 1, tag, harness.comm));
        MPI_CHECK(MPI_Recv(recv, c->type.count, c->type.type, 1, tag, harness.comm,
                           MPI_STATUS_IGNORE));
        buf_stage_in(&c->recv, at, c->size);
    }
}

static void answer_round_trips(struct pt2pt_ctx *c, struct mt_worker *w)
{
    size_t total = mt.count * send_threads;
    size_t share = total / recv_threads + (w->index < total % recv_threads);
    size_t at = slice(c, w->index);
    char *data = (char *)buf_mpi(&c->recv) + at;
    for (size_t k = 0; k < share; k++) {
        MPI_Status status;
        MPI_CHECK(MPI_Recv(data, c->type.count, c->type.type, 0, MPI_ANY_TAG, harness.comm,
                           &status));
        /* --staging: to the device and back, as a device-aware answer would. */
        buf_stage_in(&c->recv, at, c->size);
        buf_stage_out(&c->recv, at, c->size);
        /* The answer is the message itself: rank 0's check of what comes back
         * covers both ways, and nothing is checked inside its timed round trip. */
        MPI_CHECK(MPI_Send(data, c->type.count, c->type.type, 0, status.MPI_TAG, harness.comm));
    }
}

static void *worker_main(void *arg)
{
    struct mt_worker *w = arg;
    /* CUDA and HIP keep the current device per thread: without this, a
     * worker's --staging copies would run on device 0. mt_prepare waits
     * for every worker to get here. */
    const char *why = NULL;
    w->failed = devmem_select_thread(&why) ? why : NULL;
    pthread_barrier_wait(&mt.done);
    for (;;) {
        pthread_barrier_wait(&mt.start);
        if (mt.quit)
            return NULL;
        if (mt.c->rank == 0)
            send_round_trips(mt.c, w);
        else
            answer_round_trips(mt.c, w);
        pthread_barrier_wait(&mt.done);
    }
}

static void mt_setup(struct pt2pt_ctx *c)
{
    c->slots = send_threads > recv_threads ? send_threads : recv_threads;
}

static void mt_prepare(struct pt2pt_ctx *c)
{
    mt.c = c;
    mt.nworkers = c->rank == 0 ? send_threads : recv_threads;
    if (pthread_barrier_init(&mt.start, NULL, (unsigned)mt.nworkers + 1) ||
        pthread_barrier_init(&mt.done, NULL, (unsigned)mt.nworkers + 1))
        err_fatal("cannot create thread barriers");
    for (size_t t = 0; t < mt.nworkers; t++) {
        mt.workers[t].index = t;
        if (pthread_create(&mt.workers[t].id, NULL, worker_main, &mt.workers[t]))
            err_fatal("cannot create thread %zu of %zu", t + 1, mt.nworkers);
    }
    pthread_barrier_wait(&mt.done); /* every worker has selected the device */
    const char *failed = NULL;
    for (size_t t = 0; t < mt.nworkers && !failed; t++)
        failed = mt.workers[t].failed;
    if (failed) { /* the others wait at start: let them go before leaving */
        mt.quit = true;
        pthread_barrier_wait(&mt.start);
        for (size_t t = 0; t < mt.nworkers; t++)
            pthread_join(mt.workers[t].id, NULL);
    }
    err_any_rank(harness.comm, failed != NULL, ERR_STATUS_FAIL, "%s", failed);
}

static void mt_exchange(struct pt2pt_ctx *c, size_t count)
{
    (void)c;
    mt.count = count;
    pthread_barrier_wait(&mt.start);
    pthread_barrier_wait(&mt.done);
}

static void mt_fill(struct pt2pt_ctx *c)
{
    if (c->rank != 0)
        return;
    for (size_t t = 0; t < send_threads; t++)
        pt2pt_fill_region(&c->send, slice(c, t), c->size, 0, message_key(c->iteration, t));
}

/* Rank 0 checks every sending thread's echo: a byte wrong on either way
 * shows there. */
static size_t mt_check(struct pt2pt_ctx *c)
{
    size_t first = SIZE_MAX;
    if (c->rank != 0)
        return first;
    for (size_t t = 0; t < send_threads; t++) {
        size_t bad = pt2pt_check_message(c, slice(c, t), 0, message_key(c->iteration, t));
        if (bad < first)
            first = bad;
    }
    return first;
}

static void mt_finish(struct pt2pt_ctx *c)
{
    (void)c;
    mt.quit = true;
    pthread_barrier_wait(&mt.start);
    for (size_t t = 0; t < mt.nworkers; t++)
        pthread_join(mt.workers[t].id, NULL);
    pthread_barrier_destroy(&mt.start);
    pthread_barrier_destroy(&mt.done);
}

/* OMB 7.4 names the thread counts before its title (the sender line ends
 * in a space there too). */
static void mt_omb_lines(const struct pt2pt_ctx *c, char *before, size_t before_len, char *after,
                         size_t after_len)
{
    (void)c;
    (void)after;
    (void)after_len;
    snprintf(before, before_len,
             "# Number of Sender threads: %zu \n# Number of Receiver threads: %zu\n",
             send_threads, recv_threads);
}

static const struct opt_spec extra[] = {
    {.long_name = "num-threads", .short_name = 't', .kind = OPT_CUSTOM, .dest = NULL,
     .metavar = "[SEND:]RECV", .help = "threads on rank 0 and rank 1 (default 1:2, at most 128)",
     .parse = parse_threads},
    {.long_name = "num-test-calls", .kind = OPT_CUSTOM, .dest = NULL, .metavar = "[SEND:]RECV",
     .help = "OMB 7.4's name of -t", .parse = parse_threads},
};

static const struct pt2pt_bench latency_mt = {
    .prog = {.title = "OSU MPI Multi-threaded Latency Test",
             .synopsis = OSU_PLACEMENT_SYNOPSIS,
             .description = "Sending threads on rank 0 ping-pong with receiving threads on\n"
                            "rank 1 (MPI_Send/MPI_Recv under MPI_THREAD_MULTIPLE); reports the\n"
                            "one-way latency each sending thread sees. Needs 2 ranks.\n"
                            "H|D|MH|MD x2: buffers of rank 0 and rank 1 on the host, the device or\n"
                            "managed memory (preferred on host or device).",
             PT2PT_LATENCY_DEFAULTS, .placement = true,
             .thread_level = MPI_THREAD_MULTIPLE},
    PT2PT_TWO_RANK_LATENCY,
    .extra = extra, .nextra = sizeof extra / sizeof extra[0],
    .no_buffer_num = true,
    .setup = mt_setup,
    .prepare = mt_prepare,
    .exchange = mt_exchange,
    .fill = mt_fill,
    .check = mt_check,
    .finish = mt_finish,
    .omb_lines = mt_omb_lines,
};

int main(int argc, char **argv) { pt2pt_main(&latency_mt, argc, argv); }
