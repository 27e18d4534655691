#!/usr/bin/env bash
# netmap/locate on one machine, blocks of one rank as nodes: every rank
# count from 2 to 17 (2 and 3 refused: it needs 4 nodes), the rounds, the
# per-node summary and the verdict whole, data validated; a topology file
# naming endpoints (@E) makes the rounds aim at switches and groups; a rank
# slowed on purpose (COMMSWEEP_SLOW_RANK) is the only node named; JSON
# Lines valid by the schema; damaged data fails with status 1; bad options
# and bad topology files are refused with status 2 and one line; --timeout
# ends a stalled run with status 3. The culprits at scale are proven under
# SimGrid (make check-scale) and on the emulated cluster.
. "$(dirname "$0")/../lib.sh"
L="$BUILD/netmap/locate"
SMALL="--nodes-by-block=1 --size 4096 --window 2 --iters 2 --lat-iters 5"


# The rounds block: R lines "round aim pairs bw lat" with floor(N/2) pairs
# and positive figures; the node block: N lines ending in a verdict.
whole() { # N ROUNDS
    local n=$1 rounds=$2
    data_block 1 | awk -v r="$rounds" -v p=$((n / 2)) '{ k++; if (NF != 5 || $1 != k || $3 != p || !($4 > 0) || !($5 > 0)) bad = 1 }
        END { exit bad || k != r }' || { echo "rounds block:"; data_block 1; return 1; }
    data_block 2 | awk -v n="$n" '{ k++; if (NF != 10 || $1 != k - 1 || $10 !~ /^(ok|cleared|named)$/) bad = 1 }
        END { exit bad || k != n }' || { echo "node block:"; data_block 2; return 1; }
    grep -q "^# verdict: $n nodes and [0-9]* pairs judged in $rounds screening rounds" "$OUT" &&
        grep -q '^# all data validated' "$OUT" || { grep '^# verdict' "$OUT"; return 1; }
}

at() { # NP
    local np=$1
    run "$np" "$L" $SMALL -c
    if [ "$np" -lt 4 ]; then
        expect_usage_error "locate at $np ranks: refused, it needs 4 nodes" locate
        return
    fi
    expect_success "locate at $np ranks: 8 rounds of $((np / 2)) pairs, $np nodes judged, a verdict, data validated" \
        whole "$np" 8
}
counts="2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17"
test_short && counts="2 3 4 5 8"
for np in $counts; do in_parallel at "$np"; done
in_parallel_end

# A topology by endpoint: 2 groups of 2 switches of 2 nodes. The rounds:
# groups meet once, the switches of each group once, each switch twice,
# then more in turn up to 8.
cat > "$TMPD/topo" << 'EOF'
@0 swA g1
@1 swA g1
@2 swB g1
@3 swB g1
@4 swC g2
@5 swC g2
@6 swD g2
@7 swD g2
EOF
run 8 "$L" $SMALL -c --topology="$TMPD/topo"
expect "[ \"\$RC\" = 0 ] && [ \"\$(data_block 1 | awk '{ printf \"%s \", \$2 }')\" = 'across-groups same-group same-switch same-switch across-groups same-group same-switch across-groups ' ] && grep -q '^# topology: .* (8 of 8 endpoints placed, 4 switches, 2 groups)' '$OUT' && data_block 2 | awk '\$1 == 5 && \$3 == \"swC\" && \$4 == \"g2\"' | grep -q ." \
    "locate --topology: the rounds cross groups, switches and nodes of a switch in turn; the nodes' switches and groups"
# Slurm's form of the same.
printf 'SwitchName=swA Nodes=@[0-1]\nSwitchName=swB Nodes=@[2-3]\nSwitchName=g1 Switches=swA,swB\n' > "$TMPD/topo.conf"
run 4 "$L" $SMALL --topology="$TMPD/topo.conf"
expect "[ \"\$RC\" = 0 ] && grep -q '^# topology: .* (4 of 4 endpoints placed, 2 switches, 1 group)' '$OUT'" \
    "locate --topology reads Slurm's topology.conf"

