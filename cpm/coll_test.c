/* coll_test: the seed's test of model-based collectives (5.3). Rank 0 reads
 * a model file, X_initialize gives every process the model, a model-based
 * collective runs and every process checks the data it got:
 *   coll_test -i model.out [-C Hockney] [-O Hockney_Bcast_ucs_binomial_min] [--root R] [-m N]
 *             [--in-place]
 * With --all DIR it runs every operation of every model that has a file
 * DIR/MODEL.model (LogGP reads DIR/PLogP.model) at several roots and
 * sizes, Scatterv/Gatherv with uneven counts in the three count modes, on
 * MPI_BYTE, MPI_INT and a vector type with gaps, each rooted operation but
 * Bcast also with MPI_IN_PLACE at the root (4099 elements): the library's
 * integration test in one launch
 * (--quick: fewer cases, for launchers that spin on oversubscribed cores). */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "cpm_coll_models.h"
#include "harness.h"
#include "report.h"
#include "watchdog.h"

static int (*const initializers[])(MPI_Comm, const void *) = {
#define INIT(X) X##_initialize,
    CPM_COLL_MODELS(INIT)
#undef INIT
};
static int (*const finalizers[])(MPI_Comm) = {
#define FIN(X) X##_finalize,
    CPM_COLL_MODELS(FIN)
#undef FIN
};
static const char *const model_names[] = {
#define NAME(X) #X,
    CPM_COLL_MODELS(NAME)
#undef NAME
    NULL};

/* The element types: MPI_BYTE, MPI_INT, and two ints with a gap between
 * them (a vector of extent 3 ints), which shows that blocks are placed by
 * the extent and that the gaps are left alone. */
enum elem { E_BYTE, E_INT, E_VEC };
static const char *const elem_names[] = {"MPI_BYTE", "MPI_INT", "a vector of 2 MPI_INT, extent 3"};
static const size_t elem_extent[] = {1, sizeof(int), 3 * sizeof(int)};
static MPI_Datatype elem_types[3];

/* Element i of a buffer: byte, int, or both ints of a vector. */
static void put(void *b, enum elem e, size_t i, unsigned v)
{
    if (e == E_BYTE)
        ((unsigned char *)b)[i] = (unsigned char)v;
    else if (e == E_INT)
        ((int *)b)[i] = (int)v;
    else
        ((int *)b)[3 * i] = ((int *)b)[3 * i + 2] = (int)v;
}
/* The value of element i; UINT_MAX when a vector's two ints differ or its
 * gap (poisoned to -1) was written. */
static unsigned get(const void *b, enum elem e, size_t i)
{
    if (e == E_BYTE)
        return ((const unsigned char *)b)[i];
    const int *n = b;
    if (e == E_INT)
        return (unsigned)n[i];
    return n[3 * i] == n[3 * i + 2] && n[3 * i + 1] == -1 ? (unsigned)n[3 * i] : UINT_MAX;
}

struct layout {
    int n, rank;
    enum elem es;
    int *counts, *displs; /* per rank, elements */
    size_t total;         /* elements of the root's side */
};

/* Uneven counts for v-operations (some ranks 0, gaps between blocks); count
 * for every rank otherwise. */
static void set_counts(struct layout *l, int count, bool uneven)
{
    size_t at = 0;
    for (int r = 0; r < l->n; r++) {
        l->counts[r] = uneven ? (r % 3 == 1 ? 0 : count + r) : count;
        l->displs[r] = (int)at + (uneven ? 1 : 0);
        at = (size_t)l->displs[r] + (size_t)l->counts[r];
    }
    l->total = at + 1;
}

/* Whether an operation takes MPI_IN_PLACE at its root (every rooted one
 * but Bcast). */
static bool takes_in_place(enum cpm_coll_op_kind op) { return op != CPM_OP_BCAST; }

/* Runs e once (in_place: with MPI_IN_PLACE at the root); returns the wrong
 * elements on this rank (or -1 when the call failed). */
