/* nap: waiting without spinning; see nap.h. */
#include "nap.h"

#include <errno.h>
#include <math.h>
#include <time.h>

#include "err.h"

void nap(double seconds)
{
    if (!(seconds > 0.0))
        return;
    struct timespec t = {(time_t)seconds, (long)((seconds - floor(seconds)) * 1e9)};
    while (nanosleep(&t, &t) != 0 && errno == EINTR)
        ;
}

void nap_wait(MPI_Request *req, MPI_Status *status, double pause)
{
    int done = 0;
    MPI_CHECK(MPI_Test(req, &done, status));
    while (!done) {
        nap(pause);
        MPI_CHECK(MPI_Test(req, &done, status));
    }
}
