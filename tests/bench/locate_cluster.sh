#!/usr/bin/env bash
# netmap/locate on the emulated cluster of tests/cluster (as root): 8 hosts,
# one rank each, links at 200mbit, against faults placed with tc, each case
# REPEATS times (3): a host's link at 50mbit both ways, a slow route
# between two hosts, a host slow only when it sends (its egress shaped),
# two switches joined by a slow trunk with no fault (every pair across it
# alike: nobody may be named), and a slow host behind one of two switches.
# Prints a markdown table: what was to be found, how often it was, what
# else was named, and the time of a run; the outputs stay in OUTDIR.
#   sudo BUILD=build tests/bench/locate_cluster.sh [OUTDIR]
# Takes about five minutes.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/../lib.sh"
. "$here/../cluster/testbed.sh"
outdir=${1:-$TOP/results/locate-cluster-$(date -u +%Y%m%dT%H%M%SZ)}
REPEATS=${REPEATS:-3}
TESTBED_TIMEOUT=${TEST_TIMEOUT:-1800}
ALL=0,1,2,3,4,5,6,7
ARGS="--size 65536 --window 4 --iters 3 --lat-iters 20 --min-worse 25 -c"
mkdir -p "$outdir"
for i in 0 1 2 3 4 5 6 7; do echo "@$i sw$((i / 4))"; done > "$outdir/two-switches"

# What one run named: "endpoint E" and "route A-B" items, sorted, ';'-ended.
named() { # FILE
    sed -n 's/^# culprit ([a-z]*): node .* (endpoint \([0-9]*\), .*) as [a-z ]*:.*/endpoint \1/p;
            s/^# culprit ([a-z]*): .*: slow from node .* (endpoint \([0-9]*\)) to node .* (endpoint \([0-9]*\)).*/route \1-\2/p' "$1" |
        sort -u | tr '\n' ';'
}

# CASE's runs: how many named WANT (every item of it), what else was named.
run_case() { # CASE "WANT" [LOCATE ARGS...]
    local name=$1 want=$2 found=0 others="" times="" r t0 got item extra
    shift 2
    for ((r = 1; r <= REPEATS; r++)); do
        t0=$(date +%s.%N)
        # shellcheck disable=SC2086
        testbed_mpirun $ALL "$BUILD/netmap/locate" $ARGS "$@" > "$outdir/$name.$r.dat" 2> "$outdir/$name.$r.err" ||
            { others="$others run $r failed;"; continue; }
        times="$times $(awk -v t0="$t0" -v t1="$(date +%s.%N)" 'BEGIN { printf "%.1f", t1 - t0 }')"
        got=$(named "$outdir/$name.$r.dat")
        extra=$got
        local all=1
        for item in $(tr ';' ' ' <<< "${want// /_}"); do
            item=${item//_/ }
            case ";$got" in *";$item;"*) extra=${extra//$item;/} ;; *) all=0 ;; esac
        done
        [ -n "$want" ] && [ "$all" = 1 ] && found=$((found + 1))
        [ -n "$extra" ] && others="$others run $r: $extra"
    done
    printf '| %s | %s | %s | %s | %s |\n' "$name" "${want:-nothing}" \
        "$([ -n "$want" ] && echo "$found of $REPEATS" || echo -)" "${others:-none}" \
        "$(tr ' ' '\n' <<< "$times" | grep . | sort -g | awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : "-" }')"
}

echo "# netmap/locate on 8 emulated hosts, 200mbit links ($(date -u +%Y-%m-%dT%H:%M:%SZ)); load before: $(cut -d' ' -f1-3 /proc/loadavg), cores: $(nproc)"
echo "# locate $ARGS (one switch: no --topology; two switches: --topology of the two)"
echo
echo "| case | to be named | found | also named | real s (median) |"
echo "|---|---|---|---|---|"

testbed_bench_up locate_cluster 200mbit 200mbit 200mbit 200mbit 200mbit 200mbit 200mbit 200mbit
run_case "one switch, no fault" ""
testbed_shape "$(testbed_ns 5)" eth0 50mbit
testbed_shape "$(testbed_bridge_ns)" p5 50mbit
run_case "one switch, host 5 at 50mbit" "endpoint 5;"
testbed_shape "$(testbed_ns 5)" eth0 200mbit
testbed_shape "$(testbed_bridge_ns)" p5 200mbit
testbed_slow_route 1 6 50mbit
run_case "one switch, route 1-6 at 50mbit" "route 1-6;route 6-1;"
testbed_slow_route 1 6 200mbit
# Egress alone: host 2's own queue, not the switch port towards it.
testbed_shape "$(testbed_ns 2)" eth0 50mbit
run_case "one switch, host 2 slow sending only" "endpoint 2;"
testbed_down

TESTBED_SWITCHES=2 TESTBED_TRUNK=50mbit
testbed_up 200mbit 200mbit 200mbit 200mbit 200mbit 200mbit 200mbit 200mbit || exit 1
run_case "two switches, 50mbit trunk, no fault" "" --topology="$outdir/two-switches"
testbed_shape "$(testbed_ns 6)" eth0 50mbit
testbed_shape "$(testbed_bridge_ns)" p6 50mbit
run_case "two switches, 50mbit trunk, host 6 at 50mbit" "endpoint 6;" --topology="$outdir/two-switches"
echo
echo "# outputs in $outdir"
