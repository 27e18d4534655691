#!/usr/bin/env bash
# The network map on the emulated cluster of tests/cluster (as root): 8
# hosts, one rank each, links at 200mbit but host 3's at 50mbit and a slow
# route between hosts 1 and 6 (50mbit), the hosts on two switches (0-3 and
# 4-7) joined by a TRUNK trunk (default 100mbit). Runs pairs (shifted and
# isolated bandwidth, latency), rings, bisection and congestion (every
# congestor), prints the bandwidth matrices as tables, what was named, the
# ring, bisection and congestion figures and each program's time, and keeps
# the outputs and heatmaps in OUTDIR.
#   sudo BUILD=build tests/bench/netmap_cluster.sh [OUTDIR [TRUNK]]
# Takes about two minutes.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/../lib.sh"
. "$here/../cluster/testbed.sh"
outdir=${1:-$TOP/results/netmap-cluster-$(date -u +%Y%m%dT%H%M%SZ)}
TESTBED_SWITCHES=2 TESTBED_TRUNK=${2:-100mbit}
TESTBED_TIMEOUT=${TEST_TIMEOUT:-1800}
ALL=0,1,2,3,4,5,6,7
MAP="--size 65536 --window 8 --iters 3 --lat-iters 50"
mkdir -p "$outdir"
testbed_bench_up netmap_cluster 200mbit 200mbit 200mbit 50mbit 200mbit 200mbit 200mbit 200mbit
testbed_slow_route 1 6 50mbit
echo "# netmap on 8 emulated hosts: 200mbit links, host 3 at 50mbit, route 1-6 at 50mbit," \
    "switches 0-3 and 4-7 joined by a $TESTBED_TRUNK trunk ($(date -u +%Y-%m-%dT%H:%M:%SZ))"
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg), cores: $(nproc)"

step() { # NAME ARGS...: runs netmap/NAME on the 8 hosts into OUTDIR/NAME.dat
    local name=$1 t0
    shift
    t0=$(date +%s.%N)
    testbed_mpirun $ALL "$BUILD/netmap/${name%%-*}" "$@" > "$outdir/$name.dat" 2> "$outdir/$name.err" ||
        { echo "netmap_cluster: $name failed" >&2; tail -5 "$outdir/$name.err" >&2; exit 1; }
    echo "# $name: $(awk -v t0="$t0" -v t1="$(date +%s.%N)" 'BEGIN { printf "%.1f", t1 - t0 }') s:" \
        "mpirun -np 8 (8 hosts x 1) netmap/${name%%-*} $*"
}

# Block B of a file as a markdown table with endpoint numbers.
matrix_table() { # FILE B
    awk -v want="$2" '/^[[:space:]]*$/ { inb = 0; next } /^#/ { next }
        { if (!inb) { b++; inb = 1 } }
        b == want { if (!r) { printf "| from \\\\ to |"; for (i = 0; i < NF; i++) printf " %d |", i
                               printf "\n|---|"; for (i = 0; i < NF; i++) printf "---|"; printf "\n" }
                    printf "| %d |", r++; for (i = 1; i <= NF; i++) printf " %s |", ($i == "nan" ? "-" : sprintf("%.1f", $i)); printf "\n" }' "$1"
}

step pairs $MAP --mode=both
echo "## bandwidth, shifted mode (MB/s)"
matrix_table "$outdir/pairs.dat" 1
echo "## bandwidth, isolated mode (MB/s)"
matrix_table "$outdir/pairs.dat" 3
echo "## latency, each pair alone (us)"
matrix_table "$outdir/pairs.dat" 5
echo "## named"
grep -E '^# (culprit|culprits)' "$outdir/pairs.dat"
step rings $MAP --rings 8
grep -vE '^# (endpoint|command|date|mpi|ranks|data)' "$outdir/rings.dat" | grep -v '^$'
step bisection $MAP --bisections 8
grep -vE '^# (endpoint|command|date|mpi|ranks|data)' "$outdir/bisection.dat" | grep -v '^$'
step congestion $MAP --victims 25 --congestor-size 65536
grep -vE '^# (endpoint|command|date|mpi|ranks|data)' "$outdir/congestion.dat" | grep -v '^$'
"$TOP/plot/plot.sh" "$outdir" > /dev/null
echo "# outputs and heatmaps in $outdir"
