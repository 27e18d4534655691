#!/usr/bin/env bash
# Benchmark (not a test): alltoall/all's time per call for 1 long per peer at
# 2 ranks against a bare MPI_Alltoall loop of the same count, alternating the
# two ROUNDS times in one run. Prints each round and the medians. The bare
# loop gives both the same definition as all (the mean of per-iteration
# maxima over ranks) and total/reps, which is smaller because two ranks finish
# their calls out of phase and the maximum picks the longer side each time.
# Usage: tests/bench/alltoall_overhead.sh [REPS [ROUNDS]]
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$top/build}
. "$top/tests/lib.sh" > /dev/null
reps=${1:-20000} rounds=${2:-5}
harness=() bare=() plain=() split=()
for r in $(seq "$rounds"); do
    read -r b p < <($MPIEXEC $MPIEXEC_FLAGS -n 2 "$BUILD/tests/bench/bench_alltoall_long" 1 "$reps")
    read -r bs _ < <($MPIEXEC $MPIEXEC_FLAGS -n 2 "$BUILD/tests/bench/bench_alltoall_long" 1 "$reps" split)
    # countHi 1 at 2 ranks: the first block's only line is count 1 on 2 ranks
    $MPIEXEC $MPIEXEC_FLAGS -n 2 "$BUILD/alltoall/all" contig "$reps" 1 > "$TMPD/all.out"
    a=$(awk '!/^#/ && NF == 9 { print $5; exit }' "$TMPD/all.out")
    echo "round $r: all $a s/call; bare loop: per-iteration max $b (split communicator $bs), total/reps $p s/call"
    harness+=("$a") bare+=("$b") plain+=("$p") split+=("$bs")
done
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ma=$(median "${harness[@]}") mb=$(median "${bare[@]}") mp=$(median "${plain[@]}") ms=$(median "${split[@]}")
awk -v a="$ma" -v b="$mb" -v p="$mp" -v sp="$ms" 'BEGIN {
    printf "median: all %.3f us; bare per-iteration max %.3f us on MPI_COMM_WORLD (all/bare - 1 = %+.1f%%), %.3f us on a split communicator (all/bare - 1 = %+.1f%%); bare total/reps %.3f us\n",
        a * 1e6, b * 1e6, (a / b - 1) * 100, sp * 1e6, (a / sp - 1) * 100, p * 1e6 }'
