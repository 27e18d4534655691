#!/usr/bin/env bash
# The network-map family on one machine, every rank its own endpoint
# (--ranks-per-node=all) or blocks of ranks as nodes: pairs, rings,
# bisection and congestion at 1 to 8 ranks with -c; the matrices, summaries
# and rows are whole and finite; a damaged transfer fails the check; a job
# with too few nodes and bad options are refused with status 2; --timeout
# ends a stalled run. The culprits themselves are tested on the emulated
# cluster (tests/cluster/netmap.sh) and the rule in test_netmap_culprit.
. "$(dirname "$0")/../lib.sh"
D="$BUILD/netmap"
SMALL="--size 4096 --window 2 --iters 2 --lat-iters 5"
ALL="--ranks-per-node=all"


# An n x n matrix block: n lines of n fields, nan exactly on the diagonal,
# positive numbers elsewhere.
matrix_ok() { # B N
    data_block "$1" | awk -v n="$2" '{ r++; if (NF != n) bad = 1
        for (i = 1; i <= NF; i++) {
            if (i == r) { if ($i != "nan") bad = 1 }
            else if (!($i + 0 > 0)) bad = 1 } }
        END { exit bad || r != n }'
}

# A per-endpoint summary block: n lines "e host min median max min median max"
# with min <= median <= max.
summary_ok() { # B N
    data_block "$1" | awk -v n="$2" '{ r++; if (NF != 8 || $1 != r - 1) bad = 1
        if (!($3 <= $4 && $4 <= $5 && $6 <= $7 && $7 <= $8 && $3 > 0)) bad = 1 }
        END { exit bad || r != n }'
}

# Each program at NP ranks, the runs side by side (lib.sh's in_parallel).
pairs_at() { # NP
    local np=$1
    run "$np" "$D/pairs" $ALL $SMALL -c --mode=both
    expect "[ \"\$RC\" = 0 ] && matrix_ok 1 $np && summary_ok 2 $np && matrix_ok 3 $np && summary_ok 4 $np && matrix_ok 5 $np && summary_ok 6 $np && grep -q '^# all data validated' '$OUT'" \
        "pairs at $np ranks: shifted and isolated bandwidth and latency matrices, summaries, data validated"
}
rings_at() { # NP
    local np=$1
    run "$np" "$D/rings" $ALL $SMALL -c --rings 3
    expect "[ \"\$RC\" = 0 ] && [ \$(data_block 1 | awk 'NF == 4 && \$3 > 0 && \$4 > 0' | wc -l) = 4 ] && grep -q '^# random/natural: latency [0-9.]*, bandwidth [0-9.]*$' '$OUT' && grep -q '^# all data validated' '$OUT'" \
        "rings at $np ranks: natural and 3 random rings, the ratio, data validated"
}
bisection_at() { # NP
    local np=$1
    run "$np" "$D/bisection" $ALL $SMALL -c --bisections 3
    expect "[ \"\$RC\" = 0 ] && [ \$(data_block 1 | awk -v p=$((np / 2)) 'NF == 7 && \$2 == p && \$4 <= \$5 && \$5 <= \$6 && \$4 > 0' | wc -l) = 3 ] && grep -q '^# effective bisection bandwidth per endpoint over 3 bisections' '$OUT'" \
        "bisection at $np ranks: 3 bisections of $((np / 2)) pairs, min <= median <= max"
}
# 12 rows of positive figures and impacts, data validated; else the rows.
congestion_ok() {
    [ "$(data_block 1 | awk 'NF == 8 && $3 > 0 && $5 > 0 && $7 > 0' | wc -l)" = 12 ] &&
        grep -q '^# all data validated' "$OUT" && return
    data_block 1
    return 1
}
congestion_at() { # NP
    local np=$1
    run "$np" "$D/congestion" $ALL $SMALL -c --victims 40
    expect_success "congestion at $np ranks: 3 victim tests x 4 congestors, positive figures, data validated" \
        congestion_ok
}
for np in 2 3 4 5 6 7 8; do
    case $np in 6 | 7 | 8) test_short && continue ;; esac
    for prog in pairs rings bisection; do in_parallel ${prog}_at "$np"; done
    [ "$np" -ge 4 ] && in_parallel congestion_at "$np"