# A node slowed on purpose (10 ms in each exchange) is named, and no other.
slowed() { # RANK
    COMMSWEEP_SLOW_RANK=$1 run 8 "$L" $SMALL
    expect "[ \"\$RC\" = 0 ] && grep -q '^# culprit (latency): node .* (endpoint $1, ' '$OUT' && ! grep '^# culprit ([a-z]*): node ' '$OUT' | grep -qv '(endpoint $1, '" \
        "locate, rank $1 slowed: it is named, and no other node"
}
in_parallel slowed 0
in_parallel slowed 6
in_parallel_end

# JSON Lines by the schema.
if command -v python3 > /dev/null; then
    COMMSWEEP_SLOW_RANK=3 run 6 "$L" $SMALL --format=jsonl
    if [ "$RC" = 0 ] && python3 "$TOP/tests/integration/jsonl_check.py" "$TOP/doc/jsonl.schema.json" "$OUT" \
        --program netmap/locate --min-rows 1 > "$TMPD/check" 2>&1 &&
        [ "$(grep -c '"table":"netmap_locate_node"' "$OUT")" = 6 ] &&
        grep -q '"table":"netmap_locate_culprit".*"kind":"node"' "$OUT" &&
        [ "$(grep -c '"table":"netmap_locate_verdict"' "$OUT")" = 1 ]; then
        ok "locate --format=jsonl: valid by the schema, 6 node rows, the culprit, one verdict"
    else
        not_ok "locate --format=jsonl: valid by the schema" "status $RC; $(head -c 1500 "$TMPD/check")"
    fi
fi

# Damaged data fails the check.
COMMSWEEP_CORRUPT=1 COMMSWEEP_CORRUPT_RANK=2 run 4 "$L" $SMALL -c
expect "[ \"\$RC\" = 1 ] && grep -q 'data check failed' '$ERR'" "locate -c: damaged data fails with status 1"

# Bad input: one line, status 2, on every rank.
printf '@0 a\n@1\n' > "$TMPD/bad-topo"
printf 'SwitchName=x Nodes=@[0-\n' > "$TMPD/bad-conf"
mkdir -p "$TMPD/folder"
bad() { # DESCRIPTION ARGS...
    local desc=$1
    shift
    refused 4 locate "locate refused: $desc" "$L" $SMALL "$@"
}
in_parallel bad "--partners 0" --partners 0
in_parallel bad "--partners x" --partners x
in_parallel bad "--confirm 0" --confirm 0
in_parallel bad "--confirm 99" --confirm 99
in_parallel bad "--max-probes 0" --max-probes 0
in_parallel bad "--min-worse 100" --min-worse 100
in_parallel bad "--mads -1" --mads -1
in_parallel bad "--stats" --stats
in_parallel bad "a stray argument" stray
in_parallel bad "a topology that does not exist" --topology "$TMPD/none"
in_parallel bad "a topology that is a folder" --topology "$TMPD/folder"
in_parallel bad "a malformed topology line" --topology "$TMPD/bad-topo"
in_parallel bad "a malformed Slurm host list" --topology "$TMPD/bad-conf"
in_parallel bad "--topology=xname where no host name is an xname" --topology=xname
in_parallel bad "two lanes a node" --nodes-by-block=2 --ranks-per-node=2
in_parallel_end
run 4 "$L" $SMALL --topology "$TMPD/bad-topo"
expect "grep -q 'line 2' '$ERR'" "a malformed topology file: the line is named"

if test_short; then
    skip "locate --timeout=1 with a stalled rank" "MPICH: timeout.sh covers the watchdog"
else
    COMMSWEEP_STALL_RANK=2 run 4 "$L" $SMALL --timeout=1
    expect_stalled "locate --timeout=1, rank 2 stalled: status 3, rank 2 named" locate 2 20 "screening round 1"
fi
