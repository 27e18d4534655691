/* coll_test: the seed's test of model-based collectives (5.3): rank 0 reads
 * a Hockney model file, Hockney_initialize gives every process the model,
 * a model-based broadcast runs and every process checks what it got.
 *   coll_test -i model.out [-O Bcast|Scatter|Gather|Reduce] [--root R] [-m BYTES] */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cpm_coll_models.h"
#include "cpm_hockney.h"
#include "harness.h"

int main(int argc, char **argv)
{
    harness_init(&argc, &argv, MPI_THREAD_SINGLE);
    const char *path = NULL;
    size_t root = 0, count = 1024;
    const struct opt_spec specs[] = {
        {.short_name = 'i', .kind = OPT_STRING, .dest = &path, .metavar = "FILE",
         .help = "Hockney model file of this many processes (required)"},
        {.long_name = "root", .kind = OPT_SIZE, .dest = &root, .metavar = "RANK",
         .help = "root of the broadcast (default 0)"},
        {.short_name = 'm', .kind = OPT_SIZE, .dest = &count, .metavar = "BYTES",
         .help = "bytes to broadcast (default 1024)", .max = 1u << 30},
    };
    struct opt_usage usage = {"-i FILE [--root R] [-m BYTES]",
                              "Reads a Hockney model on rank 0, distributes it, broadcasts "
                              "with Hockney_Bcast_ucs_binomial_min and checks the data.",
                              false, false};
    int pos = opt_parse_or_exit(argc, argv, specs, sizeof specs / sizeof specs[0], &usage);
    if (pos < argc)
        err_usage("unexpected argument '%s' (try --help)", argv[pos]);
    if (!path)
        err_usage("the model file is required: -i FILE");
    if (root >= (size_t)harness.size)
        err_usage("root %zu is not below the number of processes %d", root, harness.size);

    void *model = NULL;
    char err[400] = "";
    int bad = harness.rank == 0 && cpm_model_read_file(path, &cpm_hockney_kind, harness.size,
                                                       &model, err, sizeof err) != 0;
    err_any(MPI_COMM_WORLD, bad, ERR_STATUS_USAGE, "%s", err);
    MPI_CHECK(Hockney_initialize(MPI_COMM_WORLD, model));
    if (model)
        cpm_hockney_free(model);

    unsigned char *buffer = malloc(count ? count : 1);
    err_any(MPI_COMM_WORLD, !buffer, ERR_STATUS_USAGE, "cannot allocate %zu bytes", count);
    for (size_t i = 0; i < count; i++)
        buffer[i] = harness.rank == (int)root ? (unsigned char)buf_pattern((int)root, 0, i) : 0xFF;
    MPI_CHECK(Hockney_Bcast_ucs_binomial_min(buffer, (int)count, MPI_CHAR, (int)root,
                                             MPI_COMM_WORLD));
    if (count && buf_corrupt_requested(harness.rank))
        buffer[0] ^= 1;
    size_t wrong = 0;
    for (size_t i = 0; i < count; i++)
        wrong += buffer[i] != (unsigned char)buf_pattern((int)root, 0, i);
    free(buffer);
    MPI_CHECK(Hockney_finalize(MPI_COMM_WORLD));
    err_any(MPI_COMM_WORLD, wrong > 0, 1, "rank %d received %zu wrong bytes", harness.rank, wrong);
    if (harness.rank == 0)
        out_line("# Hockney_Bcast_ucs_binomial_min of %zu bytes from root %zu on %d processes: ok",
                 count, root, harness.size);
    harness_finish(ERR_STATUS_OK);
}
