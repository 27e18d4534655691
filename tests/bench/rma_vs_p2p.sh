#!/usr/bin/env bash
# Benchmark (not a test): the cost of one-sided over two-sided communication
# on this MPI library, at 2 ranks: osu_put_latency next to osu_latency at 8
# bytes, and osu_put_bw next to osu_bw at 1 MiB (both with their default
# window of 64), alternating the programs ROUNDS times and printing every
# round and the medians. The one-sided programs run with their defaults
# (MPI_Win_create over MPI_Alloc_mem memory, pscw). The launcher and its
# flags are lib.sh's (MPIEXEC, MPIEXEC_FLAGS).
# The two latencies are different quantities: osu_put_latency is the time of
# one access epoch (start, put, complete against post and wait), not halved;
# osu_latency is half a ping-pong round trip. The latency comparison is
# therefore against the full round trip, 2 x osu_latency. Both bandwidths
# are bytes put or sent per second, one direction, and compare directly.
# Usage: tests/bench/rma_vs_p2p.sh [ROUNDS]   (BUILD, MPIEXEC, MPIEXEC_FLAGS)
# Stops with a message (status 1) when a run fails or prints no figure.
set -u
. "$(dirname "$0")/../lib.sh" > /dev/null
rounds=${1:-3}
osu="$BUILD/osu"
for p in osu_put_latency osu_latency osu_put_bw osu_bw; do
    [ -x "$osu/$p" ] || { echo "rma_vs_p2p: $osu/$p is not built (make BUILD=$BUILD)" >&2; exit 2; }
done

# The value column of the data line for SIZE of one run; fails with a
# message when the run fails or has no such line.
measure() { # SIZE PROGRAM ARGS...
    local size=$1 v
    shift
    if ! $MPIEXEC $MPIEXEC_FLAGS -n 2 "$@" > "$TMPD/out" 2> "$TMPD/err"; then
        echo "rma_vs_p2p: $* failed: $(head -c 300 "$TMPD/err")" >&2
        return 1
    fi
    v=$(awk -v s="$size" '!/^#/ && $1 == s { print $2 }' "$TMPD/out")
    if [ -z "$v" ]; then
        echo "rma_vs_p2p: no result for size $size from $*: $(head -c 300 "$TMPD/err")" >&2
        return 1
    fi
    echo "$v"
}

echo "# rma_vs_p2p: 2 ranks, $($MPIEXEC --version 2>&1 | head -1), flags: ${MPIEXEC_FLAGS:-none}"
echo "# round  put_epoch(us)  half_round_trip(us)  put_bw(MB/s)  bw(MB/s)"
pl=() l=() pb=() b=()
mib=1048576
for r in $(seq "$rounds"); do
    a=$(measure 8 "$osu/osu_put_latency" -m 8:8) || exit 1
    c=$(measure 8 "$osu/osu_latency" -m 8:8) || exit 1
    d=$(measure $mib "$osu/osu_put_bw" -m $mib:$mib) || exit 1
    e=$(measure $mib "$osu/osu_bw" -m $mib:$mib) || exit 1
    printf '%-7s %14s %20s %13s %9s\n' "$r" "$a" "$c" "$d" "$e"
    pl+=("$a") l+=("$c") pb+=("$d") b+=("$e")
done
awk -v pl="$(median "${pl[@]}")" -v l="$(median "${l[@]}")" -v pb="$(median "${pb[@]}")" \
    -v b="$(median "${b[@]}")" 'BEGIN {
    printf "median 8 B: osu_put_latency %.2f us per put epoch; osu_latency %.2f us half round trip, %.2f us round trip (put epoch/round trip %.2f)\n", pl, l, 2 * l, pl / (2 * l)
    printf "median 1 MiB bandwidth: osu_put_bw %.2f MB/s, osu_bw %.2f MB/s (one-sided/two-sided %.2f)\n", pb, b, pb / b }'
