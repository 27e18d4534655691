/*
 * alltoall/all: MPI_Alltoall on MPI_LONG in the triply nested loop of
 * a2a_sweep (communicator sizes x counts x timed iterations). Positional
 * arguments as the seed defines them: [PARTITION [ITERS [COUNTHI]]].
 */
#include "a2a_sweep.h"
#include "harness.h"

int main(int argc, char **argv)
{
    harness_init(&argc, &argv, MPI_THREAD_SINGLE);
    struct a2a_sweep_args a;
    a2a_sweep_parse(argc, argv, "MPI_Alltoall over concurrent subcommunicators of halving size.",
                    NULL, 0, &a);
    a2a_sweep_header("All to All: MPI_Alltoall over concurrent subcommunicators", argc, argv, &a);
    const struct a2a_method *methods[] = {&a2a_method_alltoall};
    a2a_sweep_run(&a.sweep, methods, 1, NULL, NULL);
    harness_finish(ERR_STATUS_OK);
}