static long run_checked(const struct cpm_coll_entry *e, struct layout *l, int count, int root,
                        size_t iter, bool in_place)
{
    bool v = e->op == CPM_OP_SCATTERV || e->op == CPM_OP_GATHERV;
    set_counts(l, count, v);
    MPI_Datatype type = elem_types[l->es];
    size_t side = l->total, mine = (size_t)l->counts[l->rank], ext = elem_extent[l->es];
    size_t count_z = (size_t)count;
    char *root_buf = malloc((side + 1) * ext), *own = malloc((mine + count_z + 1) * ext);
    if (!root_buf || !own)
        err_fatal("out of memory");
    memset(root_buf, 0xFF, (side + 1) * ext);
    memset(own, 0xFF, (mine + count_z + 1) * ext);
    bool root_side_in = e->op == CPM_OP_SCATTER || e->op == CPM_OP_SCATTERV;
    long wrong = 0;
    if (e->op == CPM_OP_BCAST || e->op == CPM_OP_REDUCE) {
        for (size_t i = 0; i < (size_t)count; i++)
            put(own, l->es, i, e->op == CPM_OP_REDUCE || l->rank == root
                                   ? buf_pattern(e->op == CPM_OP_REDUCE ? l->rank : root, iter, i)
                                   : 0xFF);
    } else if (root_side_in) {
        if (l->rank == root)
            for (int r = 0; r < l->n; r++)
                for (int i = 0; i < l->counts[r]; i++)
                    put(root_buf, l->es, (size_t)l->displs[r] + (size_t)i, buf_pattern(r, iter, (size_t)i));
    } else {
        for (size_t i = 0; i < mine; i++)
            put(own, l->es, i, buf_pattern(l->rank, iter, i));
    }
    struct cpm_coll_call a = {root_side_in ? root_buf : own, root_side_in ? own : root_buf,
                              v ? (int)mine : count, type, l->counts, l->displs,
                              l->es == E_BYTE ? MPI_BOR : MPI_SUM, root, MPI_COMM_WORLD};
    if (e->op == CPM_OP_REDUCE)
        a.recvbuf = root_buf;
    /* In place, the root's own data sit where the result goes (Reduce,
     * Gather(v)), or its block stays in the send buffer (Scatter(v)). */
    in_place = in_place && l->rank == root;
    size_t own_at = (size_t)l->displs[l->rank];
    if (in_place && root_side_in) {
        a.recvbuf = MPI_IN_PLACE;
    } else if (in_place) {
        a.sendbuf = MPI_IN_PLACE;
        bool reduce = e->op == CPM_OP_REDUCE;
        size_t n = reduce ? count_z : mine, at = reduce ? 0 : own_at;
        for (size_t i = 0; i < n; i++)
            put(root_buf, l->es, at + i, get(own, l->es, i));
    }
    /* Each checked call is one step of --timeout. */
    watchdog_single_begin(NULL, "%s, root %d, %d elements", e->name, root, count);
    int rc = cpm_coll_entry_call(e, e->fn, &a);
    watchdog_single_end();
    if (rc != MPI_SUCCESS)
        wrong = -1;
    else if (e->op == CPM_OP_BCAST) {
        for (size_t i = 0; i < (size_t)count; i++)
            wrong += get(own, l->es, i) != buf_pattern(root, iter, i);
    } else if (e->op == CPM_OP_REDUCE) {
        for (size_t i = 0; l->rank == root && i < (size_t)count; i++) {
            unsigned want = 0;
            for (int r = 0; r < l->n; r++)
                want = l->es == E_BYTE ? want | buf_pattern(r, iter, i) : want + buf_pattern(r, iter, i);
            wrong += get(root_buf, l->es, i) != want;
        }
    } else if (root_side_in) {
        const char *got = in_place ? root_buf : own;
        size_t at = in_place ? own_at : 0;
        for (size_t i = 0; i < mine; i++)
            wrong += get(got, l->es, at + i) != buf_pattern(l->rank, iter, i);
    } else if (l->rank == root) {
        for (int r = 0; r < l->n; r++)
            for (int i = 0; i < l->counts[r]; i++)
                wrong += get(root_buf, l->es, (size_t)l->displs[r] + (size_t)i) !=
                         buf_pattern(r, iter, (size_t)i);
    }
    if (wrong == 0 && count > 0 && buf_corrupt_requested(l->rank))
        wrong = 1; /* the test hook: this rank claims a wrong element */
    free(root_buf);
    free(own);
    return wrong;
}

