/* collective: times a native MPI collective, or a model-based one of
 * libcpm_coll loaded with -l, over a message set (bytes per process) with
 * the precision rule and one of the timing methods max, root or global.
 * Each native operation is a row of the table below: its data layout and
 * how to run it once; the driver does the rest. Every run's data is set up
 * before and checked after the timed region. */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "cli.h"
#include "cpm_coll_models.h"
#include "harness.h"
#include "msg.h"
#include "reduce_data.h"
#include "report.h"
#include "timewin.h"

/* Where the data goes, for setting it up and checking it. */
enum layout { L_NONE, L_BCAST, L_SCATTER, L_GATHER, L_REDUCE, L_ALLREDUCE, L_ALLGATHER, L_ALLTOALL };

struct coll_ctx {
    unsigned char *send, *recv;
    int n;
};

typedef void (*coll_run)(struct coll_ctx *c, MPI_Comm comm, int root, struct msg_type *t,
                         int count);

struct coll {
    const char *name;
    int send_times_n, recv_times_n; /* buffers hold n blocks instead of one */
    int reduction;                  /* count must fit an int (no derived types) */
    enum layout layout;
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
/* Reductions sum bytes (reduce_data.h says why): MPI_BYTE takes no
 * arithmetic. */
#define REDUCE_TYPE MPI_UINT8_T
#define REDUCE_OP MPI_SUM
static void run_reduce(struct coll_ctx *c, MPI_Comm comm, int root, struct msg_type *t, int count)
{
    (void)t;
    MPI_CHECK(MPI_Reduce(c->send, c->recv, count, REDUCE_TYPE, REDUCE_OP, root, comm));
}
static void run_allreduce(struct coll_ctx *c, MPI_Comm comm, int root, struct msg_type *t,
                          int count)
{
    (void)t;
    (void)root;
    MPI_CHECK(MPI_Allreduce(c->send, c->recv, count, REDUCE_TYPE, REDUCE_OP, comm));
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
    {"MPI_Bcast", 0, 0, 0, L_BCAST, run_bcast},
    {"MPI_Scatter", 1, 0, 0, L_SCATTER, run_scatter},
    {"MPI_Gather", 0, 1, 0, L_GATHER, run_gather},
    {"MPI_Reduce", 0, 0, 1, L_REDUCE, run_reduce},
    {"MPI_Allreduce", 0, 0, 1, L_ALLREDUCE, run_allreduce},
    {"MPI_Allgather", 0, 1, 0, L_ALLGATHER, run_allgather},
    {"MPI_Alltoall", 1, 1, 0, L_ALLTOALL, run_alltoall},
    {"MPI_Barrier", 0, 0, 0, L_NONE, run_barrier},
};
enum { NCOLLS = sizeof colls / sizeof colls[0] };

/* ---- model-based operations of a library loaded with -l ---- */

struct model_op {
    const struct cpm_coll_entry *entry; /* what the operation is */
    void (*fn)(void);                   /* the library's function */
    int *counts, *displs; /* v-operations: size bytes from/to every rank */
};

static enum layout layout_of(enum cpm_coll_op_kind kind)
{
    switch (kind) {
    case CPM_OP_BCAST:
        return L_BCAST;
    case CPM_OP_REDUCE:
        return L_REDUCE;
    case CPM_OP_SCATTER:
    case CPM_OP_SCATTERV:
        return L_SCATTER;
    default:
        return L_GATHER;
    }
}

static void run_model(struct model_op *o, struct coll_ctx *c, MPI_Comm comm, int root, int count)
{
    for (int r = 0; r < c->n && o->counts; r++) {
        o->counts[r] = count;
        o->displs[r] = r * count;
    }
    bool reduce = o->entry->op == CPM_OP_REDUCE;
    struct cpm_coll_call a = {c->send, c->recv, count, reduce ? REDUCE_TYPE : MPI_BYTE,
                              o->counts, o->displs, REDUCE_OP, root, comm};
    err_mpi_check(cpm_coll_entry_call(o->entry, o->fn, &a), o->entry->name, __FILE__, __LINE__);
}

/* ---- the driver ---- */

struct driver {
    const struct coll *coll;     /* native, or NULL */
    struct model_op *model;      /* model-based, or NULL */
    enum layout layout;
    struct coll_ctx ctx;
    struct cpm_coll_timer timer;
    const struct cli_common *c;
    size_t iter;
};

static void run_once(MPI_Comm comm, int root, size_t size, void *arg)
{
    struct driver *d = arg;
    if (d->model) {
        run_model(d->model, &d->ctx, comm, root, (int)size);
        return;
    }
    struct msg_type t;
    if (msg_type_make(size, MPI_BYTE, &t) != 0)
        err_fatal("cannot describe a message of %zu bytes", size);
    d->coll->run(&d->ctx, comm, root, &t, (int)(size <= INT_MAX ? size : 0));
    msg_type_free(&t);
}

static void fill(unsigned char *b, size_t len, int key, size_t iter)
{
    for (size_t i = 0; i < len; i++)
        b[i] = (unsigned char)buf_pattern(key, iter, i);
}

static size_t count_wrong(const unsigned char *b, size_t len, int key, size_t iter)
{
    size_t wrong = 0;
    for (size_t i = 0; i < len; i++)
        wrong += b[i] != (unsigned char)buf_pattern(key, iter, i);
    return wrong;
}

/* Sets the data of one run: pattern keyed by the owner of each block. */
static void prepare(MPI_Comm comm, int root, size_t size, void *arg)
{
    struct driver *d = arg;
    int rank, n = d->ctx.n;
    MPI_Comm_rank(comm, &rank);
    unsigned char *s = d->ctx.send, *r = d->ctx.recv;
    size_t iter = ++d->iter;
    switch (d->layout) {
    case L_NONE:
        return;
    case L_BCAST:
        if (rank == root)
            fill(s, size, root, iter);
        else
            memset(s, 0xFF, size);
        return;
    case L_SCATTER:
        if (rank == root)
            for (int x = 0; x < n; x++)
                fill(s + (size_t)x * size, size, x, iter);
        memset(r, 0xFF, size);
        return;
    case L_ALLTOALL:
        for (int x = 0; x < n; x++)
            fill(s + (size_t)x * size, size, rank * n + x, iter);
        memset(r, 0xFF, (size_t)n * size);
        return;
    case L_REDUCE:
    case L_ALLREDUCE:
        for (size_t i = 0; i < size; i++)
            s[i] = reduce_data_term(rank, n, size, iter, i);
        memset(r, 0xFF, size);
        return;
    default: /* gathers */
        fill(s, size, rank, iter);
        memset(r, 0xFF, d->layout == L_GATHER || d->layout == L_ALLGATHER ? (size_t)n * size
                                                                           : size);
        return;
    }
}

/* Wrong bytes this rank received in the run just timed. */
static size_t check(MPI_Comm comm, int root, size_t size, void *arg)
{
    struct driver *d = arg;
    int rank, n = d->ctx.n;
    MPI_Comm_rank(comm, &rank);
    unsigned char *s = d->ctx.send, *r = d->ctx.recv;
    size_t iter = d->iter, wrong = 0;
    bool here = (d->layout != L_GATHER && d->layout != L_REDUCE) || rank == root;
    /* The test hook: one rank damages what it got, and the check must see it. */
    if (size && here && buf_corrupt_requested(rank))
        (d->layout == L_BCAST ? s : r)[0] ^= 1;
    switch (d->layout) {
    case L_NONE:
        break;
    case L_BCAST:
        wrong = count_wrong(s, size, root, iter);
        break;
    case L_SCATTER:
        wrong = count_wrong(r, size, rank, iter);
        break;
    case L_GATHER:
    case L_ALLGATHER:
        for (int x = 0; here && x < n; x++)
            wrong += count_wrong(r + (size_t)x * size, size, x, iter);
        break;
    case L_ALLTOALL:
        for (int x = 0; x < n; x++)
            wrong += count_wrong(r + (size_t)x * size, size, x * n + rank, iter);
        break;
    case L_REDUCE:
    case L_ALLREDUCE:
        for (size_t i = 0; here && i < size; i++)
            wrong += r[i] != reduce_data_sum(n, size, iter, i);
        break;
    }
    return wrong;
}

static void measure(MPI_Comm comm, size_t size, void *arg, struct cpm_result *r)
{
    struct driver *d = arg;
    cpm_coll_measure(&d->timer, run_once, size, d, &d->c->precision, r);
    unsigned long long mine = d->timer.errors, all = 0;
    MPI_CHECK(MPI_Allreduce(&mine, &all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm));
    if (all) {
        out_line("# Fail: %llu wrong bytes at %zu bytes per process", all, size);
        /* Every rank knows the count: rank 0 says it. */
        err_check(comm, harness.rank == 0,
                  "data check failed: %llu wrong bytes at %zu bytes per process", all, size);
    }
}

static void print(size_t index, const struct cpm_result *r, void *arg)
{
    (void)index;
    struct driver *d = arg;
    cli_result_line(r, 1.0);
    if (d->timer.method == CPM_TIMING_WINDOW)
        out_comment("window: msg %zu: %zu runs kept, %zu missed (left out), window %.2f us",
                    r->size, r->reps, d->timer.missed, d->timer.win->length * 1e6);
}

/* -o model=NAME,file=PATH[,verbose][,sgv=0|1|2] */
struct model_opts {
    const char *model, *file;
    bool verbose;
    int sgv;
};

static int parse_model_opts(const char *arg, void *dest, char *err, size_t errlen)
{
    struct model_opts *o = dest;
    char *copy = strdup(arg), *save = NULL;
    if (!copy) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        if (strncmp(item, "model=", 6) == 0 && item[6])
            o->model = strdup(item + 6);
        else if (strncmp(item, "file=", 5) == 0 && item[5])
            o->file = strdup(item + 5);
        else if (strcmp(item, "verbose") == 0)
            o->verbose = true;
        else if (strcmp(item, "sgv=0") == 0 || strcmp(item, "sgv=1") == 0 ||
                 strcmp(item, "sgv=2") == 0)
            o->sgv = item[4] - '0';
        else {
            snprintf(err, errlen, "unknown item '%s' in -o (model=NAME,file=PATH,verbose,sgv=0|1|2)",
                     item);
            free(copy);
            return -1;
        }
    }
    free(copy);
    return 0;
}

