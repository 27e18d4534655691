/* collective: times a native MPI collective over a message set (bytes per
 * process) with the precision rule and one of the timing methods max, root
 * or global. Each operation is a row of the table below: how big its
 * buffers are and how to run it once; the driver does the rest. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "harness.h"
#include "msg.h"

struct coll_ctx {
    char *send, *recv;
    int n;
};

typedef void (*coll_run)(struct coll_ctx *c, MPI_Comm comm, int root, struct msg_type *t,
                         int count);

struct coll {
    const char *name;
    int send_times_n, recv_times_n; /* buffers hold n blocks instead of one */
    int reduction;                  /* count must fit an int (no derived types) */
    coll_run run;
};

static void run_bcast(struct coll_ctx *c, MPI_Comm comm, int root, struct msg_type *t, int count)
{
    (void)count;
    MPI_CHECK(MPI_Bcast(c->send, t->count, t->type, root, comm));
}
static void run_scatter(struct coll_ctx *c, MPI_Comm comm, int root, struct msg_type *t,
                        int count)
{
    (void)count;
    MPI_CHECK(MPI_Scatter(c->send, t->count, t->type, c->recv, t->count, t->type, root, comm));
}
static void run_gather(struct coll_ctx *c, MPI_Comm comm, int root, struct msg_type *t,
                       int count)
{
    (void)count;
    MPI_CHECK(MPI_Gather(c->send, t->count, t->type, c->recv, t->count, t->type, root, comm));
}
static void run_reduce(struct coll_ctx *c, MPI_Comm comm, int root, struct msg_type *t, int count)
{
    (void)t;
    MPI_CHECK(MPI_Reduce(c->send, c->recv, count, MPI_BYTE, MPI_BOR, root, comm));
}
static void run_allreduce(struct coll_ctx *c, MPI_Comm comm, int root, struct msg_type *t,
                          int count)
{
    (void)t;
    (void)root;
    MPI_CHECK(MPI_Allreduce(c->send, c->recv, count, MPI_BYTE, MPI_BOR, comm));
}
static void run_allgather(struct coll_ctx *c, MPI_Comm comm, int root, struct msg_type *t,
                          int count)
{
    (void)root;
    (void)count;
    MPI_CHECK(MPI_Allgather(c->send, t->count, t->type, c->recv, t->count, t->type, comm));
}
static void run_alltoall(struct coll_ctx *c, MPI_Comm comm, int root, struct msg_type *t,
                         int count)
{
    (void)root;
    (void)count;
    MPI_CHECK(MPI_Alltoall(c->send, t->count, t->type, c->recv, t->count, t->type, comm));
}
static void run_barrier(struct coll_ctx *c, MPI_Comm comm, int root, struct msg_type *t,
                        int count)
{
    (void)c;
    (void)root;
    (void)t;
    (void)count;
    MPI_CHECK(MPI_Barrier(comm));
}

static const struct coll colls[] = {
    {"MPI_Bcast", 0, 0, 0, run_bcast},         {"MPI_Scatter", 1, 0, 0, run_scatter},
    {"MPI_Gather", 0, 1, 0, run_gather},       {"MPI_Reduce", 0, 0, 1, run_reduce},
    {"MPI_Allreduce", 0, 0, 1, run_allreduce}, {"MPI_Allgather", 0, 1, 0, run_allgather},
    {"MPI_Alltoall", 1, 1, 0, run_alltoall},   {"MPI_Barrier", 0, 0, 0, run_barrier},
};
enum { NCOLLS = sizeof colls / sizeof colls[0] };

struct driver {
    const struct coll *coll;
    struct coll_ctx ctx;
    struct cpm_coll_timer timer;
    const struct cli_common *c;
};

