/* bare_in_run: linked into a copy of alltoall/all (build/tests/bench/
 * all_with_bare) so that the bare loop and all's timed calls are measured in
 * the same run: the same processes, placement and machine state. Through the
 * MPI profiling interface it runs the bare loop twice right after MPI starts
 * and twice right before it ends, once on MPI_COMM_WORLD and once on a
 * communicator from MPI_Comm_split (what all uses) each time; the "inner"
 * communicator's loops are the ones next to all's sweep. Rank 0 prints the
 * four figures as '#' lines after all's own output, in run order:
 *   # bare first|before|after|last world|split PERITERMAX TOTAL
 * Environment: BARE_REPS (calls per loop, default 20000), BARE_COUNT (longs
 * per peer, default 1), BARE_INNER (split, the default, or world). all itself
 * is unchanged: the same object file. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BARE_SETTLE_SECONDS 1

struct bare_alltoall_result {
    double per_iteration_max; /* mean over calls of each call's maximum over ranks */
    double slowest_total;     /* the slowest rank's mean time per call */
};

/* Plain MPI, no harness, the same method as alltoall/all: a warm-up call,
 * then per call a world barrier, the call, and its time's maximum over the
 * ranks reduced to world rank 0, which prints it as a '###' line at once
 * (forwarding those lines takes CPU time from the ranks where they have
 * every core: both sides pay it). comm holds every world rank. Result on
 * world rank 0. Returns -1 on every rank when out of memory. */
static int bare_alltoall_long(MPI_Comm comm, long count, long reps, struct bare_alltoall_result *r)
{
    int rank, size, ok, all_ok;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(comm, &size);
    long *send = calloc((size_t)count * (size_t)size, sizeof *send);
    long *recv = calloc((size_t)count * (size_t)size, sizeof *recv);
    ok = send && recv;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (all_ok) {
        double total = 0, sum = 0;
        for (long i = -1; i < reps; i++) { /* -1: the warm-up */
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            MPI_Alltoall(send, (int)count, MPI_LONG, recv, (int)count, MPI_LONG, comm);
            double t = MPI_Wtime() - t0, tmax = 0;
            MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
            if (rank == 0) {
                printf("### bare call %ld time %.9e\n", i + 1, tmax);
                fflush(stdout);
            }
            if (i >= 0) {
                total += t;
                sum += tmax;
            }
        }
        double per_call = total / (double)reps;
        MPI_Reduce(&per_call, &r->slowest_total, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        r->per_iteration_max = sum / (double)reps;
    }
    free(send);
    free(recv);
    return all_ok ? 0 : -1;
}

enum { FIRST, BEFORE, AFTER, LAST, NLOOPS };
static const char *const position_names[NLOOPS] = {"first", "before", "after", "last"};
static struct bare_alltoall_result results[NLOOPS];
static int split_inner = 1, loop_failed;

static long env_long(const char *name, long fallback)
{
    const char *text = getenv(name);
    long v = text ? atol(text) : 0;
    return v > 0 ? v : fallback;
}

static void run_loop(int position, int on_split)
{
    int rank;
    MPI_Comm comm = MPI_COMM_WORLD;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (on_split)
        MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &comm);
    if (bare_alltoall_long(comm, env_long("BARE_COUNT", 1), env_long("BARE_REPS", 20000),
                           &results[position]))
        loop_failed = 1;
    if (on_split)
        MPI_Comm_free(&comm);
}

/* Whether the loop at a position runs on the split communicator. */
static int on_split(int position)
{
    int inner = position == BEFORE || position == AFTER;
    return inner == split_inner;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    const char *inner = getenv("BARE_INNER");
    split_inner = !(inner && strcmp(inner, "world") == 0);
    if (rc == MPI_SUCCESS)
        for (int p = FIRST; p <= BEFORE; p++)
            run_loop(p, on_split(p));
    return rc;
}

int MPI_Finalize(void)
{
    int rank;
    /* all has just printed a line per timed call: give the launcher time to
     * forward them, or its work would land in the loops below. */
    fflush(stdout);
    sleep(BARE_SETTLE_SECONDS);
    for (int p = AFTER; p <= LAST; p++)
        run_loop(p, on_split(p));
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        for (int p = 0; p < NLOOPS && !loop_failed; p++)
            printf("# bare %s %s %.9e %.9e\n", position_names[p], on_split(p) ? "split" : "world",
                   results[p].per_iteration_max, results[p].slowest_total);
    return PMPI_Finalize();
}
