#!/usr/bin/env bash
# netmap/locate against faults placed on simulated fabrics (SimGrid SMPI):
# per topology, size and case, over SEEDS seeds, the faults found, the false
# names, the extra rounds, the real time to simulate and the simulated time
# of the run; netmap/pairs --mode=both beside it where its size allows
# (LOCATE_PAIRS_UP_TO nodes, 64 by default: its time grows as N^2).
#
#   tests/bench/locate.sh [SIZES] > table.md        (default: 1024)
#
# Cases: no fault, one slow node (its NIC at 50%), two slow nodes, one slow
# link (both ways), one slow switch uplink (one direction), one node slow
# only when sending; each drawn from the seed by platform.py. Topologies:
# LOCATE_TOPOLOGIES (default "fattree dragonfly"; the presets fattree-N and
# dragonfly-N, or frontier at 9408), LOCATE_CASES (default all six, in the
# order above). LOCATE_SEEDS seeds (default 20),
# LOCATE_LIMIT seconds a run (default 600). Needs make SMPI=1 (BUILD,
# default build-smpi). Prints a Markdown table; LOCATE_LOG=FILE keeps each
# run's verdict.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build-smpi}
case "$BUILD" in /*) ;; *) BUILD="$top/$BUILD" ;; esac
sizes=${1:-1024}
seeds=${LOCATE_SEEDS:-20}
limit=${LOCATE_LIMIT:-600}
pairs_up_to=${LOCATE_PAIRS_UP_TO:-64}
platform="$top/tests/scale/platform.py"
grep -q 'SMPI=1' "$BUILD/.config" 2>/dev/null ||
    { echo "locate.sh: $BUILD is not an SMPI build (make SMPI=1)" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/commsweep-locate.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
log=${LOCATE_LOG:-$tmp/log}
ARGS=(--size=1048576 --window=2 --iters=1 --lat-iters=5)

declare -A CASES=(
    [none]=""
    [node]="node=1"
    [2nodes]="node=2"
    [link]="link=1"
    [uplink]="uplink=1"
    [node-send]="node-send=1"
)
ORDER=${LOCATE_CASES:-none node 2nodes link uplink node-send}

# platform.py's words for a topology of N nodes: a preset where there is
# one, else the topology sized to N.
shape() { # TOPOLOGY N
    if [ "$2" = 9408 ]; then
        echo "preset frontier"
    elif "$platform" presets | grep -q "^$1-$2 "; then
        echo "preset $1-$2"
    else
        echo "$1 --nodes $2"
    fi
}

# One run: "FOUND FAULTS FALSE ROUNDS REAL_S SIM_S" or "" on failure.
one() { # PROGRAM PREFIX N EXTRA...
    local program=$1 prefix=$2 n=$3
    shift 3
    local cfg
    read -r -a cfg <<< "$("$platform" cfg --line --ranks "$n")"
    /usr/bin/time -f '%e' -o "$tmp/time" timeout -k 5 "$limit" smpirun -np "$n" \
        -platform "$prefix.so" -hostfile "$prefix.hosts" "${cfg[@]}" -quiet \
        "$BUILD/netmap/$program" "$@" > "$tmp/out" 2> "$tmp/err" < /dev/null
    local rc=$? real sim verdict rounds
    real=$(tail -n 1 "$tmp/time")
    # The driver's "# run time:" line: MPI_Wtime, simulated under SMPI.
    sim=$(sed -n 's/^# run time: \([0-9.]*\) s.*/\1/p' "$tmp/out")
    [ "$rc" = 0 ] || { echo "$program $prefix rc=$rc $(head -c 300 "$tmp/err")" >> "$log"; return 0; }
    verdict=$(python3 "$top/tests/scale/located.py" "$prefix" "$tmp/out" --summary | tail -n 1)
    rounds=$(sed -n 's/^# verdict: .* in \([0-9]*\) screening rounds.*; \([0-9]*\) extra rounds.*/\1+\2/p' "$tmp/out")
    echo "$program $prefix $verdict rounds $rounds real $real sim $sim" >> "$log"
    read -r _ faults _ found _ false <<< "$verdict"
    echo "$found $faults $false ${rounds:-?} $real ${sim:-?}"
}

echo "| topology | nodes | case | program | found | false names | rounds (screening+extra) | real s (median) | simulated s (median) |"
echo "|---|---|---|---|---|---|---|---|---|"
for topo in ${LOCATE_TOPOLOGIES:-fattree dragonfly}; do
    for n in $sizes; do
        for c in $ORDER; do
            for program in locate pairs; do
                [ "$program" = pairs ] && [ "$n" -gt "$pairs_up_to" ] && continue
                found=0 faults=0 false=0 rounds="" reals="" sims="" runs=0
                for ((s = 1; s <= seeds; s++)); do
                    prefix="$tmp/p-$topo-$n-$c-$s"
                    spec=${CASES[$c]}
                    # shellcheck disable=SC2086
                    "$platform" $(shape "$topo" "$n") -o "$prefix" \
                        ${spec:+--seed $s --random-faults $spec} > /dev/null 2>&1 ||
                        { echo "locate.sh: no platform $topo $n $c" >&2; continue; }
                    if [ "$program" = locate ]; then
                        got=$(one locate "$prefix" "$n" --topology="$prefix.topology" "${ARGS[@]}")
                    else
                        got=$(one pairs "$prefix" "$n" --mode=both --metric=bandwidth "${ARGS[@]}")
                    fi
                    [ -n "$got" ] || continue
                    read -r f t x r real sim <<< "$got"
                    found=$((found + f)) faults=$((faults + t)) false=$((false + x))
                    rounds="$rounds $r" reals="$reals $real" sims="$sims $sim" runs=$((runs + 1))
                done
                med() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "-" }'; }
                printf '| %s | %s | %s | %s | %s of %s | %s | %s | %s | %s |\n' "$topo" "$n" "$c" "$program" \
                    "$found" "$faults" "$false" "$(echo "$rounds" | tr ' ' '\n' | grep . | sort -u | tr '\n' ' ')" \
                    "$(echo "$reals" | med)" "$(echo "$sims" | med)"
            done
        done
    done
done
