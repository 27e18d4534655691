/* matmul: the seed's heterogeneous parallel matrix product (5.4), a test of
 * the model-based collectives in an application, under mpirun:
 *     matmul [-N N,...] [-O SET,...] [-i MODEL_FILE] [-r REPS] [-t SECONDS]
 * For each order N, every process times gsl_blas_dgemm on a block of N/p
 * rows of N x N matrices; the rows of A are shared in proportion to those
 * speeds (matmul_part.h). Then, for each set of collectives
 * (matmul_sets.h), REPS times: A's row blocks are scattered (Scatterv), B
 * broadcast (Bcast), each block multiplied, C's row blocks gathered
 * (Gatherv), each phase between barriers and timed on every process; a
 * phase's time is the largest over the processes, averaged over the
 * repetitions. C is checked against a serial product on rank 0 after every
 * repetition: the entries of A and B are multiples of 1/8 in [-1, 1], so
 * every sum is exact and C must equal it bit for bit. */
#include <gsl/gsl_blas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpm_model.h"
#include "harness.h"
#include "report.h"
#include "straggler.h"
#include "timing.h"
#include "matmul_part.h"
#include "matmul_sets.h"
#include "watchdog.h"

#define MAX_ORDER 16384
#define MAX_ITEMS 32

enum { SCATTER, BCAST, COMPUTE, GATHER, PHASES };

/* The buffers of one order n: B everywhere, this process's blocks of A and
 * C, and on rank 0 the whole A, C and the serial product. */
struct mats {
    size_t n, *rows;
    int *counts, *displs; /* doubles per process, for Scatterv and Gatherv */
    double *A, *B, *C, *ref, *a, *c;
};

/* m (rows x cols, starting at row first) with exact values in [-1, 1]. */
static void fill(double *m, size_t rows, size_t cols, size_t first, unsigned ki, unsigned kj,
                 unsigned mod)
{
    for (size_t i = 0; i < rows; i++)
        for (size_t j = 0; j < cols; j++)
            m[i * cols + j] =
                ((double)(((i + first) * ki + j * kj) % mod) - (double)(mod / 2)) / 8.0;
}

static void multiply(const double *a, const double *b, double *c, size_t rows, size_t n)
{
    if (rows == 0)
        return;
    gsl_matrix_const_view A = gsl_matrix_const_view_array(a, rows, n);
    gsl_matrix_const_view B = gsl_matrix_const_view_array(b, n, n);
    gsl_matrix_view C = gsl_matrix_view_array(c, rows, n);
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, &A.matrix, &B.matrix, 0.0, &C.matrix);
    timing_compute(2.0 * (double)rows * (double)n * (double)n);
}

/* Rows per second of gsl_blas_dgemm on a block of rows of order n, run
 * again and again for at least least seconds (several periods of a CPU
 * quota, so that a limited process shows its limit). */
static double probe_speed(size_t n, size_t rows, double least)
{
    double *a = malloc(rows * n * sizeof *a), *b = malloc(n * n * sizeof *b),
           *c = malloc(rows * n * sizeof *c);
    if (!a || !b || !c)
        err_fatal("out of memory for the dgemm probe of order %zu", n);
    fill(a, rows, n, 0, 7, 3, 17);
    fill(b, n, n, 0, 5, 11, 13);
    size_t runs = 0;
    double t0 = MPI_Wtime(), elapsed;
    do {
        multiply(a, b, c, rows, n);
        runs++;
        elapsed = MPI_Wtime() - t0;
    } while (elapsed < least);
    free(a);
    free(b);
    free(c);
    return (double)(rows * runs) / elapsed;
}

static void *get(size_t count, bool *ok)
{
    void *p = count ? malloc(count * sizeof(double)) : NULL;
    *ok &= count == 0 || p != NULL;
    return p;
}

