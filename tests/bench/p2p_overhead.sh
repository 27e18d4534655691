#!/usr/bin/env bash
# p2p_overhead: what the point-to-point driver costs. Runs osu_latency
# (1 to 64 bytes) and osu_bw (1 MiB) and the bare MPI loops of
# bench_pingpong with the same sizes, iterations and window, alternating, in
# the same job at 2 ranks; prints the best run of each (lowest latency,
# highest bandwidth: on a shared machine noise only ever adds time) side by
# side with the overhead in percent (positive: the driver is slower), and a
# last row with the mean of the best latencies over all sizes 1 to 64: the
# programs print 2 decimals, so one small latency alone is too coarse to
# show a few percent.
#   BUILD=build tests/bench/p2p_overhead.sh [REPEATS (default 5)]
# MPIEXEC and MPIEXEC_FLAGS choose the launcher as for the tests.
set -eu
# lib.sh picks the launcher and its flags, resolves BUILD and makes $TMPD.
. "$(dirname "$0")/../lib.sh"
REPEATS=${1:-5}
LAT_ITERS=10000 LAT_WARM=100 BW_ITERS=100 BW_WARM=10 WINDOW=64 BW_SIZE=1048576
work=$TMPD
launch() { $MPIEXEC ${MPIEXEC_FLAGS:-} -n 2 "$@"; }

for r in $(seq "$REPEATS"); do
    launch "$BUILD/osu/osu_latency" -m 1:64 -i $LAT_ITERS -x $LAT_WARM |
        awk '!/^#/ && NF { print "latency_us", $1, $2 }' >> "$work/commsweep"
    launch "$BUILD/tests/bench/bench_pingpong" latency 1 64 $LAT_ITERS $LAT_WARM |
        awk '{ print "latency_us", $1, $2 }' >> "$work/bare"
    launch "$BUILD/osu/osu_bw" -m $BW_SIZE:$BW_SIZE -i $BW_ITERS -x $BW_WARM -W $WINDOW |
        awk '!/^#/ && NF { print "bandwidth_MB/s", $1, $2 }' >> "$work/commsweep"
    launch "$BUILD/tests/bench/bench_pingpong" bw $BW_SIZE $BW_SIZE $BW_ITERS $BW_WARM $WINDOW |
        awk '{ print "bandwidth_MB/s", $1, $2 }' >> "$work/bare"
done

# Best per (figure, size) of each file, then one row over all latency sizes.
best() {
    awk '{ k = $1 " " $2; lat = $1 ~ /^latency/
           if (!(k in v) || (lat ? $3 < v[k] : $3 > v[k])) v[k] = $3 }
         END { for (k in v) print k, v[k] }' "$1" | sort -k1,1 -k2,2n > "$1.best"
    cat "$1.best"
    awk '$1 ~ /^latency/ { all += $3; n++ } END { if (n) print "latency_us", "1-64", all / n }' \
        "$1.best"
}
best "$work/commsweep" > "$work/m1"
best "$work/bare" > "$work/m2"
echo "# commsweep point-to-point driver against bare MPI loops, 2 ranks, best of $REPEATS runs"
echo "# size 1-64 of latency_us: mean of the best latencies of sizes 1 to 64"
echo "# launcher: $MPIEXEC ${MPIEXEC_FLAGS:-}"
printf '%-16s %10s %14s %14s %12s\n' "# figure" "size" "commsweep" "bare" "overhead(%)"
paste "$work/m1" "$work/m2" | awk '{
    if ($1 != $4 || $2 != $5) { print "mismatched rows: " $0 > "/dev/stderr"; exit 1 }
    # latency: more is worse; bandwidth: less is worse
    over = ($1 ~ /^latency/) ? ($3 - $6) / $6 * 100 : ($6 - $3) / $6 * 100
    printf "%-16s %10s %14.3f %14.3f %12.1f\n", $1, $2, $3, $6, over }'
