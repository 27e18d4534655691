/* coll_compute: timed CPU work with MPI_Test calls; see coll_compute.h. */
#include "coll_compute.h"

#include "err.h"
#include "timing.h"

double coll_compute(double seconds, MPI_Request *req, size_t tests, double *test_took)
{
    double start = timing_now(), testing = 0;
    double slice = seconds / (double)(tests + 1);
    /* tests + 1 equal slices of work, a test between each two. */
    for (size_t done = 0;; done++) {
        timing_busy(slice);
        if (done == tests)
            break;
        int flag = 0;
        double t0 = timing_now();
        MPI_CHECK(MPI_Test(req, &flag, MPI_STATUS_IGNORE));
        testing += timing_now() - t0;
    }
    *test_took = testing;
    return timing_now() - start - testing;
}