/* Speeds, the shares of the rows and the buffers for order n. */
static void setup(struct mats *m, size_t n, double least)
{
    int p = harness.size;
    memset(m, 0, sizeof *m);
    m->n = n;
    double speed = probe_speed(n, n / (size_t)p ? n / (size_t)p : 1, least);
    double *speeds = malloc((size_t)p * sizeof *speeds);
    m->rows = malloc((size_t)p * sizeof *m->rows);
    m->counts = malloc((size_t)p * sizeof *m->counts);
    m->displs = malloc((size_t)p * sizeof *m->displs);
    if (!speeds || !m->rows || !m->counts || !m->displs)
        err_fatal("out of memory for %d processes", p);
    MPI_CHECK(MPI_Allgather(&speed, 1, MPI_DOUBLE, speeds, 1, MPI_DOUBLE, MPI_COMM_WORLD));
    matmul_rows(speeds, p, n, m->rows);
    size_t at = 0;
    for (int r = 0; r < p; r++) {
        m->counts[r] = (int)(m->rows[r] * n);
        m->displs[r] = (int)at;
        at += m->rows[r] * n;
    }
    size_t mine = m->rows[harness.rank] * n, all = harness.rank == 0 ? n * n : 0;
    bool ok = true;
    m->B = get(n * n, &ok);
    m->a = get(mine, &ok);
    m->c = get(mine, &ok);
    m->A = get(all, &ok);
    m->C = get(all, &ok);
    m->ref = get(all, &ok);
    err_any(MPI_COMM_WORLD, !ok, ERR_STATUS_USAGE, "matrices of order %zu do not fit in memory", n);
    char line[1000];
    size_t used = (size_t)snprintf(line, sizeof line, "N %zu: dgemm rows/s by rank", n);
    for (int r = 0; r < p && used < sizeof line; r++)
        used += (size_t)snprintf(line + used, sizeof line - used, " %.4g", speeds[r]);
    out_comment("%s", line);
    used = (size_t)snprintf(line, sizeof line, "N %zu: rows of A by rank", n);
    for (int r = 0; r < p && used < sizeof line; r++)
        used += (size_t)snprintf(line + used, sizeof line - used, " %zu", m->rows[r]);
    out_comment("%s", line);
    free(speeds);
    if (harness.rank == 0) {
        fill(m->A, n, n, 0, 7, 3, 17);
        fill(m->B, n, n, 0, 5, 11, 13);
        multiply(m->A, m->B, m->ref, n, n);
    }
}

static void release(struct mats *m)
{
    free(m->rows);
    free(m->counts);
    free(m->displs);
    free(m->A);
    free(m->B);
    free(m->C);
    free(m->ref);
    free(m->a);
    free(m->c);
}

static void poison(double *x, size_t count)
{
    for (size_t k = 0; k < count; k++)
        x[k] = NAN;
}

/* One product with set s: the phase times of this process into t; on rank
 * 0 the number of entries of C that differ from the serial product. */
static size_t product(const struct matmul_set *s, struct mats *m, double t[PHASES])
{
    size_t n = m->n, rows = m->rows[harness.rank];
    int mine = (int)(rows * n);
    /* Nothing of an earlier product may pass for this one's. */
    poison(m->a, rows * n);
    if (harness.rank != 0)
        poison(m->B, n * n);
    else
        poison(m->C, n * n);
    double t0;
#define PHASE(k, call)                                                                             \
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));                                                        \
    t0 = MPI_Wtime();                                                                              \
    call;                                                                                          \
    t[k] = MPI_Wtime() - t0;
    PHASE(SCATTER,
          MPI_CHECK(matmul_scatterv(s, m->A, m->counts, m->displs, m->a, mine, MPI_COMM_WORLD)))
    PHASE(BCAST, MPI_CHECK(matmul_bcast(s, m->B, (int)(n * n), MPI_COMM_WORLD)))
    PHASE(COMPUTE, {
        multiply(m->a, m->B, m->c, rows, n);
        straggler_test_delay();
    })
    /* The test hook: one wrong entry of C must be found. A rank without
     * rows sends nothing, so then the root damages what it gathered. */
    int bad = buf_corrupt_rank();
    bool no_rows = bad >= 0 && bad < harness.size && m->rows[bad] == 0;
    if (rows > 0 && bad == harness.rank)
        m->c[0] += 1.0;
    PHASE(GATHER,
          MPI_CHECK(matmul_gatherv(s, m->c, mine, m->C, m->counts, m->displs, MPI_COMM_WORLD)))
#undef PHASE
    if (no_rows && harness.rank == 0)
        m->C[0] += 1.0;
    size_t wrong = 0;
    for (size_t k = 0; harness.rank == 0 && k < n * n; k++)
        wrong += !(m->C[k] == m->ref[k]);
    return wrong;
}

/* Comma-separated items of text into items (strdup'ed copy in *copy); an
 * empty item is refused. */
static size_t split(const char *text, const char *what, char **copy, char **items)
{
    size_t n = 0;
    char *rest = *copy = strdup(text), *tok;
    if (!*copy)
        err_fatal("out of memory");
    while ((tok = strsep(&rest, ",")) != NULL) {
        if (!*tok)
            err_usage("an empty item among the %s '%s'", what, text);
        if (n == MAX_ITEMS)
            err_usage("more than %d %s in '%s'", MAX_ITEMS, what, text);
        items[n++] = tok;
    }
    return n;
}