static void run_once(MPI_Comm comm, int root, size_t size, void *arg)
{
    struct driver *d = arg;
    struct msg_type t;
    if (msg_type_make(size, MPI_BYTE, &t) != 0)
        err_fatal("cannot describe a message of %zu bytes", size);
    d->coll->run(&d->ctx, comm, root, &t, (int)(size <= INT_MAX ? size : 0));
    msg_type_free(&t);
}

static void measure(MPI_Comm comm, size_t size, void *arg, struct cpm_result *r)
{
    struct driver *d = arg;
    (void)comm;
    cpm_coll_measure(&d->timer, run_once, size, d, &d->c->precision, r);
}

static void print(size_t index, const struct cpm_result *r, void *arg)
{
    (void)index;
    (void)arg;
    cli_result_line(r, 1.0);
}

int main(int argc, char **argv)
{
    harness_init(&argc, &argv, MPI_THREAD_SINGLE);
    /* The operation names and their help come from the table. */
    const char *coll_names[NCOLLS + 1] = {NULL};
    for (size_t k = 0; k < NCOLLS; k++)
        coll_names[k] = colls[k].name;
    char list[260], op_help[300];
    cli_join_names(coll_names, list, sizeof list);
    snprintf(op_help, sizeof op_help, "%s (required)", list);
    struct cli_common c;
    int op = -1, method = CPM_TIMING_MAX;
    size_t root = 0;
    const struct opt_spec extra[] = {
        {.short_name = 'O', .kind = OPT_CHOICE, .dest = &op, .metavar = "OPERATION",
         .help = op_help, .choices = coll_names},
        {.short_name = 't', .kind = OPT_CHOICE, .dest = &method, .metavar = "METHOD",
         .help = "timing: max (default), root or global", .choices = cpm_timing_names},
        {.long_name = "root", .kind = OPT_SIZE, .dest = &root, .metavar = "RANK",
         .help = "root of rooted operations (default 0)"},
    };
    cli_parse(argc, argv, &c, extra, sizeof extra / sizeof extra[0], "-O OPERATION [options]",
              "Times a native MPI collective over a message set (bytes per process).");
    if (op < 0)
        err_usage("choose the operation with -O (try --help)");
    if (root >= (size_t)harness.size)
        err_usage("root %zu is not below the number of processes %d", root, harness.size);
    struct driver d = {&colls[op], {NULL, NULL, harness.size}, {0}, &c};
    if (d.coll->reduction && c.msgset.max_size > INT_MAX)
        err_usage("%s takes at most %d bytes per process", d.coll->name, INT_MAX);
    size_t n = (size_t)harness.size, max = c.msgset.max_size;
    if (max > SIZE_MAX / n)
        err_usage("maximum message size %zu times %zu processes is too large", max, n);
    size_t send_bytes = max * (d.coll->send_times_n ? n : 1);
    size_t recv_bytes = max * (d.coll->recv_times_n ? n : 1);
    d.ctx.send = calloc(send_bytes + 1, 1);
    d.ctx.recv = calloc(recv_bytes + 1, 1);
    err_any(MPI_COMM_WORLD, !d.ctx.send || !d.ctx.recv, ERR_STATUS_USAGE,
            "cannot allocate %zu + %zu bytes for %s", send_bytes, recv_bytes, d.coll->name);

    out_header("CPM collective benchmark", argc, argv);
    out_comment("operation: %s, root %zu, timing method: %s", d.coll->name, root,
                cpm_timing_names[method]);
    cli_preamble(&c, harness.size);
    out_comment("msg: bytes per process; time: seconds; ci: half-width of the interval");
    cpm_coll_timer_init(&d.timer, MPI_COMM_WORLD, (enum cpm_timing)method, (int)root,
                        &c.precision);
    cli_columns();
    cpm_msgset_run(MPI_COMM_WORLD, &c.msgset, 1, measure, &d, print, NULL);
    cpm_coll_timer_free(&d.timer);
    free(d.ctx.send);
    free(d.ctx.recv);
    harness_finish(ERR_STATUS_OK);
}
