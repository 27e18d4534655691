/* cpm_lmo_dump: LMO's raw measurements and the round trips that judge
 * them, interleaved in one launch, for cpm_lmo_replay.
 *   cpm_lmo_dump [ROUNDS [M [MAX_REPS]]]      (20, 65536, 50; N >= 3)
 * Every round measures two blocks, in turns (round r starts with the first
 * when r is even): the experiments an LMO model of -M M is solved from
 * (cpm_measure_p2pp_p2p at 0 and M bytes: the one-to-two experiments and
 * the round trips inside every triplet, serial), and the round trips of
 * every pair at 0, 1024 and M bytes (cpm_measure_p2p, serial, what `p2p`
 * measures); default precision but for MAX_REPS. Rank 0 prints, times in
 * seconds:
 *   R clock tri|p2p T       when the block began, from the first one
 *   R tri I J K Q  O0 A0 B0  OM AM BM  REPS0 REPSM
 *       triplet I < J < K, root its Q-th process: the one-to-two time at 0
 *       bytes (O0), the root's round trips to the next and to the one after
 *       (A0, B0), the same at M bytes, and the one-to-two repetitions
 *   R p2p I J SIZE T REPS   the round trip of pair I < J */
#include <stdio.h>
#include <stdlib.h>

#include "cpm_diag.h"

static const char usage[] = "mpirun -n N cpm_lmo_dump [ROUNDS [M [MAX_REPS]]], N >= 3, "
                            "M >= 1024, MAX_REPS >= 5";

/* LMO's experiments: k = 0 one-to-two, 1 and 2 the root's round trips, at
 * 0 bytes (r[k]) and at M (r[3 + k]). */
static void lmo_block(int n, size_t round, size_t m, const struct cpm_precision *p,
                      struct cpm_result *r[6])
{
    struct cpm_result *rt0[2] = {r[1], r[2]}, *rtm[2] = {r[4], r[5]};
    cpm_measure_p2pp_p2p(MPI_COMM_WORLD, 0, false, p, r[0], rt0);
    cpm_measure_p2pp_p2p(MPI_COMM_WORLD, m, false, p, r[3], rtm);
    for (size_t t = 0; n && t < cpm_triplets(n); t++) {
        int v[3];
        cpm_triplet_at(n, t, &v[0], &v[1], &v[2]);
        for (size_t q = 0; q < 3; q++) {
            size_t at = 3 * t + q;
            printf("%zu tri %d %d %d %zu", round, v[0], v[1], v[2], q);
            for (int k = 0; k < 6; k++)
                printf(k % 3 ? " %.6g" : "  %.6g", r[k][at].time);
            printf("  %zu %zu\n", r[0][at].reps, r[3][at].reps);
        }
    }
}

/* The pairs' round trips at 0, 1024 and M bytes. */
static void p2p_block(int n, size_t round, size_t m, const struct cpm_precision *p,
                      struct cpm_result *pp)
{
    const size_t sizes[] = {0, 1024, m};
    for (int s = 0; s < 3; s++) {
        cpm_measure_p2p(MPI_COMM_WORLD, sizes[s], false, p, pp);
        for (size_t k = 0; n && k < cpm_pairs(n); k++) {
            int i, j;
            cpm_pair_at(n, k, &i, &j);
            printf("%zu p2p %d %d %zu %.6g %zu\n", round, i, j, sizes[s], pp[k].time, pp[k].reps);
        }
    }
}

int main(int argc, char **argv)
{
    static const size_t dflt[] = {20, 65536, 50}, least[] = {1, 1024, 5};
    struct cpm_diag_args a;
    cpm_diag_start(&argc, &argv, 3, 3, dflt, least, usage, &a);
    int rank = a.rank, n = a.n;
    size_t rounds = a.v[0], m = a.v[1];
    const struct cpm_precision *p = &a.precision;
    /* Only rank 0 collects results; the others print nothing (n = 0). */
    int shown = rank == 0 ? n : 0;
    size_t trip = 3 * cpm_triplets(n);
    struct cpm_result *r[6], *pp = calloc(cpm_pairs(n), sizeof *pp);
    for (int k = 0; k < 6; k++)
        if (!(r[k] = calloc(trip, sizeof *r[k])) || !pp)
            cpm_diag_usage("cpm_lmo_dump: out of memory");
    if (rank == 0)
        printf("# cpm_lmo_dump: %d processes, %zu rounds, M %zu bytes, at most %zu repetitions\n",
               n, rounds, m, p->max_reps);
    double start = MPI_Wtime();
    for (size_t round = 0; round < rounds; round++) {
        for (size_t half = 0; half < 2; half++) {
            bool tri = (half + round) % 2 == 0;
            if (rank == 0)
                printf("%zu clock %s %.6f\n", round, tri ? "tri" : "p2p", MPI_Wtime() - start);
            if (tri)
                lmo_block(shown, round, m, p, r);
            else
                p2p_block(shown, round, m, p, pp);
        }
        fflush(stdout);
    }
    for (int k = 0; k < 6; k++)
        free(r[k]);
    free(pp);
    MPI_Finalize();
    return 0;
}