/* Reads the model file on rank 0 and gives the model to every process. */
static void load_model(const char *model, const char *path)
{
    const struct cpm_model_kind *kind = cpm_model_kind_find(model);
    if (!kind)
        err_usage("no model %s", model);
    void *instance = NULL;
    char err[600] = "";
    int bad = harness.rank == 0 &&
              cpm_model_read_file(path, kind, harness.size, &instance, err, sizeof err) != 0;
    err_any(MPI_COMM_WORLD, bad, ERR_STATUS_USAGE, "%s", err);
    MPI_CHECK(matmul_model_init(model, MPI_COMM_WORLD, instance));
    if (instance)
        kind->destroy(instance);
}

/* JSON: a row per set and order; the repetitions' totals are the row's
 * per-iteration values (--stats, --samples). */
static void declare_table(void)
{
    report_table("cpm_matmul", "total_s", REPORT_LOWER_BETTER, "total_s");
    report_key("set", REPORT_UNIT_TEXT);
    report_key("n", REPORT_UNIT_COUNT);
    report_value("scatter_s", REPORT_UNIT_S);
    report_value("bcast_s", REPORT_UNIT_S);
    report_value("compute_s", REPORT_UNIT_S);
    report_value("gather_s", REPORT_UNIT_S);
    report_value("total_s", REPORT_UNIT_S);
    if (report_stats()) {
        report_value("slowest_rank", REPORT_UNIT_COUNT);
        report_value("slowest_above_median_pct", REPORT_UNIT_PERCENT);
        report_value("slowest_host", REPORT_UNIT_TEXT);
    }
}

/* The line and the row of one set and order: phase times averaged over the
 * reps products (rank 0), totals[r] each product's total; with --stats the
 * process whose own time was the longest (slowest). */
static void print_row(const char *set, size_t n, const double sum[PHASES], const double *totals,
                      size_t reps, const struct straggler *slowest)
{
    static const char *const fields[PHASES] = {"scatter_s", "bcast_s", "compute_s", "gather_s"};
    double total = sum[SCATTER] + sum[BCAST] + sum[COMPUTE] + sum[GATHER];
    report_row_begin("cpm_matmul");
    report_row_string("set", set);
    report_row_size("n", n);
    for (int ph = 0; ph < PHASES; ph++)
        report_row_double(fields[ph], sum[ph]);
    report_row_double("total_s", total);
    struct stats_dispersion d;
    report_row_iterations(report_per_iteration() ? totals : NULL, reps, &d);
    char spread[128 + STRAGGLER_HOST] = "";
    if (report_stats()) {
        /* every process times every phase: one is always named */
        report_row_size("slowest_rank", (size_t)slowest->rank);
        report_row_double("slowest_above_median_pct", slowest->above_pct);
        report_row_string("slowest_host", slowest->host);
        snprintf(spread, sizeof spread, " %.6g %.6g %.6g %.6g %d %.2f %s", d.median, d.p5,
                 d.p95, d.cv, slowest->rank, slowest->above_pct, slowest->host);
    }
    report_row_end();
    out_line("%s %zu %.6g %.6g %.6g %.6g %.6g%s", set, n, sum[SCATTER], sum[BCAST], sum[COMPUTE],
             sum[GATHER], total, spread);
}

