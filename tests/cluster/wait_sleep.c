/*
 * wait_sleep: preloaded (LD_PRELOAD) into the ranks of the emulated cluster
 * so that a rank with nothing to do sleeps briefly instead of spinning.
 * Open MPI with mpi_yield_when_idle calls sched_yield() from its progress
 * loop whenever a pass found no work; on a machine with fewer cores than
 * ranks, yielding alone still leaves the waiting ranks runnable, and they
 * take the processor from the pair that is communicating (measured: a 1 gbit
 * link seen at 600-830 Mbit/s with two idle ranks on two cores, against
 * 950-980 Mbit/s when they sleep). The pause is short next to the transfer
 * times the cluster tests measure, and adds about 0.1-0.2 ms of latency per
 * message, which is why latency tests of two ranks run without it.
 */
#include <sched.h>
#include <time.h>

int sched_yield(void)
{
    const struct timespec pause = {0, 20000};
    nanosleep(&pause, NULL);
    return 0;
}
