/* coll_compute: timed CPU work with MPI_Test calls; see coll_compute.h. */
#include "coll_compute.h"

#include "err.h"
#include "timing.h"

/* Global so the compiler cannot drop the work as unused. */
double coll_compute_sink[64];

static void compute_burst(void)
{
    for (int i = 0; i < 64; i++)
        coll_compute_sink[i] = coll_compute_sink[i] * 0.999999 + 1e-6 * (double)i;
}

double coll_compute(double seconds, MPI_Request *req, size_t tests, double *test_took)
{
    double start = timing_now(), now = start, testing = 0;
    size_t done = 0;
    for (;;) {
        /* Every test whose moment has come, including all that remain once
         * the time is up, so exactly tests calls are made. */
        double computed = now - start - testing;
        while (done < tests && computed >= seconds * (double)(done + 1) / (double)(tests + 1)) {
            int flag = 0;
            double t0 = timing_now();
            MPI_CHECK(MPI_Test(req, &flag, MPI_STATUS_IGNORE));
            testing += timing_now() - t0;
            done++;
        }
        if (computed >= seconds)
            break;
        compute_burst();
        now = timing_now();
    }
    *test_took = testing;
    return timing_now() - start - testing;
}
