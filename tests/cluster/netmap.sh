#!/usr/bin/env bash
# make check-cluster, second part: the network map (netmap/) on an emulated
# cluster of 8 hosts, one rank each. Prints TAP lines and ends with
# "N passed, N failed[, N skipped]"; needs root, and skips (saying why)
# where network namespaces cannot be made or the launcher is not Open MPI.
#
# One switch, every link 200mbit (the isolated bandwidth map):
#   - pairs names nobody;
#   - a slow route 1 <-> 6 (50mbit): pairs names links 1 -> 6 and 6 -> 1,
#     and no host;
#   - host 3's link at 50mbit (the route restored): pairs names host 3 as
#     sender and receiver, and nothing else.
# Two switches of 4 hosts joined by a 50mbit trunk:
#   - the effective bisection bandwidth of all 8 hosts, whose random halves
#     cross the trunk, is below half that of the 4 hosts of one switch;
#   - congestion: victims 0 and 4 (across the trunk) under all-to-all
#     congestors on the other 6 see their ring bandwidth fall (impact above
#     1.2) and their isolated ring bandwidth within 30% of a rings run of
#     the same two hosts.
#   - locate, with the two switches as its topology and host 5's link at
#     50mbit: names host 5 and nothing else (the trunk is every
#     cross-switch pair's bottleneck, so those are judged against each
#     other, and the slow host shows beside its switch's others).
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/../lib.sh"
. "$here/testbed.sh"

TESTBED_TIMEOUT=${TEST_TIMEOUT:-120}
ALL=0,1,2,3,4,5,6,7
N=$BUILD/netmap
# Small windows: each map step moves 256 KiB per pair, 10 ms at 200mbit.
MAP="--size 65536 --window 4 --iters 3 --lat-iters 20"
# The culprits are named from the isolated map: in the shifted one every
# host sends and receives at once, and on these tbf-shaped links TCP's
# acknowledgements wait behind the other direction's data in the shaper's
# queue, which halves some pairs at random (an artefact of the emulation,
# not of the rule; the shifted map runs in the benchmark script).
# A pair of this busy two-core machine comes out up to ~12% low now and
# then (the first pairs to a host, mostly); the injected faults are 75%
# down, so the rule's floor is 25% here instead of the default 10%.
PAIRS="$MAP --mode=isolated --min-worse 25"
# Rings of two hosts across the trunk: loops of 2 x 256 KiB take ~150 ms,
# long enough that TCP's state does not make one run differ from the next.
RING="--size 262144 --iters 5 --lat-iters 20"

trap 'testbed_down; rm -rf "$TMPD"' EXIT
trap 'exit 130' INT TERM
why=$(testbed_unusable)
for p in pairs rings bisection congestion locate; do
    [ -z "$why" ] && [ ! -x "$N/$p" ] && why="$N/$p is not built (make check-cluster builds it)"
done
if [ -n "$why" ]; then
    skip "network map on 8 emulated hosts" "$why"
    summary "network map skipped: $why"
    exit
fi
export TESTBED_PRELOAD="$BUILD/tests/cluster/wait_sleep.so"
[ -f "$TESTBED_PRELOAD" ] || { not_ok "wait_sleep.so is built" "missing $TESTBED_PRELOAD"; summary; exit; }

cluster_run() { # HOSTS PROGRAM ARGS...
    testbed_mpirun "$@" > "$OUT" 2> "$ERR" &
    wait $!
    RC=$?
}

# The '# culprit:' lines of $OUT for the shifted bandwidth map, as
# "endpoint E as DIR" or "link A -> B", sorted, one a line.
named() {
    sed -n 's/^# culprit (bandwidth, isolated): \(endpoint [0-9]*\) (.*) as \([a-z]*\): .*/\1 as \2/p;
            s/^# culprit (bandwidth, isolated): \(link [0-9]* -> [0-9]*\) (.*/\1/p' "$OUT" | sort | tr '\n' ';'
}

# A map whose names differ from those expected is measured once more (a
# '#' line says so): a TCP stall of this emulation can take a quarter off
# a healthy pair now and then, where an injected fault, or a wrong rule,
# gives the same names twice.
map_names() { # DESCRIPTION EXPECTED
    local got try
    for try in 1 2; do
        cluster_run $ALL "$N/pairs" $PAIRS --metric=bandwidth -c
        got=$(named)
        [ "$RC" = 0 ] && [ "$got" = "$2" ] && break
        [ "$try" = 1 ] && echo "# $1: measured again after status $RC, named '$got'"
    done
    if [ "$RC" = 0 ] && [ "$got" = "$2" ] && grep -q '^# all data validated' "$OUT"; then
        ok "$1"
    else
        not_ok "$1" "status $RC, named: '${got}', want '$2'
$(grep -E '^# culprit' "$OUT" | head -n 5)
$(head -c 800 "$ERR")"
    fi
    cp "$OUT" "$RESULTS/pairs-$3.dat"
}

RESULTS="$BUILD/tests/cluster"
mkdir -p "$RESULTS"
echo "# load average at the start: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"