/* dlopen as given; a bare name is also looked for beside this program. */
static void *load_library(const char *lib, char *why, size_t whylen)
{
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (h)
        return h;
    snprintf(why, whylen, "%s", dlerror());
    if (strchr(lib, '/'))
        return NULL;
    char exe[4096];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0)
        return NULL;
    exe[len] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return NULL;
    char path[4200];
    snprintf(path, sizeof path, "%.*s/%s", (int)(slash - exe), exe, lib);
    return dlopen(path, RTLD_NOW | RTLD_LOCAL);
}

/* Reads the model on rank 0 and hands it to the library's X_initialize;
 * resolves the operation. Exits 2 on bad input. */
static void *setup_model(const char *lib, const char *name, const struct model_opts *mo,
                         struct model_op *op, void **model_out)
{
    char why[600] = "", sym[200];
    void *h = load_library(lib, why, sizeof why);
    if (!h)
        err_usage("cannot load the library %s: %s", lib, why);
    if (!mo->model || !mo->file)
        err_usage("a model-based operation needs -o model=NAME,file=PATH");
    const struct cpm_model_kind *kind = cpm_model_kind_find(mo->model);
    if (!kind)
        err_usage("unknown model '%s' in -o", mo->model);
    op->entry = cpm_coll_op_find(name);
    if (!op->entry || strcmp(op->entry->model, kind->name) != 0)
        err_usage("unknown operation '%s' for the %s model", name, kind->name);
    *(void **)&op->fn = dlsym(h, name);
    snprintf(sym, sizeof sym, "%s_initialize", mo->model);
    int (*init)(MPI_Comm, const void *) = (int (*)(MPI_Comm, const void *))dlsym(h, sym);
    int *sgv = dlsym(h, "cpm_coll_sgv_mode");
    if (!op->fn || !init || !sgv)
        err_usage("unknown operation '%s' in %s", name, lib);
    *sgv = mo->sgv;
    void *model = NULL;
    char err[400] = "";
    int bad = harness.rank == 0 &&
              cpm_model_read_file(mo->file, kind, harness.size, &model, err, sizeof err) != 0;
    err_any(MPI_COMM_WORLD, bad, ERR_STATUS_USAGE, "%s", err);
    int rc = init(MPI_COMM_WORLD, model);
    err_mpi_check(rc, sym, __FILE__, __LINE__);
    *model_out = model;
    return h;
}