/* Reads the file on rank 0 and initialises model k; exits 2 on a bad file. */
static void initialize(int k, const char *path)
{
    const struct cpm_model_kind *kind = cpm_model_kind_find(model_names[k]);
    void *model = NULL;
    char err[400] = "";
    int bad = harness.rank == 0 &&
              cpm_model_read_file(path, kind, harness.size, &model, err, sizeof err) != 0;
    err_any(MPI_COMM_WORLD, bad, ERR_STATUS_USAGE, "%s", err);
    MPI_CHECK(initializers[k](MPI_COMM_WORLD, model));
    if (model)
        kind->destroy(model);
}

/* Every operation of model k at roots 0, n/2, n-1 and 0 and 65543 bytes,
 * 1 MPI_INT and 4099 vectors (quick: root n-1, the last two sizes);
 * returns the failed operations (the same on every rank). */
static int run_model_ops(int k, struct layout *l, bool quick, int *ops)
{
    static const int counts[] = {0, 1, 4099, 65543};
    int roots[3] = {0, l->n / 2, l->n - 1}, failures = 0;
    size_t iter = 0;
    for (size_t e = 0; e < cpm_coll_nops; e++) {
        const struct cpm_coll_entry *op = &cpm_coll_ops[e];
        if (strcmp(op->model, model_names[k]) != 0)
            continue;
        ++*ops;
        bool v = op->op == CPM_OP_SCATTERV || op->op == CPM_OP_GATHERV;
        long bad[2] = {0, 0}, all[2]; /* wrong elements, failed calls */
        for (int ri = quick ? 2 : 0; ri < 3; ri++) {
            if (ri && roots[ri] == roots[ri - 1] && !quick)
                continue;
            for (int mode = 0; mode < (v ? 3 : 1); mode++) {
                cpm_coll_sgv_mode = mode;
                for (size_t c = quick ? 2 : 0; c < sizeof counts / sizeof counts[0]; c++) {
                    /* (Reduce: Open MPI's MPI_Reduce_local takes no derived types.) */
                    l->es = c == 1 ? E_INT
                            : c == 2 ? (op->op == CPM_OP_REDUCE ? E_INT : E_VEC)
                                     : E_BYTE;
                    /* MPI_IN_PLACE at the root, too, at 4099 elements
                     * (vectors with gaps, or ints for Reduce). */
                    for (int inp = 0; inp < (c == 2 && takes_in_place(op->op) ? 2 : 1); inp++) {
                        long wrong = run_checked(op, l, counts[c], roots[ri], ++iter, inp);
                        if (wrong)
                            err_print("%s: root %d, %d elements of %s, sgv mode %d%s: %s",
                                      op->name, roots[ri], counts[c], elem_names[l->es], mode,
                                      inp ? ", MPI_IN_PLACE" : "",
                                      wrong < 0 ? "returned an error" : "wrong data");
                        bad[wrong < 0] += wrong < 0 ? 1 : wrong;
                    }
                }
            }
        }
        MPI_CHECK(MPI_Allreduce(bad, all, 2, MPI_LONG, MPI_MAX, MPI_COMM_WORLD));
        failures += all[0] || all[1];
    }
    cpm_coll_sgv_mode = CPM_SGV_PROPAGATE;
    return failures;
}

/* DIR/MODEL.model (LogGP's is PLogP's). */
static void model_file(const char *dir, int k, char *file, size_t len)
{
    snprintf(file, len, "%s/%s.model", dir,
             strcmp(model_names[k], "LogGP") == 0 ? "PLogP" : model_names[k]);
}

