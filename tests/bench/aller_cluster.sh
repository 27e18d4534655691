#!/usr/bin/env bash
# alltoall/aller on the emulated cluster of tests/cluster (as root): 4 hosts
# of 2 ranks each (ranks 0-1 on node0, ...), links CLUSTER_RATES (default
# 200mbit 200mbit 50mbit 50mbit), TCP between hosts and shared memory within
# them, osc/pt2pt for put and get. Runs every algorithm over contiguous and
# strided communicators, keeps the outputs, their tables
# (tests/bench/aller_table.sh) and plots (plot/plot.sh) in OUTDIR.
#   sudo BUILD=build tests/bench/aller_cluster.sh [OUTDIR [ITERS [COUNTHI]]]
# Defaults: OUTDIR results/aller-cluster-DATE, 5 iterations, COUNTHI 4096
# (256 KiB per rank per call at full size). Takes several minutes.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/../lib.sh"
. "$here/../cluster/testbed.sh"
read -r -a RATES <<< "${CLUSTER_RATES:-200mbit 200mbit 50mbit 50mbit}"
outdir=${1:-$TOP/results/aller-cluster-$(date -u +%Y%m%dT%H%M%SZ)}
iters=${2:-5} counthi=${3:-4096}
TESTBED_TIMEOUT=${TEST_TIMEOUT:-1800}
TESTBED_SLOTS=2
mkdir -p "$outdir"
testbed_bench_up aller_cluster "${RATES[@]}"
echo "# aller on 4 emulated hosts x 2 ranks, links ${RATES[*]} ($(date -u +%Y-%m-%dT%H:%M:%SZ))"
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg), cores: $(nproc)"
for part in contiguous strided; do
    dat="$outdir/aller-cluster-$part.dat"
    testbed_mpirun 0,1,2,3 --mca osc pt2pt "$BUILD/alltoall/aller" --topology "$part" "$iters" "$counthi" \
        > "$dat" 2> "$outdir/aller-cluster-$part.err" ||
        { echo "aller_cluster: aller $part failed" >&2; tail -5 "$outdir/aller-cluster-$part.err" >&2; exit 1; }
    echo "# $part: mpirun -np 8 (4 hosts x 2) aller --topology $part $iters $counthi"
    grep -E '^# (node2d|2d|3d): ' "$dat" | sort -u
    "$here/aller_table.sh" "$dat" | tee "$outdir/aller-cluster-$part.table"
done
"$TOP/plot/plot.sh" "$outdir" > /dev/null
echo "# outputs, tables and plots in $outdir"
