/* model: measures a communication performance model and writes its file
 * (run under mpirun): model -C MODEL -o FILE, MODEL one of the registry's
 * kinds that can be estimated. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cpm_model.h"
#include "harness.h"
#include "ofile.h"

/* A kind's notes on its estimate become '#' lines. */
static void print_note(const char *text, void *ctx)
{
    (void)ctx;
    out_comment("%s", text);
}

int main(int argc, char **argv)
{
    harness_init(&argc, &argv, MPI_THREAD_SINGLE);
    const char *const *names = cpm_model_kind_names(true);
    char list[200], kind_help[260];
    cli_join_names(names, list, sizeof list);
    snprintf(kind_help, sizeof kind_help, "%s (required)", list);

    struct cli_common c;
    int kind_index = -1;
    const char *path = NULL;
    bool two_point = false, homogeneous = false;
    const struct opt_spec extra[] = {
        {.short_name = 'C', .kind = OPT_CHOICE, .dest = &kind_index, .metavar = "MODEL",
         .help = kind_help, .choices = names},
        {.short_name = 'o', .kind = OPT_STRING, .dest = &path, .metavar = "FILE",
         .help = "the model file to write (required)"},
        {.long_name = "two-point", .kind = OPT_FLAG, .dest = &two_point,
         .help = "Hockney from round trips of 0 and -M bytes instead of a regression"},
        {.long_name = "homogeneous", .kind = OPT_FLAG, .dest = &homogeneous,
         .help = "LMO with one set of parameters for all processors"},
    };
    cli_parse(argc, argv, &c, extra, sizeof extra / sizeof extra[0],
              "-C MODEL -o FILE [options]",
              "Estimates a communication performance model over the ranks of the run\n"
              "and writes it to FILE, for the prediction tool. Its cost grows with the\n"
              "ranks n by nature: Hockney, LinInterp and PLogP measure every pair\n"
              "(n(n-1)/2 experiments a size, n - 1 rounds with -p) and hold n^2 figures\n"
              "on rank 0; LMO measures every triplet (n(n-1)(n-2)/6), n^3 on rank 0.",
              "model writes what it measures into the model file, not into rows",
              false);
    if (kind_index < 0)
        err_usage("choose a model with -C (%s)", list);
    if (!path)
        err_usage("name the model file with -o");
    const struct cpm_model_kind *kind = cpm_model_kind_find(names[kind_index]);

    struct cpm_estimate_args a = {MPI_COMM_WORLD, c.msgset, c.precision, c.parallel, two_point,
                                  homogeneous};
    char err[256] = "";
    if (harness.size < kind->min_procs)
        err_usage("the %s model needs at least %d processes", kind->name, kind->min_procs);
    if (kind->check && kind->check(&a, err, sizeof err) != 0)
        err_usage("%s", err);
    struct ofile file;
    char why[600] = "";
    bool refused = harness.rank == 0 && ofile_open(&file, path, why, sizeof why) != 0;
    err_any(MPI_COMM_WORLD, refused, ERR_STATUS_USAGE, "%s", why);

    out_header("CPM model builder", argc, argv);
    out_comment("model: %s%s", kind->name, homogeneous ? " (homogeneous)" : "");
    cli_preamble(&c, harness.size);
    double t0 = MPI_Wtime();
    void *model = NULL;
    /* Every rank gets the same verdict; the message is on rank 0. */
    int failed = kind->estimate(&a, &model, err, sizeof err) != 0;
    double elapsed = MPI_Wtime() - t0;
    if (harness.rank == 0 && !failed) {
        cpm_model_write_stream(file.f, kind, model); /* a failed write: ofile_close */
        if (kind->report)
            kind->report(model, &a, print_note, NULL);
        kind->destroy(model);
    }
    if (harness.rank == 0 && failed)
        ofile_discard(&file);
    else if (harness.rank == 0)
        ofile_close(&file);
    /* Also ends every rank with ERR_STATUS_WRITE when the file failed. */
    err_any(MPI_COMM_WORLD, failed && harness.rank == 0, ERR_STATUS_FAIL, "%s", err);
    out_comment("estimation time: %.6f s", elapsed);
    out_comment("model written to %s", path);
    harness_finish(ERR_STATUS_OK);
}
