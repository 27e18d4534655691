/* model: measures a communication performance model and writes its file
 * (run under mpirun): model -C Hockney|LinInterp|PLogP|LMO -o FILE. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cpm_lmo.h"
#include "cpm_model.h"
#include "harness.h"

static const char *const measured_kinds[] = {"Hockney", "LinInterp", "PLogP", "LMO", NULL};

int main(int argc, char **argv)
{
    harness_init(&argc, &argv, MPI_THREAD_SINGLE);
    struct cli_common c;
    int kind_index = -1;
    const char *path = NULL;
    bool two_point = false, homogeneous = false;
    const struct opt_spec extra[] = {
        {.short_name = 'C', .kind = OPT_CHOICE, .dest = &kind_index, .metavar = "MODEL",
         .help = "Hockney, LinInterp, PLogP or LMO (required)", .choices = measured_kinds},
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
              "and writes it to FILE, for the prediction tool.");
    if (kind_index < 0)
        err_usage("choose a model with -C (Hockney, LinInterp, PLogP or LMO)");
    if (!path)
        err_usage("name the model file with -o");
    const struct cpm_model_kind *kind = cpm_model_kind_find(measured_kinds[kind_index]);
    if (two_point && kind_index != 0)
        err_usage("--two-point applies to the Hockney model only");
    if (homogeneous && kind_index != 3)
        err_usage("--homogeneous applies to the LMO model only");

    struct cpm_estimate_args a = {MPI_COMM_WORLD, c.msgset, c.precision, c.parallel, two_point,
                                  homogeneous};
    char err[256];
    if (harness.size < kind->min_procs)
        err_usage("the %s model needs at least %d processes", kind->name, kind->min_procs);
    if (kind->check && kind->check(&a, err, sizeof err) != 0)
        err_usage("%s", err);
    FILE *f = NULL;
    if (harness.rank == 0)
        f = fopen(path, "w");
    err_any(MPI_COMM_WORLD, harness.rank == 0 && !f, ERR_STATUS_USAGE,
            "cannot write model file %s", path);

    out_header("CPM model builder", argc, argv);
    out_comment("model: %s%s", kind->name, homogeneous ? " (homogeneous)" : "");
    cli_preamble(&c, harness.size);
    double t0 = MPI_Wtime();
    void *model = kind->estimate(&a);
    double elapsed = MPI_Wtime() - t0;
    int bad = 0;
    if (harness.rank == 0) {
        bad = cpm_model_write_stream(f, kind, model) != 0;
        bad |= fclose(f) != 0;
        if (kind_index == 3) {
            const struct cpm_lmo *l = model;
            out_comment("LMO: largest relative confidence interval over triplets: %g%s",
                        l->worst_ci, l->worst_ci > c.precision.eps ? " (above eps)" : "");
        }
        kind->free(model);
    }
    err_any(MPI_COMM_WORLD, bad, ERR_STATUS_FAIL, "writing model file %s failed", path);
    out_comment("estimation time: %.6f s", elapsed);
    out_comment("model written to %s", path);
    harness_finish(ERR_STATUS_OK);
}