/* verbose: the tree the operation builds at 1024 bytes, from rank 0's model. */
static void print_tree(const char *name, const struct model_opts *mo, const void *model, int root)
{
    const struct cpm_coll_entry *o = cpm_coll_op_find(name);
    if (!mo->verbose || !model || !o || o->lmo_split)
        return;
    struct cpm_tree t;
    if (cpm_coll_op_tree(o, model, harness.size, root, 1024, &t) != MPI_SUCCESS)
        return;
    char line[4096];
    size_t used = 0;
    for (int k = 0; k < t.n && used < sizeof line; k++)
        used += (size_t)snprintf(line + used, sizeof line - used, " %d/%d", t.order[k], t.size[k]);
    out_comment("tree at 1024 bytes (rank/subtree size, preorder):%s", line);
    cpm_tree_free(&t);
}

int main(int argc, char **argv)
{
    harness_init(&argc, &argv, MPI_THREAD_SINGLE);
    const char *coll_names[NCOLLS + 1] = {NULL};
    for (size_t k = 0; k < NCOLLS; k++)
        coll_names[k] = colls[k].name;
    char list[260], op_help[400];
    cli_join_names(coll_names, list, sizeof list);
    snprintf(op_help, sizeof op_help,
             "%s, or with -l an operation of the library such as "
             "Hockney_Scatter_dfs_binomial_min (required)",
             list);
    struct cli_common c;
    int method = -1, timing = TIMEWIN_BARRIER;
    double window_us = 0;
    size_t root = 0;
    const char *op_name = NULL, *lib = NULL;
    struct model_opts mo = {NULL, NULL, false, 0};
    const struct opt_spec extra[] = {
        {.short_name = 'O', .kind = OPT_STRING, .dest = &op_name, .metavar = "OPERATION",
         .help = op_help},
        {.short_name = 't', .kind = OPT_CHOICE, .dest = &method, .metavar = "METHOD",
         .help = "barrier timing: max (default), root or global", .choices = cpm_timing_names},
        timewin_timing_option(&timing),
        timewin_length_option(&window_us),
        {.long_name = "root", .kind = OPT_SIZE, .dest = &root, .metavar = "RANK",
         .help = "root of rooted operations (default 0)"},
        {.short_name = 'l', .kind = OPT_STRING, .dest = &lib, .metavar = "LIBRARY",
         .help = "library of model-based collectives (libcpm_coll.so)"},
        {.short_name = 'o', .kind = OPT_CUSTOM, .dest = &mo, .parse = parse_model_opts,
         .metavar = "ITEMS",
         .help = "model=Hockney|LinInterp|LogGP|PLogP|LMO,file=PATH[,verbose][,sgv=0|1|2]"},
    };
    cli_parse(argc, argv, &c, extra, sizeof extra / sizeof extra[0], "-O OPERATION [options]",
              "Times a native MPI collective, or a model-based one of the library given with "
              "-l, over a message set (bytes per process); the data of every run is checked.",
              NULL, true);
    if (!op_name)
        err_usage("choose the operation with -O (try --help)");
    timewin_check_options(timing, window_us);
    if (timing == TIMEWIN_WINDOW && method >= 0)
        err_usage("-t applies to --timing=barrier (a window time runs from the agreed start to "
                  "the last rank's finish)");
    if (timing == TIMEWIN_WINDOW)
        method = CPM_TIMING_WINDOW;
    else if (method < 0)
        method = CPM_TIMING_MAX;
    if (root >= (size_t)harness.size)
        err_usage("root %zu is not below the number of processes %d", root, harness.size);
    struct model_op mop = {NULL, NULL, NULL, NULL};
    struct driver d = {NULL, NULL, L_NONE, {NULL, NULL, harness.size}, {0}, &c, 0};
    for (size_t k = 0; k < NCOLLS; k++)
        if (strcmp(op_name, colls[k].name) == 0)
            d.coll = &colls[k];
    void *handle = NULL, *model = NULL;
    if (!d.coll && !lib)
        err_usage("unknown operation '%s': %s, or a model-based one with -l", op_name, list);
    int send_n = 0, recv_n = 0, reduction = 0;
    if (d.coll && (lib || mo.model || mo.file || mo.verbose || mo.sgv))
        err_usage("-l and -o apply to the model-based operations; %s is a native MPI collective",
                  op_name);
    if (d.coll) {
        d.layout = d.coll->layout;
        send_n = d.coll->send_times_n;
        recv_n = d.coll->recv_times_n;
        reduction = d.coll->reduction;
    } else {
        handle = setup_model(lib, op_name, &mo, &mop, &model);
        d.model = &mop;
        d.layout = layout_of(mop.entry->op);
        send_n = d.layout == L_SCATTER;
        recv_n = d.layout == L_GATHER;
        reduction = 1; /* int counts of MPI_BYTE */
        if (mop.entry->op == CPM_OP_SCATTERV || mop.entry->op == CPM_OP_GATHERV) {
            mop.counts = calloc((size_t)harness.size, sizeof *mop.counts);
            mop.displs = calloc((size_t)harness.size, sizeof *mop.displs);
            err_any(MPI_COMM_WORLD, !mop.counts || !mop.displs, ERR_STATUS_USAGE,
                    "cannot allocate the counts of %d processes", harness.size);
        }
    }
    size_t n = (size_t)harness.size, max = c.msgset.max_size;
    if (reduction && max > INT_MAX / (d.model && (send_n || recv_n) ? n : 1))
        err_usage("%s takes at most %d bytes per process", op_name, INT_MAX);
    if (max > SIZE_MAX / n)
        err_usage("maximum message size %zu times %zu processes is too large", max, n);
    size_t send_bytes = max * (send_n ? n : 1);
    size_t recv_bytes = max * (recv_n ? n : 1);
    d.ctx.send = calloc(send_bytes + 1, 1);
    d.ctx.recv = calloc(recv_bytes + 1, 1);
    err_any(MPI_COMM_WORLD, !d.ctx.send || !d.ctx.recv, ERR_STATUS_USAGE,
            "cannot allocate %zu + %zu bytes for %s", send_bytes, recv_bytes, op_name);

    out_header("CPM collective benchmark", argc, argv);
    out_comment("operation: %s, root %zu, timing method: %s", op_name, root,
                method == CPM_TIMING_WINDOW ? "window" : cpm_timing_names[method]);
    if (d.model)
        out_comment("library: %s, model %s from %s, sgv mode %d", lib, mo.model, mo.file, mo.sgv);
    print_tree(op_name, &mo, model, (int)root);
    if (model)
        cpm_model_kind_find(mo.model)->destroy(model);
    cli_preamble(&c, harness.size);
    out_comment("msg: bytes per process; time: seconds; ci: half-width of the interval");
    out_comment("data: checked after every run, outside the timed region");
    cpm_coll_timer_init(&d.timer, MPI_COMM_WORLD, (enum cpm_timing)method, (int)root,
                        &c.precision);
    d.timer.window_given = window_us * 1e-6;
    cpm_coll_timer_describe(&d.timer);
    d.timer.prepare = prepare;
    d.timer.check = check;
    report_validation(true);
    cli_table("cpm_collective", false);
    cli_columns();
    cpm_msgset_run(MPI_COMM_WORLD, &c.msgset, 1, measure, &d, print, NULL);
    cpm_coll_timer_free(&d.timer);
    if (handle) {
        char sym[200];
        snprintf(sym, sizeof sym, "%s_finalize", mo.model);
        int (*fin)(MPI_Comm) = (int (*)(MPI_Comm))dlsym(handle, sym);
        if (fin)
            fin(MPI_COMM_WORLD);
    }
    free(mop.counts);
    free(mop.displs);
    free(d.ctx.send);
    free(d.ctx.recv);
    harness_finish(ERR_STATUS_OK);
}
