/* cpm_diag: the CPM diagnostic tools' shared bits; see cpm_diag.h. */
#include "cpm_diag.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

_Noreturn void cpm_diag_usage(const char *usage)
{
    int up = 0, rank = 0;
    MPI_Initialized(&up);
    if (up)
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        fprintf(stderr, "usage: %s\n", usage);
    if (up)
        MPI_Finalize();
    exit(2);
}

/* text as a count of at least least. */
static bool count_of(const char *text, size_t least, size_t *v)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(text, &end, 10);
    if (end == text || *end || errno || text[0] == '-' || x < least || x > SIZE_MAX / 2)
        return false;
    *v = (size_t)x;
    return true;
}

void cpm_diag_start(int *argc, char ***argv, int min_procs, int nargs, const size_t *dflt,
                    const size_t *least, const char *usage, struct cpm_diag_args *a)
{
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &a->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &a->n);
    if (a->n < min_procs || *argc > nargs + 1 || nargs > CPM_DIAG_MAX_ARGS || nargs < 1)
        cpm_diag_usage(usage);
    for (int k = 0; k < nargs; k++) {
        a->v[k] = dflt[k];
        if (k + 1 < *argc && !count_of((*argv)[k + 1], least[k], &a->v[k]))
            cpm_diag_usage(usage);
    }
    a->precision = (struct cpm_precision)CPM_PRECISION_DEFAULT;
    a->precision.max_reps = a->v[nargs - 1];
}

double cpm_diag_rel_err(double pred, double truth) { return fabs(pred - truth) / truth; }