done
in_parallel_end

# The mean over the endpoints is their sum over their count: the row adds up.
run 4 "$D/bisection" $ALL $SMALL --bisections 2
expect "[ \"\$RC\" = 0 ] && data_block 1 | awk '{ d = \$3 * 4 - \$7; if (d * d > 1e-3 * \$7 * \$7) exit 1 }'" \
    "bisection: the mean per endpoint times the endpoints is the total"

# Nodes as blocks of ranks, two lanes each: a node map of 3 nodes.
run 6 "$D/pairs" --nodes-by-block=2 --ranks-per-node=2 $SMALL -c
expect "[ \"\$RC\" = 0 ] && matrix_ok 1 3 && matrix_ok 3 3 && grep -q '^# endpoints: 3 nodes (blocks of consecutive ranks, --nodes-by-block), 2 ranks of each taking part' '$OUT' && grep -q '^# endpoint 2: ' '$OUT'" \
    "pairs, 6 ranks as 3 nodes of 2 lanes: 3 x 3 maps"
run 6 "$D/rings" --nodes-by-block=3 $SMALL --rings 1
expect "[ \"\$RC\" = 0 ] && [ \$(data_block 1 | wc -l) = 2 ] && grep -q '^# endpoints: 2 nodes .*, 1 rank of each' '$OUT'" \
    "rings, 6 ranks as 2 nodes of 3, one rank of each taking part"

# JSON Lines: a header, rows of the declared tables, a summary.
run 4 "$D/pairs" $ALL $SMALL --format=jsonl --stats
expect "[ \"\$RC\" = 0 ] && [ \$(grep -c '\"table\":\"netmap_bandwidth\"' '$OUT') = 12 ] && [ \$(grep -c '\"table\":\"netmap_latency\"' '$OUT') = 12 ] && grep -q '\"p95\"' '$OUT' && ! grep -q '^#' '$OUT'" \
    "pairs --format=jsonl --stats: 12 bandwidth and 12 latency rows with their spread"