int main(int argc, char **argv)
{
    harness_init(&argc, &argv, MPI_THREAD_SINGLE);
    const char *orders_text = "512", *sets_text = NULL, *path = NULL;
    size_t reps = 3;
    double least = 0.25, timeout = 0.0;
    const struct opt_spec specs[] = {
        {.short_name = 'N', .kind = OPT_STRING, .dest = &orders_text, .metavar = "N,...",
         .help = "orders of the square matrices, 1 to 16384 (default 512)"},
        {.short_name = 'O', .kind = OPT_STRING, .dest = &sets_text, .metavar = "SET,...",
         .help = "collectives: native or MODEL_ALGORITHM, e.g. Hockney_dfs_binomial_min "
                 "(default native, and with -i Hockney_dfs_binomial_min,max)"},
        {.short_name = 'i', .kind = OPT_STRING, .dest = &path, .metavar = "FILE",
         .help = "model file of this many processes, for the model-based sets"},
        {.short_name = 'r', .kind = OPT_SIZE, .dest = &reps, .metavar = "N",
         .help = "products per set and order (default 3)", .min = 1, .max = 1000},
        {.short_name = 't', .kind = OPT_DOUBLE, .dest = &least, .metavar = "SECONDS",
         .help = "least time of each process's dgemm speed probe (default 0.25)"},
        WATCHDOG_OPT(&timeout),
    };
    struct opt_usage usage = {"[-N N,...] [-O SET,...] [-i FILE] [-r N] [-t SECONDS] "
                              "[--timeout=SECONDS]",
                              "Heterogeneous parallel matrix product C = A B: rows of A in "
                              "proportion to each\nprocess's dgemm speed (Scatterv), B "
                              "broadcast, C gathered (Gatherv); times\nof each phase per set of "
                              "collectives, C checked against a serial product.",
                              false, false, "cpm", NULL, NULL};
    int pos = opt_parse_or_exit(argc, argv, specs, sizeof specs / sizeof specs[0], &usage);
    if (pos < argc)
        err_usage("unexpected argument '%s' (try --help)", argv[pos]);
    if (least > 60)
        err_usage("-t %g: a probe of more than 60 s", least);
    watchdog_configure(timeout);
    straggler_enable();
    if (!sets_text)
        sets_text = path ? "native,Hockney_dfs_binomial_min,Hockney_dfs_binomial_max" : "native";
    char *orders_copy, *sets_copy, *items[MAX_ITEMS], err[400];
    size_t norders = split(orders_text, "orders", &orders_copy, items), orders[MAX_ITEMS];
    for (size_t k = 0; k < norders; k++)
        if (opt_to_size(items[k], "order", 1, MAX_ORDER, &orders[k], err, sizeof err) != 0)
            err_usage("-N: %s", err);
    size_t nsets = split(sets_text, "sets", &sets_copy, items);
    struct matmul_set sets[MAX_ITEMS];
    const char *model = NULL;
    for (size_t k = 0; k < nsets; k++) {
        if (matmul_set_parse(items[k], &sets[k], err, sizeof err) != 0)
            err_usage("-O: %s", err);
        if (!sets[k].model[0])
            continue;
        if (model && strcmp(model, sets[k].model) != 0)
            err_usage("-O: sets of the %s and the %s model; -i holds one model", model,
                      sets[k].model);
        model = sets[k].model;
    }
    if (model && !path)
        err_usage("-O %s: model-based collectives need a model file (-i)", sets_text);
    if (path && !model)
        err_usage("-i %s: no set of -O uses a model", path);
    if (model)
        load_model(model, path);

    out_header("CPM heterogeneous parallel matrix product", argc, argv);
    out_comment("processes: %d; repetitions: %zu; dgemm probe: at least %g s", harness.size, reps,
                least);
    if (timing_simulated())
        out_comment("dgemm under SimGrid's SMPI: 2 N^3 / P flops a process at the simulated "
                    "host's speed, since real work takes no simulated time");
    if (path)
        out_comment("model: %s from %s", model, path);
    for (size_t k = 0; k < nsets; k++) {
        char line[400];
        matmul_set_describe(&sets[k], line, sizeof line);
        out_comment("set %s: %s", sets[k].name, line);
    }
    out_comment("data: C checked against a serial product on rank 0 after every product");
    out_comment("times: seconds, the largest over the processes, mean of the repetitions");
    report_validation(true);
    declare_table();
    double totals[1000]; /* -r is at most 1000 */
    for (size_t o = 0; o < norders; o++) {
        struct mats m;
        setup(&m, orders[o], least);
        out_line("#set N scatter bcast compute gather total%s",
                 report_stats() ? " median p5 p95 cv slowest_rank slowest_above_median_pct "
                                  "slowest_host"
                                : "");
        for (size_t k = 0; k < nsets; k++) {
            double sum[PHASES] = {0}, t[PHASES], tmax[PHASES], own[1000];
            size_t wrong = 0;
            /* One set at one order is one step of --timeout. */
            watchdog_arm(NULL, "set %s, N %zu", sets[k].name, m.n);
            for (size_t r = 0; r < reps; r++) {
                watchdog_enter(r + 1);
                wrong += product(&sets[k], &m, t);
                watchdog_leave();
                MPI_CHECK(MPI_Reduce(t, tmax, PHASES, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD));
                totals[r] = own[r] = 0.0;
                for (int ph = 0; ph < PHASES; ph++) {
                    own[r] += t[ph];
                    sum[ph] += tmax[ph] / (double)reps;
                    totals[r] += tmax[ph];
                }
            }
            if (wrong)
                out_comment("Fail: set %s, N %zu: %zu entries of C differ from the serial product",
                            sets[k].name, m.n, wrong);
            err_check(MPI_COMM_WORLD, wrong > 0, "set %s, N %zu: C differs from the serial product",
                      sets[k].name, m.n);
            watchdog_disarm();
            struct straggler slowest = {0};
            if (report_stats())
                straggler_find(own, reps, true, MPI_COMM_WORLD, &slowest);
            print_row(sets[k].name, m.n, sum, totals, reps, &slowest);
        }
        out_block_end();
        release(&m);
    }
    if (model)
        MPI_CHECK(matmul_model_finalize(model, MPI_COMM_WORLD));
    free(orders_copy);
    free(sets_copy);
    harness_finish(ERR_STATUS_OK);
}