/* Which models have a readable file in DIR (rank 0); why, when DIR is no
 * folder or holds none: nothing tested must not pass for success. */
static void find_models(const char *dir, bool *present, char *why, size_t len)
{
    struct stat st;
    if (stat(dir, &st) != 0) {
        snprintf(why, len, "--all %s: %s", dir, strerror(errno));
        return;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(why, len, "--all %s: not a folder", dir);
        return;
    }
    int found = 0;
    for (int k = 0; model_names[k]; k++) {
        char file[4200];
        model_file(dir, k, file, sizeof file);
        present[k] = stat(file, &st) == 0 && S_ISREG(st.st_mode) && access(file, R_OK) == 0;
        found += present[k];
    }
    if (!found)
        snprintf(why, len, "--all %s: no model file in it (Hockney.model, LMO.model, ...)", dir);
}

/* JSON: a row per operation run (-i) or per model (--all); pass or fail
 * results, not measurements. */
static void declare_tables(bool all)
{
    report_header_string("title", "CPM model-based collectives test");
    report_validation(true);
    if (!all) {
        report_table("cpm_coll_test", "result", REPORT_NOT_RANKED, NULL);
        report_no_iterations();
        report_key("model", REPORT_UNIT_TEXT);
        report_key("operation", REPORT_UNIT_TEXT);
        report_key("size_bytes", REPORT_UNIT_BYTES);
        report_key("root", REPORT_UNIT_COUNT);
        report_value("result", REPORT_UNIT_TEXT);
        return;
    }
    report_table("cpm_coll_test_models", "failed", REPORT_LOWER_BETTER, NULL);
    report_no_iterations();
    report_key("model", REPORT_UNIT_TEXT);
    report_value("operations", REPORT_UNIT_COUNT);
    report_value("failed", REPORT_UNIT_COUNT);
    report_value("result", REPORT_UNIT_TEXT);
}

