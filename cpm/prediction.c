/* prediction: predicted communication times from a model file, without an
 * MPI run: prediction -n NP -O OPERATION -i FILE -C MODEL -m MIN -M MAX. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cpm_coll_models.h"
#include "cpm_model.h"
#include "cpm_predict.h"
#include "err.h"
#include "harness.h"
#include "opt.h"
#include "out.h"
#include "report.h"
#include "version.h"

/* Operations every model can predict through its point-to-point times. */
struct generic_op {
    const char *name, *alias, *help;
    int flat; /* 1 serial flat, 2 parallel flat, 0 binomial */
    enum cpm_coll_op op;
};

static const struct generic_op generic_ops[] = {
    {"scatter_flat_serial", "MPIB_Scatter_flat", "flat scatter, transfers one after another", 1,
     CPM_COLL_SCATTER},
    {"gather_flat_serial", "MPIB_Gather_flat", "flat gather, transfers one after another", 1,
     CPM_COLL_GATHER},
    {"scatter_flat_parallel", NULL, "flat scatter, all transfers at once", 2, CPM_COLL_SCATTER},
    {"gather_flat_parallel", NULL, "flat gather, all transfers at once", 2, CPM_COLL_GATHER},
    {"bcast_binomial", "MPIB_Bcast_binomial", "binomial tree broadcast", 0, CPM_COLL_BCAST},
    {"reduce_binomial", "MPIB_Reduce_binomial", "binomial tree reduce", 0, CPM_COLL_REDUCE},
    {"scatter_binomial", "MPIB_Scatter_binomial", "binomial tree scatter", 0, CPM_COLL_SCATTER},
    {"gather_binomial", "MPIB_Gather_binomial", "binomial tree gather", 0, CPM_COLL_GATHER},
};
enum { NGENERIC = sizeof generic_ops / sizeof generic_ops[0] };

static double predict_generic(const struct generic_op *g, const struct cpm_predictor *p, int n,
                              int root, size_t m)
{
    if (g->flat == 1)
        return cpm_predict_flat_sg_serial(p, n, root, m);
    if (g->flat == 2)
        return cpm_predict_flat_sg_parallel(p, n, root, m);
    return cpm_predict_brsg(p, n, root, m, g->op);
}

static void list_operations(char *out, size_t len)
{
    size_t used = (size_t)snprintf(out, len, "p2p");
    for (size_t k = 0; k < NGENERIC && used < len; k++)
        used += (size_t)snprintf(out + used, len - used, ", %s", generic_ops[k].name);
    if (used < len)
        snprintf(out + used, len - used, " or one of the model's own");
}

/* The models' own operations, from the registry: "MODEL: name: help" lines. */
static void list_own_operations(char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (const char *const *name = cpm_model_kind_names(false); *name && used < len; name++) {
        const struct cpm_model_kind *kind = cpm_model_kind_find(*name);
        for (size_t k = 0; k < kind->ncolls && used < len; k++)
            used += (size_t)snprintf(out + used, len - used, "\n  %s: %s: %s", kind->name,
                                     kind->colls[k].name, kind->colls[k].help);
    }
}

/* The JSON table of the predictions: computed, not measured. */
static void declare_table(bool pairs)
{
    report_table("cpm_prediction", "time_s", REPORT_LOWER_BETTER, NULL);
    report_no_iterations();
    if (pairs) {
        report_key("rank_i", REPORT_UNIT_COUNT);
        report_key("rank_j", REPORT_UNIT_COUNT);
    }
    report_key("size_bytes", REPORT_UNIT_BYTES);
    report_value("time_s", REPORT_UNIT_S);
}

/* The most sizes one run predicts (per pair for p2p). */
#define PREDICTION_MAX_SIZES 1000000

/* Every model file is checked so that no prediction can be negative or
 * not finite; one that is anyway is a defect, never a number to print. */
static void print_time(size_t m, double t)
{
    if (!(t >= 0.0 && isfinite(t)))
        err_exit_all(ERR_STATUS_FAIL, "the prediction at %zu bytes came out as %g", m, t);
    out_line("%zu %.9g", m, t);
    report_row_begin("cpm_prediction");
    report_row_size("size_bytes", m);
    report_row_double("time_s", t);
    report_row_end();
}

