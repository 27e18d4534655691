/* nap: waiting without spinning; see nap.h. */
#include "nap.h"

#include <errno.h>
#include <math.h>
#include <time.h>

#include "err.h"
#include "timing.h"

void nap(double seconds)
{
    if (!(seconds > 0.0))
        return;
    if (timing_simulated()) { /* a simulated process sleeps in simulated time */
        timing_busy(seconds);
        return;
    }
    struct timespec t = {(time_t)seconds, (long)((seconds - floor(seconds)) * 1e9)};
    while (nanosleep(&t, &t) != 0 && errno == EINTR)
        ;
}

void nap_wait(MPI_Request *req, MPI_Status *status, double pause)
{
    /* Simulated processes share no core, and each real pause would stop
     * the whole simulation: SMPI's own wait. */
    if (timing_simulated()) {
        MPI_CHECK(MPI_Wait(req, status));
        return;
    }
    int done = 0;
    MPI_CHECK(MPI_Test(req, &done, status));
    while (!done) {
        nap(pause);
        MPI_CHECK(MPI_Test(req, &done, status));
    }
}