if command -v python3 > /dev/null && [ -f "$TOP/tests/integration/jsonl_check.py" ]; then
    for prog in "pairs $ALL --stats" "rings $ALL --rings 2 --stats" "bisection $ALL --bisections 2" "congestion $ALL --victims 50"; do
        run 4 "$D/${prog%% *}" ${prog#* } $SMALL --format=jsonl
        if [ "$RC" = 0 ] && python3 "$TOP/tests/integration/jsonl_check.py" "$TOP/doc/jsonl.schema.json" "$OUT" \
            --program "netmap/${prog%% *}" --min-rows 1 > "$TMPD/check" 2>&1; then
            ok "${prog%% *}: JSON Lines valid against the schema"
        else
            not_ok "${prog%% *}: JSON Lines valid against the schema" "status $RC; $(head -c 1500 "$TMPD/check")"
        fi
    done
fi

# The data check can fail: a rank damages what it received.
# (Rank 2 is a victim of the congestion test at 4 endpoints, 50%.)
damaged() { # "PROGRAM ARGS"
    local prog=$1
    COMMSWEEP_CORRUPT=1 COMMSWEEP_CORRUPT_RANK=2 run 4 "$D/${prog%% *}" ${prog#* } $ALL $SMALL -c
    expect "[ \"\$RC\" = 1 ] && grep -q 'data check failed' '$ERR' && grep -q 'data verification failed' '$ERR'" \
        "${prog%% *} ${prog#* }: damaged data fails -c with status 1"
}
for prog in "pairs --metric=bandwidth" "pairs --metric=latency" "rings --rings 1" "bisection --bisections 1" "congestion --congestor=bcast --victims 50" "congestion --congestor=incast --victims 50 --lat-size 1"; do
    in_parallel damaged "$prog"
done
in_parallel_end

# Too few endpoints: one line, status 2, on every rank.
for prog in pairs rings bisection congestion; do
    refused 1 "$prog" "$prog at 1 rank: refused, it needs more endpoints" "$D/$prog" $ALL
done
refused 3 pairs "pairs, 3 ranks on one node: refused, one node" "$D/pairs"
expect "grep -q 'needs 2 nodes or more; this job has 1' '$ERR'" "the refusal says how many nodes it needs and has"
refused 3 congestion "congestion at 3 endpoints: refused, it needs 4" "$D/congestion" $ALL
refused 4 pairs "--ranks-per-node=3 on blocks of 2: refused" "$D/pairs" --nodes-by-block=2 --ranks-per-node=3
# Bad options, the runs side by side.
refuses() { # NP PROGRAM BAD
    refused "$1" "$2" "$2 refused: $3" "$D/$2" $ALL $3
}
for prog in pairs rings bisection congestion; do
    for bad in "--size 0" "--size x" "--size -1" "--window 0" "--iters 99999999999999999999" \
        "--lat-size 0" "--lat-iters 0" "--ranks-per-node 0" "--ranks-per-node some" \
        "--nodes-by-data_block 0" "--seed x" "--timeout -1" "--bogus" "stray"; do
        in_parallel refuses 2 "$prog" "$bad"
    done
done
for bad in "--mode sideways" "--metric speed" "--mads -1" "--min-worse 100" "--min-worse x"; do
    in_parallel refuses 2 pairs "$bad"
done
for bad in "--rings x" "--rings -2"; do in_parallel refuses 2 rings "$bad"; done
for bad in "--bisections 0" "--stats"; do in_parallel refuses 2 bisection "$bad"; done
for bad in "--victims 0" "--victims 101" "--congestor none" "--congestor-size 2" "--stats"; do
    in_parallel refuses 4 congestion "$bad"
done
in_parallel_end

# --timeout: a rank that never reaches its step ends the run, named. (Under
# MPICH, whose launcher may report a rank's status 1 when another ended
# first, timeout.sh covers the watchdog; these run under Open MPI.)
if test_short; then
    skip "pairs and congestion --timeout=1 with a stalled rank" "MPICH: timeout.sh covers the watchdog"
else
    COMMSWEEP_STALL_RANK=1 run 3 "$D/pairs" $ALL $SMALL --timeout=1
    expect_stalled "pairs --timeout=1, rank 1 stalled: status 3, the line names rank 1 and the step" pairs 1 20 "bandwidth, shift by 1"
    COMMSWEEP_STALL_RANK=2 run 4 "$D/congestion" $ALL $SMALL --timeout=1 --victims 50
    expect_stalled "congestion --timeout=1, rank 2 stalled: status 3, rank 2 named" congestion 2 20 "the victims alone"
fi

# The heatmaps: plot/plot.sh draws one PNG per matrix of a pairs file.
if command -v gnuplot > /dev/null; then
    run 4 "$D/pairs" $ALL $SMALL --mode=both
    cp "$OUT" "$TMPD/pairs.dat"
    "$TOP/plot/plot.sh" "$TMPD/pairs.dat" > "$TMPD/plotted" 2>&1
    expect "[ \$? = 0 ] && [ -s '$TMPD/pairs-bandwidth-shifted.png' ] && [ -s '$TMPD/pairs-bandwidth-isolated.png' ] && [ -s '$TMPD/pairs-latency.png' ]" \
        "plot.sh draws the shifted, isolated and latency heatmaps of a pairs file"
else
    skip "plot.sh draws the heatmaps" "gnuplot is not installed"
fi