# ---- one switch ----
if testbed_up 200mbit 200mbit 200mbit 200mbit 200mbit 200mbit 200mbit 200mbit; then
    ok "testbed of 8 hosts at 200mbit, one switch"
    map_names "pairs, every link 200mbit: nobody named" "" equal
    testbed_slow_route 1 6 50mbit
    map_names "pairs, slow route 1 <-> 6: the two links named, no host" \
        "link 1 -> 6;link 6 -> 1;" route
    testbed_slow_route 1 6 200mbit
    testbed_shape "$(testbed_ns 3)" eth0 50mbit
    testbed_shape "$(testbed_bridge_ns)" p3 50mbit
    map_names "pairs, host 3 at 50mbit: host 3 named as sender and receiver, nothing else" \
        "endpoint 3 as receiver;endpoint 3 as sender;" host
else
    not_ok "testbed of 8 hosts at 200mbit, one switch"
fi
testbed_down

# ---- two switches joined by a slow trunk ----
TESTBED_SWITCHES=2 TESTBED_TRUNK=50mbit
if testbed_up 200mbit 200mbit 200mbit 200mbit 200mbit 200mbit 200mbit 200mbit; then
    ok "testbed of 8 hosts at 200mbit, two switches joined by a 50mbit trunk"
    cluster_run 0,1,2,3 "$N/bisection" $MAP --bisections 4 -c
    within=$(sed -n 's/^# effective bisection bandwidth per endpoint over 4 bisections: min [0-9.]*, median \([0-9.]*\),.*/\1/p' "$OUT")
    cluster_run $ALL "$N/bisection" $MAP --bisections 4 -c
    across=$(sed -n 's/^# effective bisection bandwidth per endpoint over 4 bisections: min [0-9.]*, median \([0-9.]*\),.*/\1/p' "$OUT")
    expect "[ \"\$RC\" = 0 ] && [ -n '$within' ] && [ -n '$across' ] && awk 'BEGIN { exit !($across < 0.5 * $within) }'" \
        "bisection: 8 hosts across the trunk ($across MB/s per endpoint) below half of one switch's 4 ($within)"

    # Both directions of a two-host ring cross the trunk at once, so the
    # emulation's halving (see PAIRS above) can strike either run: a second
    # pair of runs is taken when the two disagree, as locate does below.
    for try in 1 2; do
        cluster_run 0,4 "$N/rings" $RING --rings 1
        plain=$(awk '!/^#/ && $2 == "natural" { print $4 }' "$OUT")
        cluster_run $ALL "$N/congestion" $RING --victims 25 --congestor=alltoall --congestor-size 65536 -c
        row=$(awk '!/^#/ && $1 == "bandwidth" && $2 == "alltoall"' "$OUT")
        alone=$(awk '{ print $3 }' <<< "$row") impact=$(awk '{ print $7 }' <<< "$row")
        [ -n "$plain" ] && [ -n "$alone" ] && awk "BEGIN { r = $alone / $plain; exit !(r > 0.7 && r < 1.3) }" && break
        [ "$try" = 1 ] && echo "# congestion: measured again, isolated ring ${alone:-none} MB/s against a rings run's ${plain:-none}"
    done
    cp "$OUT" "$RESULTS/congestion.dat"
    expect "[ \"\$RC\" = 0 ] && grep -q '^# victims: 2 of 8 endpoints (25%, spread evenly): 0,4;' '$OUT' && [ -n '$impact' ] && awk 'BEGIN { exit !($impact > 1.2) }'" \
        "congestion: victims 0 and 4 under all-to-all congestors: bandwidth impact $impact, above 1.2"
    expect "[ -n '$plain' ] && [ -n '$alone' ] && awk 'BEGIN { r = $alone / $plain; exit !(r > 0.7 && r < 1.3) }'" \
        "congestion: the isolated victims' ring bandwidth ($alone MB/s) within 30% of a rings run of the same hosts ($plain)"

    # locate: the switches as a topology by endpoint, host 5 at 50mbit.
    for i in 0 1 2 3 4 5 6 7; do echo "@$i sw$((i / 4))"; done > "$TMPD/two-switches"
    testbed_shape "$(testbed_ns 5)" eth0 50mbit
    testbed_shape "$(testbed_bridge_ns)" p5 50mbit
    for try in 1 2; do
        cluster_run $ALL "$N/locate" $MAP --min-worse 25 --topology="$TMPD/two-switches" -c
        got=$(sed -n 's/^# culprit (\([a-z]*\)): node .* (endpoint \([0-9]*\), .*) as \([a-z ]*\):.*/endpoint \2/p;
                     s/^# culprit (\([a-z]*\)): \([^:]*\): slow from .*/route: \2/p' "$OUT" | sort -u | tr '\n' ';')
        [ "$RC" = 0 ] && [ "$got" = "endpoint 5;" ] && break
        [ "$try" = 1 ] && echo "# locate: measured again after status $RC, named '$got'"
    done
    cp "$OUT" "$RESULTS/locate.dat"
    expect "[ \"\$RC\" = 0 ] && [ '$got' = 'endpoint 5;' ] && grep -q '^# all data validated' '$OUT'" \
        "locate, two switches, host 5 at 50mbit: host 5 named, nothing else (named: '$got')"
else
    not_ok "testbed of 8 hosts, two switches"
fi
testbed_down
left=$(testbed_leftovers)
expect '[ -z "$left" ]' "no namespace, link or process of the testbed is left"
summary
