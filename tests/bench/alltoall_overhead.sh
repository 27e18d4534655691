#!/usr/bin/env bash
# Benchmark (not a test): alltoall/all's time per call for 1 long per peer at
# 2 ranks against a bare MPI_Alltoall loop of the same count on the same run.
# Each round launches all_with_bare: alltoall/all's own object file linked
# with a bare loop that runs twice right after MPI starts and twice right
# before it ends (tests/bench/bare_in_run.c), so both are measured by the same
# processes on the same cores under the same machine state; separate launches
# on a shared machine differ by more than the 10% being checked. Both figures
# have the same definition: the mean over calls of each call's maximum over
# ranks, each call after a world barrier.
# Of the four bare loops, the inner two run next to all's sweep and the outer
# two first and last; one pair uses MPI_COMM_WORLD, the other a communicator
# from MPI_Comm_split (what all uses), and the rounds alternate which is
# inner, so that neither the place in the run nor the communicator favours
# one side. Prints each round, then the medians over rounds of each round's
# all / bare - 1 against the inner, outer, world and split loops.
# Usage: tests/bench/alltoall_overhead.sh [REPS [ROUNDS]] (default 20000 21)
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$top/build}
. "$top/tests/lib.sh" > /dev/null
reps=${1:-20000} rounds=${2:-21}
for r in $(seq "$rounds"); do
    inner=split
    [ $((r % 2)) -eq 0 ] && inner=world
    # countHi 1 at 2 ranks: the first block's only line is count 1 on 2 ranks
    BARE_REPS=$reps BARE_COUNT=1 BARE_INNER=$inner $MPIEXEC $MPIEXEC_FLAGS -n 2 \
        "$BUILD/tests/bench/all_with_bare" contig "$reps" 1 > "$TMPD/round.out"
    # One line per round: all, then inner, outer, world and split averages.
    awk -v r="$r" -v rounds="$TMPD/rounds" '!/^#/ && NF == 9 && !a { a = $5 }
        $1 == "#" && $2 == "bare" { t[$3] = $5; on[$3] = $4; by[$4] += $5 / 2; seq = seq " " $3 " " $4 " " sprintf("%.3f", $5 * 1e6) }
        END { if (!a || length(t) != 4) { print "round " r ": no figures" > "/dev/stderr"; exit 1 }
              printf "round %d: all %.3f us; bare%s us\n", r, a * 1e6, seq
              print a, (t["before"] + t["after"]) / 2, (t["first"] + t["last"]) / 2, by["world"], by["split"] >> rounds }' \
        "$TMPD/round.out"
done
ratio() { awk -v c="$1" '{ print $1 / $c - 1 }' "$TMPD/rounds" | median; }
ma=$(awk '{ print $1 }' "$TMPD/rounds" | median)
mi=$(awk '{ print $2 }' "$TMPD/rounds" | median)
awk -v a="$ma" -v i="$mi" -v ri="$(ratio 2)" -v ro="$(ratio 3)" -v rw="$(ratio 4)" -v rs="$(ratio 5)" 'BEGIN {
    printf "median over rounds: all %.3f us, bare next to it %.3f us\n", a * 1e6, i * 1e6
    printf "median of per-round all/bare - 1: %+.1f%% against the inner loops, %+.1f%% against the outer loops, %+.1f%% against MPI_COMM_WORLD, %+.1f%% against the split communicator\n", ri * 100, ro * 100, rw * 100, rs * 100 }'