int main(int argc, char **argv)
{
    harness_init(&argc, &argv, MPI_THREAD_SINGLE);
    const char *path = NULL, *dir = NULL, *op_name = "Hockney_Bcast_ucs_binomial_min";
    int model = 0;
    bool quick = false, in_place = false;
    size_t root = 0, count = 1024;
    double timeout = 0.0;
    const struct opt_spec specs[] = {
        {.short_name = 'i', .kind = OPT_STRING, .dest = &path, .metavar = "FILE",
         .help = "model file of this many processes"},
        {.short_name = 'C', .kind = OPT_CHOICE, .dest = &model, .metavar = "MODEL",
         .help = "the file's model: Hockney (default), LinInterp, LogGP, PLogP or LMO",
         .choices = model_names},
        {.short_name = 'O', .kind = OPT_STRING, .dest = &op_name, .metavar = "OPERATION",
         .help = "model-based operation (default Hockney_Bcast_ucs_binomial_min)"},
        {.long_name = "root", .kind = OPT_SIZE, .dest = &root, .metavar = "RANK",
         .help = "root (default 0)"},
        {.short_name = 'm', .kind = OPT_SIZE, .dest = &count, .metavar = "BYTES",
         .help = "bytes per process (default 1024)", .max = 1u << 30},
        {.long_name = "all", .kind = OPT_STRING, .dest = &dir, .metavar = "DIR",
         .help = "every operation of every model with a file DIR/MODEL.model"},
        {.long_name = "quick", .kind = OPT_FLAG, .dest = &quick,
         .help = "--all at one root and two sizes (odd, above 64 KiB)"},
        {.long_name = "in-place", .kind = OPT_FLAG, .dest = &in_place,
         .help = "-i: MPI_IN_PLACE at the root (not for Bcast)"},
        WATCHDOG_OPT(&timeout),
    };
    struct opt_usage usage = {"-i FILE [-C MODEL] [-O OPERATION] [--root R] [-m BYTES] [--in-place]"
                              " | --all DIR",
                              "Reads a model on rank 0, distributes it, runs a model-based "
                              "collective and checks the data on every process.",
                              false, false, "cpm", "coll_test checks data and times nothing",
                              NULL};
    int pos = opt_parse_or_exit(argc, argv, specs, sizeof specs / sizeof specs[0], &usage);
    if (pos < argc)
        err_usage("unexpected argument '%s' (try --help)", argv[pos]);
    if (!path == !dir)
        err_usage("give a model file with -i, or a folder of them with --all");
    if (in_place && dir)
        err_usage("--in-place goes with -i (--all runs every operation in place too)");
    watchdog_configure(timeout);
    if (root >= (size_t)harness.size)
        err_usage("root %zu is not below the number of processes %d", root, harness.size);
    elem_types[E_BYTE] = MPI_BYTE;
    elem_types[E_INT] = MPI_INT;
    MPI_CHECK(MPI_Type_vector(2, 1, 2, MPI_INT, &elem_types[E_VEC]));
    MPI_CHECK(MPI_Type_commit(&elem_types[E_VEC]));
    struct layout l = {harness.size, harness.rank, E_BYTE, calloc((size_t)harness.size, sizeof(int)),
                       calloc((size_t)harness.size, sizeof(int)), 0};
    err_any(MPI_COMM_WORLD, !l.counts || !l.displs, ERR_STATUS_USAGE, "out of memory");
    int failures = 0;
    declare_tables(dir != NULL);
    if (path) {
        const struct cpm_coll_entry *e = cpm_coll_op_find(op_name);
        if (!e || strcmp(e->model, model_names[model]) != 0)
            err_usage("unknown operation '%s' for the %s model", op_name, model_names[model]);
        if (in_place && !takes_in_place(e->op))
            err_usage("--in-place: %s takes no MPI_IN_PLACE", op_name);
        initialize(model, path);
        long wrong = run_checked(e, &l, (int)count, (int)root, 1, in_place);
        finalizers[model](MPI_COMM_WORLD);
        err_check(MPI_COMM_WORLD, wrong != 0, "rank %d: %s gave wrong data", harness.rank,
                  op_name);
        if (harness.rank == 0)
            out_line("# %s of %zu bytes from root %zu on %d processes: ok", op_name, count, root,
                     harness.size);
        report_row_begin("cpm_coll_test");
        report_row_string("model", model_names[model]);
        report_row_string("operation", op_name);
        report_row_size("size_bytes", count);
        report_row_size("root", root);
        report_row_string("result", "ok");
        report_row_end();
    } else {
        char why[4400] = "";
        bool present[sizeof model_names / sizeof model_names[0]] = {false};
        if (harness.rank == 0)
            find_models(dir, present, why, sizeof why);
        err_any(MPI_COMM_WORLD, why[0] != '\0', ERR_STATUS_USAGE, "%s", why);
        for (int k = 0; model_names[k]; k++) {
            char file[4200];
            model_file(dir, k, file, sizeof file);
            int exists = present[k];
            MPI_CHECK(MPI_Bcast(&exists, 1, MPI_INT, 0, MPI_COMM_WORLD));
            if (!exists)
                continue;
            initialize(k, file);
            int ops = 0, f = run_model_ops(k, &l, quick, &ops);
            finalizers[k](MPI_COMM_WORLD);
            failures += f;
            if (harness.rank == 0)
                out_line("# %s: %d operations on %d processes: %s", model_names[k], ops,
                         harness.size, f ? "FAILED" : "ok");
            report_row_begin("cpm_coll_test_models");
            report_row_string("model", model_names[k]);
            report_row_size("operations", (size_t)ops);
            report_row_size("failed", (size_t)f);
            report_row_string("result", f ? "FAILED" : "ok");
            report_row_end();
        }
        err_check(MPI_COMM_WORLD, failures > 0, "%d operations failed", failures);
    }
    free(l.counts);
    free(l.displs);
    MPI_Type_free(&elem_types[E_VEC]);
    harness_finish(ERR_STATUS_OK);
}
