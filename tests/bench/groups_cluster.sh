#!/usr/bin/env bash
# Concurrent groups, a straggler and a hang on the emulated cluster of
# tests/cluster (as root): 4 hosts of SLOTS ranks (default 2), every link at
# RATE (default 200mbit). For osu_allreduce and osu_alltoall with each
# --groups layout (node, cross, 2, stride:2) it prints each group's and the
# worst group's average latency at 8 B and 64 KiB next to the whole job's;
# then osu_allreduce --stats with COMMSWEEP_SLOW_RANK=SLOW (default 5) and
# the straggler its rows name, alone and in --groups=node (only the
# slowed rank's group names it); then osu_allreduce with COMMSWEEP_STALL_RANK
# and --timeout=5, its last line, status and seconds. Everything each run
# printed stays in OUTDIR.
#   sudo BUILD=build tests/bench/groups_cluster.sh [OUTDIR [RATE [SLOTS [SLOW]]]]
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/../lib.sh"
. "$here/../cluster/testbed.sh"
outdir=${1:-$TOP/results/groups-cluster-$(date -u +%Y%m%dT%H%M%SZ)}
rate=${2:-200mbit}
TESTBED_SLOTS=${3:-2}
slow=${4:-5}
TESTBED_TIMEOUT=${TEST_TIMEOUT:-600}
mkdir -p "$outdir"
testbed_bench_up groups_cluster "$rate" "$rate" "$rate" "$rate"
sizes="-m 8:65536 -i 20 -x 4"
echo "# 4 emulated hosts x $TESTBED_SLOTS ranks, links at $rate; $sizes"
# Avg latency at SIZE of every block of FILE: "label value" per block.
blocks() { # FILE SIZE
    awk -v s="$2" '
        /^# (group [0-9]+|worst group)/ && !/row:/ && !/hosts:/ {
            label = $0; sub(/^# /, "", label); sub(/:.*/, "", label) }
        /^# worst group/ { label = "worst" }
        !/^#/ && $1 == s { print label, $2 }' "$1"
}
for prog in osu_allreduce osu_alltoall; do
    testbed_mpirun 0,1,2,3 "$BUILD/osu/$prog" $sizes > "$outdir/$prog.whole.dat" 2>&1 ||
        { echo "groups_cluster: $prog failed" >&2; tail -3 "$outdir/$prog.whole.dat" >&2; exit 1; }
    for spec in node cross 2 stride:2; do
        f="$outdir/$prog.groups-${spec/:/}.dat"
        testbed_mpirun 0,1,2,3 "$BUILD/osu/$prog" $sizes --groups="$spec" > "$f" 2>&1 ||
            { echo "groups_cluster: $prog --groups=$spec failed" >&2; tail -3 "$f" >&2; exit 1; }
        for size in 8 65536; do
            whole=$(awk -v s="$size" '!/^#/ && $1 == s { print $2 }' "$outdir/$prog.whole.dat")
            echo "$prog --groups=$spec size $size: whole job $whole us;" \
                "$(blocks "$f" "$size" | awk '{ sep = NR > 1 ? ", " : ""; printf "%s%s %s us", sep, $1 == "worst" ? "worst" : $1 " " $2, $NF }')"
        done
        grep -E '^# group [0-9]+ hosts:' "$f" | awk '!seen[$0]++' | sed "s/^# /#   /"
    done
done
f="$outdir/osu_allreduce.slow$slow.dat"
COMMSWEEP_SLOW_RANK=$slow testbed_mpirun 0,1,2,3 "$BUILD/osu/osu_allreduce" -m 8:65536 -i 20 \
    -x 4 --stats > "$f" 2>&1 || { echo "groups_cluster: the straggler run failed" >&2; exit 1; }
echo "# osu_allreduce --stats, COMMSWEEP_SLOW_RANK=$slow (rank $slow sleeps 10 ms in each timed call):"
grep -v '^#' "$f" | sed 's/^/#   /'
f="$outdir/osu_allreduce.groups-node.slow$slow.dat"
COMMSWEEP_SLOW_RANK=$slow testbed_mpirun 0,1,2,3 "$BUILD/osu/osu_allreduce" -m 8:65536 -i 20 \
    -x 4 --stats --groups=node > "$f" 2>&1 || { echo "groups_cluster: the groups' straggler run failed" >&2; exit 1; }
echo "# osu_allreduce --stats --groups=node, COMMSWEEP_SLOW_RANK=$slow: the worst group's rows:"
awk '/^# worst group:/ { w = 1 } w && !/^#/ && NF' "$f" | sed 's/^/#   /'
echo "# the slowest rank each group's rows name (size: group 0, 1, 2, 3):"
awk '/^# group [0-9]+ row: / { g = $3; sub(/^# group [0-9]+ row: /, ""); split($0, a, " ")
        n = split($0, b, " "); row[a[1]] = row[a[1]] " " b[n - 2] }
     END { for (s in row) print s ":" row[s] }' "$f" | sort -n | sed 's/^/#   /'
f="$outdir/osu_allreduce.stall.dat"
t0=$(date +%s.%N)
COMMSWEEP_STALL_RANK=3 testbed_mpirun 0,1,2,3 "$BUILD/osu/osu_allreduce" -m 8:65536 -i 20 -x 4 \
    --timeout=5 > "$f" 2>&1
status=$?
t1=$(date +%s.%N)
echo "# osu_allreduce --timeout=5 with COMMSWEEP_STALL_RANK=3: status $status after" \
    "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s; its lines on stderr:"
grep -v '^[0-9 ]' "$f" | grep -iv '^#' | sed 's/^/#   /' | head -5