int main(int argc, char **argv)
{
    /* No MPI: of harness_init's setup only harness_prepare's applies (the
     * program name, line buffering, the command line). */
    harness_prepare(argv);

    size_t np = 0, min = 0, max = 65536, stride = 0, root = 0;
    const char *op_name = NULL, *path = NULL;
    bool dot = false;
    int kind_index = -1;
    const char *const *names = cpm_model_kind_names(false);
    char list[200], kind_help[260];
    cli_join_names(names, list, sizeof list);
    snprintf(kind_help, sizeof kind_help, "%s (required)", list);
    const struct opt_spec specs[] = {
        {.short_name = 'n', .kind = OPT_SIZE, .dest = &np, .metavar = "NP",
         .help = "number of processes (required, as in the model file)", .min = 1,
         .max = CPM_MAX_PROCESSES},
        {.short_name = 'O', .kind = OPT_STRING, .dest = &op_name, .metavar = "OPERATION",
         .help = "p2p or a collective (required; --help lists them)"},
        {.short_name = 'i', .kind = OPT_STRING, .dest = &path, .metavar = "FILE",
         .help = "model file written by model (required)"},
        {.short_name = 'C', .kind = OPT_CHOICE, .dest = &kind_index, .metavar = "MODEL",
         .help = kind_help, .choices = names},
        {.short_name = 'm', .kind = OPT_SIZE, .dest = &min, .metavar = "BYTES",
         .help = "minimum message size (default 0)"},
        {.short_name = 'M', .kind = OPT_SIZE, .dest = &max, .metavar = "BYTES",
         .help = "maximum message size (default 65536)"},
        {.short_name = 'S', .kind = OPT_SIZE, .dest = &stride, .metavar = "BYTES",
         .help = "stride between sizes, -M itself last, as collective's; 0 (default): sizes "
                 "doubling from -m up to -M"},
        {.long_name = "root", .kind = OPT_SIZE, .dest = &root, .metavar = "RANK",
         .help = "root of a collective (default 0)"},
        {.long_name = "dot", .kind = OPT_FLAG, .dest = &dot,
         .help = "model-based operation: print its tree at MIN bytes as Graphviz DOT"},
    };
    char ops[600], own_ops[1600], description[3000];
    list_operations(ops, sizeof ops);
    list_own_operations(own_ops, sizeof own_ops);
    snprintf(description, sizeof description,
             "Predicts communication times from a model file; needs no MPI run.\n"
             "Operations: %s.\nThe models' own:%s\n"
             "Model-based collectives of libcpm_coll (the model's name first, e.g.\n"
             "  Hockney_Scatter_dfs_binomial_min): X_{Bcast,Reduce,Scatter,Gather,Scatterv,"
             "Gatherv}_{dfs,bfs,ucs}_binomial_{min,max},\n  X_{Scatterv,Gatherv}_sorted_flat_"
             "{asc,dsc}, X_{Scatterv,Gatherv}_Traff, LMO_{Scatter,Gather}_split_flat;\n"
             "  predicted from the tree the operation builds (--dot prints it)",
             ops, own_ops);
    struct opt_usage usage = {"-n NP -O OPERATION -i FILE -C MODEL [-m MIN] [-M MAX] [-S STRIDE] "
                              "[--root R] [--dot]",
                              description, false, false, "cpm",
                              "prediction computes times from a model and measures nothing",
                              NULL};
    int pos = opt_parse_or_exit(argc, argv, specs, sizeof specs / sizeof specs[0], &usage);
    if (pos < argc)
        err_usage("unexpected argument '%s' (try --help)", argv[pos]);
    if (!np || !op_name || !path || kind_index < 0)
        err_usage("-n, -O, -i and -C are required (try --help)");
    if (min > max)
        err_usage("minimum message size %zu exceeds maximum %zu", min, max);
    /* Doubling gives at most 65 sizes; a stride could ask for 2^64. */
    if (stride && (max - min) / stride >= PREDICTION_MAX_SIZES - 1)
        err_usage("-m %zu -M %zu -S %zu: more than %d sizes (a larger -S or doubling, -S 0)",
                  min, max, stride, PREDICTION_MAX_SIZES);
    if (root >= np)
        err_usage("root %zu is not below the number of processes %zu", root, np);

    const struct cpm_model_kind *kind = cpm_model_kind_find(names[kind_index]);
    const struct generic_op *generic = NULL;
    const struct cpm_coll_prediction *own = NULL;
    bool p2p = strcmp(op_name, "p2p") == 0;
    for (size_t k = 0; k < NGENERIC; k++)
        if (strcmp(op_name, generic_ops[k].name) == 0 ||
            (generic_ops[k].alias && strcmp(op_name, generic_ops[k].alias) == 0))
            generic = &generic_ops[k];
    for (size_t k = 0; k < kind->ncolls; k++)
        if (strcmp(op_name, kind->colls[k].name) == 0)
            own = &kind->colls[k];
    const struct cpm_coll_entry *based = cpm_coll_op_find(op_name);
    if (based && strcmp(based->model, kind->name) != 0)
        err_usage("%s is an operation of the %s model, not of %s", op_name, based->model,
                  kind->name);
    if (dot && (!based || based->lmo_split))
        err_usage("--dot needs a model-based tree operation such as Hockney_Bcast_ucs_binomial_min");
    if (dot && report_jsonl())
        err_usage("--dot prints the tree in Graphviz DOT, not JSON Lines: leave out --format=jsonl");
    if (!p2p && !generic && !own && !based)
        err_usage("unknown operation '%s' for the %s model: %s", op_name, kind->name, ops);
    /* A collective's root sends or receives every process's bytes (a
     * scatter's first edge carries them all): the sum must be a size. */
    if (!p2p && max > SIZE_MAX / np)
        err_usage("maximum message size %zu times %zu processes does not fit in 64 bits", max,
                  np);

    void *model;
    char err[400];
    /* The file's process count is checked against -n before the model is
     * allocated. */
    if (cpm_model_read_file(path, kind, (int)np, &model, err, sizeof err) != 0)
        err_usage("%s", err);
    const struct cpm_predictor *p = kind->predictor(model);
    if (dot) {
        struct cpm_tree t;
        char title[300];
        if (cpm_coll_op_tree(based, model, (int)np, (int)root, min, &t) != MPI_SUCCESS)
            err_usage("cannot build the tree of %s", op_name);
        snprintf(title, sizeof title, "%s, %s, root %zu, %zu bytes per process", op_name, path,
                 root, min);
        cpm_tree_dot(stdout, &t, p, cpm_coll_op_dir(based->op), min, title);
        cpm_tree_free(&t);
        kind->destroy(model);
        return 0;
    }

    out_comment("CPM prediction (commsweep %s)", COMMSWEEP_VERSION);
    report_header_string("title", "CPM prediction");
    declare_table(p2p);
    out_comment("model: %s from %s, processors: %zu", kind->name, path, np);
    out_comment("operation: %s", op_name);
    if (!p2p)
        out_comment("root: %zu", root);
    out_comment("message sizes: %zu to %zu, %s %zu", min, max, stride ? "stride" : "doubling from",
                stride ? stride : min);
    /* The sizes collective measures with the same -m, -M and -S: MIN
     * doubling up to MAX, or MIN by STRIDE with MAX itself last. */
    const struct cpm_msgset sizes = {min, max, stride, 0.1, 1, SIZE_MAX, stride == 0};
    if (p2p) {
        for (int i = 0; i < (int)np; i++)
            for (int j = 0; j < (int)np; j++) {
                if (i == j)
                    continue;
                out_comment("pair %d %d", i, j);
                report_context_size("rank_i", (size_t)i);
                report_context_size("rank_j", (size_t)j);
                out_line("#msg time");
                size_t m = min;
                do
                    print_time(m, cpm_predict_p2p(p, i, j, m));
                while (cpm_msgset_after(&sizes, m, &m));
                out_block_end();
            }
    } else {
        out_line("#msg time");
        size_t m = min;
        do
            print_time(m, own     ? own->predict(model, (int)root, m)
                          : based ? cpm_coll_op_predict(based, model, (int)np, (int)root, m)
                                  : predict_generic(generic, p, (int)np, (int)root, m));
        while (cpm_msgset_after(&sizes, m, &m));
    }
    kind->destroy(model);
    err_finish(ERR_STATUS_OK); /* the JSON summary */
}
