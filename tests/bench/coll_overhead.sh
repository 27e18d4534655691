#!/usr/bin/env bash
# Harness overhead of the collective driver: osu_alltoall and a bare
# MPI_Alltoall loop (tests/bench/bench_alltoall_bare.c, same method, plain
# MPI) in the same job script, 4 ranks, 1 B to 64 KiB. Prints both latency
# columns and the overhead in percent; the issue's bound is 3%.
#   BUILD=build tests/bench/coll_overhead.sh [NP [MAX_BYTES [ROUNDS]]]
# Run it on an otherwise idle node: on shared cores the noise dwarfs 3%.
set -e
# lib.sh picks the launcher and its flags, resolves BUILD and makes $TMPD.
. "$(dirname "$0")/../lib.sh"
np=${1:-4} max=${2:-65536} rounds=${3:-3}
make -C "$TOP" -s BUILD="$BUILD" coll-bench >&2
tmp=$TMPD
# Alternate the two programs and keep each one's best of ROUNDS runs, so a
# burst of noise on a shared machine does not land on one side only.
for round in $(seq "$rounds"); do
    $MPIEXEC $MPIEXEC_FLAGS -n "$np" "$BUILD/tests/bench/bench_alltoall_bare" "$max" \
        | grep -v '^#' > "$tmp/bare.$round"
    $MPIEXEC $MPIEXEC_FLAGS -n "$np" "$BUILD/osu/osu_alltoall" -m "1:$max" \
        | grep -v '^#' > "$tmp/osu.$round"
done
best() { awk '{ if (!($1 in b) || $2 < b[$1]) b[$1] = $2 } END { for (s in b) print s, b[s] }' "$@" | sort -n; }
best "$tmp"/bare.* > "$tmp/bare"
best "$tmp"/osu.* > "$tmp/osu"
echo "# osu_alltoall against a bare MPI_Alltoall loop, $np ranks, best of $rounds runs each"
printf '%-10s%20s%20s%20s\n' "# Size" "Bare(us)" "osu_alltoall(us)" "Overhead(%)"
awk 'NR == FNR { bare[$1] = $2; next }
     $1 in bare { b = bare[$1]
                  printf "%-10d%20.2f%20.2f%20.2f\n", $1, b, $2, (b > 0 ? 100 * ($2 - b) / b : 0)
                  sb += b; so += $2 }
     END { if (sb > 0) printf "# all sizes: bare %.2f us, osu_alltoall %.2f us, overhead %+.2f%%\n", sb, so, 100 * (so - sb) / sb }' \
    "$tmp/bare" "$tmp/osu"
