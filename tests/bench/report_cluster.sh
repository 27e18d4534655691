#!/usr/bin/env bash
# tools/report on the emulated cluster of tests/cluster (as root): 4 hosts,
# one rank each, every link at RATE (default 200mbit). Runs osu_latency,
# osu_bw and osu_bibw between hosts 0 and 1, osu_allreduce and
# osu_alltoall on all four and netmap/pairs, writes references whose line
# rate and bandwidths are the injected link's (TCP goodput: rate x
# (MTU - 52) / (MTU + 14)), and prints the verdicts of tools/report --check
# and its status. The results and the page stay in OUTDIR.
#   sudo BUILD=build tests/bench/report_cluster.sh [OUTDIR [RATE]]
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/../lib.sh"
. "$here/../cluster/testbed.sh"
outdir=${1:-$TOP/results/report-cluster-$(date -u +%Y%m%dT%H%M%SZ)}
rate=${2:-200mbit}
TESTBED_TIMEOUT=${TEST_TIMEOUT:-600}
mkdir -p "$outdir"
testbed_bench_up report_cluster "$rate" "$rate" "$rate" "$rate"
# Goodput in MB/s of one link (tests/cluster/checks.sh's rule).
mbps=$(awk -v r="$rate" -v mtu="$TESTBED_MTU" 'BEGIN { match(r, /^[0-9.]+/)
    n = substr(r, 1, RLENGTH); u = substr(r, RLENGTH + 1)
    s = (u == "gbit") ? 1e9 : (u == "mbit") ? 1e6 : 1e3
    printf "%.2f", n * s / 8 * (mtu - 52) / (mtu + 14) / 1e6 }')
echo "# tools/report on 4 emulated hosts at $rate (goodput $mbps MB/s per direction)"
export COMMSWEEP_DESCRIBE=1
osu() { # HOSTS NAME ARGS...
    local hosts=$1 name=$2
    shift 2
    testbed_mpirun "$hosts" "$BUILD/osu/$name" "$@" > "$outdir/$name.cluster.dat" 2> "$outdir/$name.err" ||
        { echo "report_cluster: $name failed" >&2; tail -3 "$outdir/$name.err" >&2; exit 1; }
}
osu 0,1 osu_latency -m 0:65536 -i 20 -x 5
osu 0,1 osu_bw -m 1:1048576 -i 5 -x 1 -W 8
osu 0,1 osu_bibw -m 1:1048576 -i 5 -x 1 -W 8
osu 0,1,2,3 osu_allreduce -m 8:1048576 -i 10 -x 2
osu 0,1,2,3 osu_alltoall -m 8:262144 -i 10 -x 2
testbed_mpirun 0,1,2,3 "$BUILD/netmap/pairs" --size 65536 --window 4 --iters 3 --lat-iters 20 \
    --mode=isolated > "$outdir/pairs.cluster.dat" 2> "$outdir/pairs.err"
"$TOP/plot/plot.sh" "$outdir" > /dev/null 2>&1
gbs=$(awk -v m="$mbps" 'BEGIN { printf "%.5f", m / 1000 }')
bi=$(awk -v m="$mbps" 'BEGIN { printf "%.2f", 2 * m }')
cat > "$outdir/references" << REFS
# The injected link: $rate, $mbps MB/s of TCP goodput per direction.
linerate link $gbs
# At 1 MiB: the shapers' 32 kB burst lets a small message's window through
# faster than the link (a peak above line rate, an artefact of tbf).
osu_bw         1048576  bandwidth  $mbps  -10%
osu_bibw       1048576  bandwidth  $bi  -10%
# A TCP round trip through two shapers and the machine's scheduler: a
# loose ceiling, not the link's figure.
osu_latency    8        latency    500    +0%
# An allreduce moves 2(n-1)/n of its data over each link: its bus
# bandwidth is at most the link's.
osu_allreduce  1048576  busbw      $mbps  -30%
REFS
echo "# references:"
sed 's/^/#   /' "$outdir/references"
t0=$(date +%s.%N)
"$TOP/tools/report" --check --references "$outdir/references" "$outdir" 2> "$outdir/report.err"
status=$?
echo "# tools/report --check: status $status, $(awk -v t0="$t0" -v t1="$(date +%s.%N)" 'BEGIN { printf "%.2f", t1 - t0 }') s, $(stat -c %s "$outdir/report.html") bytes"
python3 - "$outdir/report.html" << 'PY'
import re, sys
page = open(sys.argv[1]).read()
print(re.search(r"Verdict: [^<]*", page).group(0))
print("| figure | measured | reference | of line rate | verdict |\n|---|---|---|---|---|")
for row in re.findall(r"<tr>(.*?)</tr>", page):
    cells = [re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]
    if len(cells) == 7 and cells[4] != "-" or len(cells) == 7 and cells[5] != "-":
        print(f"| {cells[0]} | {cells[2]} | {cells[4]} | {cells[5]} | {cells[6]} |")
PY
echo "# the page: $outdir/report.html"
