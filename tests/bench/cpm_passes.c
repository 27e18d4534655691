/* cpm_passes: one measurement taken several times in one launch, to see
 * what the first pass over the pairs pays that the next ones do not
 * (connection set-up, buffers touched for the first time) and how far two
 * passes of the same launch lie apart.
 *   cpm_passes [SIZE [PASSES [MAX_REPS]]]      (1024, 3, 100)
 * Each pass is libcpm's cpm_measure_p2p at SIZE bytes (serial pairs, the
 * default precision but for MAX_REPS). Rank 0 prints per pair the one-way
 * time of every pass (us, half the mean round trip) with its repetitions,
 * and pass 1 against pass 2; then, for every pass k > 1, the median and the
 * largest |pass k-1 / pass k - 1| over the pairs. */
#include <stdio.h>
#include <stdlib.h>

#include "cpm_diag.h"
#include "stats.h"

static const char usage[] = "mpirun -n N cpm_passes [SIZE [PASSES [MAX_REPS]]], N >= 2, "
                            "PASSES >= 2, MAX_REPS >= 5";

int main(int argc, char **argv)
{
    static const size_t dflt[] = {1024, 3, 100}, least[] = {0, 2, 5};
    struct cpm_diag_args a;
    cpm_diag_start(&argc, &argv, 2, 3, dflt, least, usage, &a);
    size_t size = a.v[0], passes = a.v[1], pairs = cpm_pairs(a.n);
    struct cpm_result *r = calloc(passes * pairs, sizeof *r);
    double *apart = calloc(pairs, sizeof *apart);
    if (!r || !apart)
        cpm_diag_usage("cpm_passes: out of memory");
    for (size_t k = 0; k < passes; k++)
        cpm_measure_p2p(MPI_COMM_WORLD, size, false, &a.precision, r + k * pairs);
    if (a.rank == 0) {
        printf("# cpm_passes: %d processes, %zu passes over the pairs at %zu bytes in one launch\n"
               "# i j, then per pass: one-way us (repetitions); pass 1 / pass 2 - 1\n",
               a.n, passes, size);
        for (size_t q = 0; q < pairs; q++) {
            int i, j;
            cpm_pair_at(a.n, q, &i, &j);
            printf("%d %d", i, j);
            for (size_t k = 0; k < passes; k++)
                printf("  %8.3f (%zu)", r[k * pairs + q].time * 5e5, r[k * pairs + q].reps);
            printf("  %+6.1f%%\n", 100.0 * (r[q].time / r[pairs + q].time - 1.0));
        }
        for (size_t k = 1; k < passes; k++) {
            for (size_t q = 0; q < pairs; q++)
                apart[q] = cpm_diag_rel_err(r[(k - 1) * pairs + q].time, r[k * pairs + q].time);
            printf("# pass %zu against pass %zu: median %.1f%%, largest %.1f%% over the pairs\n", k,
                   k + 1, 100.0 * stats_median(apart, pairs), 100.0 * stats_max(apart, pairs));
        }
    }
    free(r);
    free(apart);
    MPI_Finalize();
    return 0;
}
