/* timing: cross-rank reductions of times; see timing.h. */
#include "timing.h"

#include <limits.h>
#ifdef COMMSWEEP_SMPI
#include <simgrid/host.h>
#endif

#include "err.h"

/* Reductions in chunks so that n never has to fit an int count. */
#define TIMING_CHUNK ((size_t)1 << 20)

void timing_max_per_iteration(const double *local, double *global, size_t n, int root,
                              MPI_Comm comm)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    for (size_t off = 0; off < n; off += TIMING_CHUNK) {
        int c = (int)(n - off < TIMING_CHUNK ? n - off : TIMING_CHUNK);
        MPI_CHECK(MPI_Reduce(local + off, rank == root ? global + off : NULL, c, MPI_DOUBLE,
                             MPI_MAX, root, comm));
    }
}

void timing_allmax(const double *local, double *global, size_t n, MPI_Comm comm)
{
    for (size_t off = 0; off < n; off += TIMING_CHUNK) {
        int c = (int)(n - off < TIMING_CHUNK ? n - off : TIMING_CHUNK);
        MPI_CHECK(MPI_Allreduce(local + off, global + off, c, MPI_DOUBLE, MPI_MAX, comm));
    }
}

void timing_across_ranks(double local, double *min, double *avg, double *max, int root,
                         MPI_Comm comm)
{
    int size;
    double sum = 0.0, lo = 0.0, hi = 0.0;
    MPI_Comm_size(comm, &size);
    MPI_CHECK(MPI_Reduce(&local, &lo, 1, MPI_DOUBLE, MPI_MIN, root, comm));
    MPI_CHECK(MPI_Reduce(&local, &hi, 1, MPI_DOUBLE, MPI_MAX, root, comm));
    MPI_CHECK(MPI_Reduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, root, comm));
    if (min)
        *min = lo;
    if (max)
        *max = hi;
    if (avg)
        *avg = sum / size;
}

/* Global so the compiler cannot drop the work as unused. */
double timing_busy_sink[64];

void timing_compute(double flops)
{
#ifdef COMMSWEEP_SMPI
    if (flops > 0)
        smpi_execute_flops(flops);
#else
    (void)flops;
#endif
}

void timing_busy(double seconds)
{
#ifdef COMMSWEEP_SMPI
    /* As operations at the host's speed: smpi_execute drops a duration
     * under smpi/cpu-threshold (1 us), where a wait for a start would spin. */
    if (seconds > 0)
        smpi_execute_flops(seconds * sg_host_get_speed(sg_host_self()));
#else
    double until = timing_now() + seconds;
    do {
        for (int i = 0; i < 64; i++)
            timing_busy_sink[i] = timing_busy_sink[i] * 0.999999 + 1e-6 * (double)i;
    } while (timing_now() < until);
#endif
}
