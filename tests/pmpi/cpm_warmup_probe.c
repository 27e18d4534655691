/* cpm_warmup_probe: a PMPI wrapper preloaded into the CPM programs by
 * tests/integration/cpm_warmup.sh, to see from outside libcpm that every
 * experiment warms up before its first timed repetition.
 *
 * The measurer of a two-sided experiment sends its data with CPM_TAG_DATA
 * to every partner, a flag with CPM_TAG_WARM after each warm-up repetition
 * and one with CPM_TAG_FLAG after each timed one (1 after the last). So,
 * per partner, the data messages before the first CPM_TAG_FLAG are those of
 * the W warm-up repetitions and of the first timed one, and those between
 * the first and the second CPM_TAG_FLAG one repetition's: with a warm-up
 * the first count is (1 + W) times the second. At MPI_Finalize rank 0
 * prints one line to stderr, summed over the ranks:
 *   cpm_warmup_probe: checked C warm K cold L other O warmups LO..HI alltoall A
 * checked: experiments with two timed repetitions or more, of which warm
 * had W >= 1 warm-up flags and the (1 + W) ratio, cold no warm-up flag and
 * a ratio of 1, other anything else; warmups: the fewest and most warm-up
 * repetitions of the checked ones; alltoall: rank 0's MPI_Alltoall calls
 * (the runs of `collective -O MPI_Alltoall`, warm-up included). */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>

#include "cpm_measure.h"

enum { MAX_PEERS = 256 };

/* Per partner (its rank in the experiment's communicator). */
static long data_since_flag[MAX_PEERS], first_gap[MAX_PEERS], warm_flags[MAX_PEERS];
static int flags_seen[MAX_PEERS];
enum { CHECKED, WARM, COLD, OTHER, ALLTOALL, COUNTS };
static long counts[COUNTS], fewest = LONG_MAX, most = 0;

static bool known(int dest) { return dest >= 0 && dest < MAX_PEERS; }

static void classify(int dest, long steady)
{
    long w = warm_flags[dest];
    counts[CHECKED]++;
    if (w >= 1 && first_gap[dest] == (1 + w) * steady)
        counts[WARM]++;
    else if (w == 0 && first_gap[dest] == steady)
        counts[COLD]++;
    else
        counts[OTHER]++;
    fewest = w < fewest ? w : fewest;
    most = w > most ? w : most;
}

static void flag_sent(const void *buf, int dest)
{
    long gap = data_since_flag[dest];
    data_since_flag[dest] = 0;
    if (++flags_seen[dest] == 1)
        first_gap[dest] = gap;
    else if (flags_seen[dest] == 2)
        classify(dest, gap);
    if (*(const int *)buf) /* the experiment is over */
        flags_seen[dest] = 0, warm_flags[dest] = 0;
}

static void sent(const void *buf, int dest, int tag)
{
    if (!known(dest))
        return;
    if (tag == CPM_TAG_DATA)
        data_since_flag[dest]++;
    else if (tag == CPM_TAG_WARM)
        warm_flags[dest]++;
    else if (tag == CPM_TAG_FLAG)
        flag_sent(buf, dest);
}

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    sent(buf, dest, tag);
    return PMPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    if (tag == CPM_TAG_DATA)
        sent(buf, dest, tag);
    return PMPI_Isend(buf, count, type, dest, tag, comm, req);
}

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    counts[ALLTOALL]++;
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

int MPI_Finalize(void)
{
    long all[COUNTS] = {0}, lo = 0, hi = 0;
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Reduce(counts, all, COUNTS, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    PMPI_Reduce(&fewest, &lo, 1, MPI_LONG, MPI_MIN, 0, MPI_COMM_WORLD);
    PMPI_Reduce(&most, &hi, 1, MPI_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        fprintf(stderr,
                "cpm_warmup_probe: checked %ld warm %ld cold %ld other %ld warmups %ld..%ld "
                "alltoall %ld\n",
                all[CHECKED], all[WARM], all[COLD], all[OTHER], all[CHECKED] ? lo : 0, hi,
                counts[ALLTOALL]);
    return PMPI_Finalize();
}
