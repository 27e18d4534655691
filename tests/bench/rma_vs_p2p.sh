#!/usr/bin/env bash
# Benchmark (not a test): the cost of one-sided over two-sided communication
# on this MPI library, at 2 ranks in one run: osu_put_latency next to
# osu_latency at 8 bytes, and osu_put_bw next to osu_bw at 1 MiB (both with
# their default window of 64), alternating the programs ROUNDS times and
# printing every round and the medians. The one-sided programs run with their
# defaults (MPI_Win_create over MPI_Alloc_mem memory, pscw).
# Usage: tests/bench/rma_vs_p2p.sh [ROUNDS]   (BUILD, MPIEXEC, MPIEXEC_FLAGS)
# With Open MPI and no MPIEXEC_FLAGS of the caller, vader keeps its
# single-copy mechanism (Open MPI's default; osc/rdma needs it) for all four.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$top/build}
caller_flags=${MPIEXEC_FLAGS:-}
. "$top/tests/lib.sh" > /dev/null
[ -z "$caller_flags" ] && MPIEXEC_FLAGS=${MPIEXEC_FLAGS/--mca btl_vader_single_copy_mechanism none/}
rounds=${1:-3}
osu="$BUILD/osu"
for p in osu_put_latency osu_latency osu_put_bw osu_bw; do
    [ -x "$osu/$p" ] || { echo "rma_vs_p2p: $osu/$p is not built (make BUILD=$BUILD)" >&2; exit 2; }
done

# The value column of the data line for SIZE of one run; stops on failure.
measure() { # SIZE PROGRAM ARGS...
    local size=$1 v
    shift
    v=$($MPIEXEC $MPIEXEC_FLAGS -n 2 "$@" 2> "$TMPD/err" | awk -v s="$size" '!/^#/ && $1 == s { print $2 }')
    if [ -z "$v" ]; then
        echo "rma_vs_p2p: no result from $*: $(head -c 300 "$TMPD/err")" >&2
        exit 1
    fi
    echo "$v"
}
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "# rma_vs_p2p: 2 ranks, $($MPIEXEC --version 2>&1 | head -1), flags: ${MPIEXEC_FLAGS:-none}"
echo "# round  put_latency(us)  latency(us)  put_bw(MB/s)  bw(MB/s)"
pl=() l=() pb=() b=()
mib=1048576
for r in $(seq "$rounds"); do
    a=$(measure 8 "$osu/osu_put_latency" -m 8:8)
    c=$(measure 8 "$osu/osu_latency" -m 8:8)
    d=$(measure $mib "$osu/osu_put_bw" -m $mib:$mib)
    e=$(measure $mib "$osu/osu_bw" -m $mib:$mib)
    printf '%-7s %16s %12s %13s %9s\n' "$r" "$a" "$c" "$d" "$e"
    pl+=("$a") l+=("$c") pb+=("$d") b+=("$e")
done
awk -v pl="$(median "${pl[@]}")" -v l="$(median "${l[@]}")" -v pb="$(median "${pb[@]}")" \
    -v b="$(median "${b[@]}")" 'BEGIN {
    printf "median 8 B latency: osu_put_latency %.2f us, osu_latency %.2f us (one-sided/two-sided %.2f)\n", pl, l, pl / l
    printf "median 1 MiB bandwidth: osu_put_bw %.2f MB/s, osu_bw %.2f MB/s (one-sided/two-sided %.2f)\n", pb, b, pb / b }'
