#!/usr/bin/env bash
# Window (synchronised) timing: the clock model against an injected skew
# (COMMSWEEP_CLOCK_SKEW and tests/clock/clock_check) at 2, 4 and 8 ranks,
# and a model without drift that must fail; OSU collectives (blocking,
# non-blocking, the barrier, a neighborhood and a persistent one) under
# --timing=window at 1 to 8 ranks with -c, in the same layout as under
# barrier timing; cpm/collective; bad values.
# Where other programs hold the cores, ranks cannot start together and a
# program may answer that every call missed its window: those runs (above
# one rank) are skipped, not passed.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/osu_coll_lib.sh"
P=$BUILD/osu
CHECK=$BUILD/tests/clock/clock_check
COLL=$BUILD/cpm/collective

# --- the clock model finds an injected offset and drift within 1 us

# Why the clock_check output in $OUT is wrong for a skew that makes rank
# R's offset against rank 0 about OFF us with drift DRIFT ppm; empty when
# right: four checks within 1 us, and rank R's line shows the skew (so a
# hook that did nothing cannot pass) with the model's drift close to it.
clock_problems() { # R OFF DRIFT
    [ "$(data_lines | awk '$3 + 0 <= 1' | wc -l)" = 4 ] || echo "errors above 1 us or checks missing: $(data_lines | tr '\n' '|')"
    grep "^# rank $1: offset true" "$OUT" | tr ',;' '  ' | awk -v off="$2" -v drift="$3" '
        { t = $6; m = $9; dt = $13; dm = $16 }
        (t - off) ^ 2 > 200 ^ 2 { print "true offset " t " us, injected about " off }
        (m - t) ^ 2 > 1 { print "model offset " m " us against " t }
        (dt - drift) ^ 2 > 1 { print "true drift " dt " ppm, injected " drift }
        (dm - dt) ^ 2 > 25 { print "model drift " dm " ppm against " dt }
        { seen = 1 }
        END { if (!seen) print "no line for rank R" }'
}
# At 2 and 8 ranks the last rank is skewed; at 4 ranks rank 0, so that
# every other rank sees the opposite offset and drift.
skewed() { # RANKS SKEW: runs clock_check with COMMSWEEP_CLOCK_SKEW=SKEW
    export COMMSWEEP_CLOCK_SKEW=$2
    run "$1" "$CHECK" --span 200 --horizon 100
}
skewed 2 1:2500:100
expect_success "clock model within 1 us of rank 1's 2500 us, 100 ppm skew at 2 ranks" \
    clock_problems 1 -2500 -100
skewed 4 0:-1500:-80
expect_success "clock model within 1 us of rank 0's -1500 us, -80 ppm skew at 4 ranks" \
    clock_problems 3 -1500 -80
skewed 8 7:2500:100
expect_success "clock model within 1 us of rank 7's 2500 us, 100 ppm skew at 8 ranks" \
    clock_problems 7 -2500 -100
# Without the drift the same skew must be caught (the model is off by
# 100 ppm x the 0.1 s to 0.3 s since its points).
export COMMSWEEP_CLOCK_SKEW="1:2500:100"
run 2 "$CHECK" --span 200 --horizon 100 --offset-only
expect '[ "$RC" = 1 ] && [ "$(program_lines clock_check)" = 1 ] && grep -q "off by" "$ERR"' \
    "a model without drift misses an injected 100 ppm drift (status 1)"
export COMMSWEEP_CLOCK_SKEW="1:abc:0"
refused 0 clock_check "a malformed COMMSWEEP_CLOCK_SKEW refused" "$CHECK"
export COMMSWEEP_CLOCK_SKEW="5:0:0"
refused 0 osu_allreduce "COMMSWEEP_CLOCK_SKEW naming a rank beyond the run refused" \
    "$P/osu_allreduce" --timing=window -m 4:4 -i 2
unset COMMSWEEP_CLOCK_SKEW

# --- OSU collectives: the same table under both timings

# The heading, the sizes (the barriers have none) and each row's width and
# field count.
layout() {
    grep -E '^# (Size|Avg Latency|Overall)' "$OUT"
    data_lines | awk -v sized="$(grep -c '^# Size' "$OUT")" '{ print (sized ? $1 : "-") " " length($0) " " NF }'
}
# Why $OUT of a window run of ITERS calls per series is wrong: each row
# followed by its '# window:' line, kept + missed = ITERS in every series,
# kept in the Iterations column (blocking -f), Pass (-c), positive times.
window_problems() { # ITERS
    awk -v n="$1" '
        /^# window: .*kept/ {
            if (!row) print "a window line without a row: " $0
            line = $0; k = 0
            while (match(line, /[0-9]+ (calls )?kept, [0-9]+ missed/)) {
                split(substr(line, RSTART, RLENGTH), f, /[^0-9]+/)
                if (f[1] + f[2] != n) print "kept + missed != " n ": " $0
                if (k++ == 0) kept = f[1]
                line = substr(line, RSTART + RLENGTH)
            }
            if (!k) print "no counts: " $0
            if (iter && kept != iter) print "Iterations " iter " but " kept " kept"
            row = 0; next }
        /^#/ || /^[[:space:]]*$/ { next }
        { if (row) print "a row without a window line: " prev
          row = 1; prev = $0; rows++
          iter = ($0 ~ /Pass$/ && NF == 6) ? $5 : 0
          if ($2 + 0 <= 0) print "time not positive: " $0
          if ($0 ~ /Fail/) print "validation failed: " $0 }
        END { if (row) print "the last row has no window line"; if (!rows) print "no rows" }' "$OUT"
}

# A window run's answer on a machine too busy to start its ranks together
# (other programs hold the cores): status 1 and one line saying so.
too_busy() { # PROGRAM
    [ "$RC" = 1 ] && [ "$(program_lines "$1")" = 1 ] && grep -qE "every (call|run) missed its window" "$ERR"
}

# PROGRAM ARGS at each rank count under window timing (-i 10), and under
# barrier timing once (at the first count) for the layout to compare with.
# Above one rank, a machine too busy for windows skips the run.
both() { # "RANKS..." PROGRAM ARGS...
    local ranks=$1 prog=$2 n want
    shift 2
    run "${ranks%% *}" "$P/$prog" -i 10 -x 2 "$@"
    want=$(layout)
    for n in $ranks; do
        run "$n" "$P/$prog" --timing=window -i 10 -x 2 "$@"
        if [ "$n" -gt 1 ] && too_busy "$prog"; then
            skip "$prog --timing=window $* at $n ranks" "every call missed its window: the machine is too busy"
            continue
        fi
        expect_success "$prog --timing=window $* at $n ranks: rows, windows, Pass" window_problems 10
        expect '[ "$(layout)" = "$want" ]' "$prog --timing=window at $n ranks: barrier timing's layout"
    done
}
both "1 2 4 8" osu_allreduce -m 4:16 -c -f
both "4" osu_bcast -k rotate -m 1:4 -c
both "2" osu_barrier -f
both "2" osu_iallgather -m 1:4 -c -f -z
# A series of fewer calls than the window's trial calls (TIMEWIN_TRIALS, 8):
# the trials' start, test and wait times must stay inside the series' arrays.
run 2 "$P/osu_iallreduce" --timing=window -i 2 -x 1 -m 4:8 -c -f
if too_busy osu_iallreduce; then
    skip "osu_iallreduce --timing=window -i 2" "every call missed its window: the machine is too busy"
else
    expect_success "osu_iallreduce --timing=window -i 2 (fewer calls than trials): rows, windows, Pass" \
        window_problems 2
fi
# Programs added to the driver later get it too.
both "3" osu_neighbor_alltoall -m 1:4 -c -f
if coll_persistent_built; then
    both "2" osu_allreduce_persistent -m 4:8 -c -f
else
    skip "osu_allreduce_persistent --timing=window" "no persistent collectives in this MPI library"
fi

run1 "$P/osu_reduce" --timing=window --sync-window 30 -m 8:8 -i 10 -x 2
expect '[ "$RC" = 0 ] && grep -q "^# window: 30.00 us (--sync-window)" "$OUT" && grep -qE "^# window: size 8: [0-9]+ calls kept, [0-9]+ missed \(left out\), window 30.00 us" "$OUT" && [ -z "$(window_problems 10)" ]' \
    "--sync-window 30: the given window, named in the header and after the row"
expect 'grep -q "^# clock model: " "$OUT" && grep -q "^# timing: window: " "$OUT"' \
    "window timing: the clock model and the method described in the header"
COMMSWEEP_CORRUPT=1 run1 "$P/osu_allgather" --timing=window -m 4:8 -i 5 -x 1 -c
expect '[ "$RC" = 1 ] && data_lines | grep -q "Fail$"' "a corrupted buffer fails validation under window timing too"

# --- cpm/collective
run 4 "$COLL" -O MPI_Allreduce --timing=window -m 0 -M 2048 -S 1024 -r 2 -R 4
if too_busy collective; then
    skip "collective --timing=window at 4 ranks" "every run missed its window: the machine is too busy"
else
    expect '[ "$RC" = 0 ] && [ "$(data_lines | wc -l)" = 3 ] && grep -q "timing method: window" "$OUT"' \
        "collective --timing=window at 4 ranks: 3 sizes"
    expect '[ "$(grep -cE "^# window: msg [0-9]+: [1-4] runs kept, [0-9]+ missed" "$OUT")" = 3 ] && data_lines | awk "\$2 <= 0 || \$4 < 1 || \$4 > 4 {bad=1} END{exit bad}"' \
        "collective --timing=window: a window line per size, 1 to 4 runs kept, positive times"
fi
run1 "$COLL" -O MPI_Bcast --timing=window --sync-window 30 -m 0 -M 1024 -S 1024 -r 2 -R 4
expect '[ "$RC" = 0 ] && [ "$(grep -c "window 30.00 us$" "$OUT")" = 2 ] && [ "$(data_lines | wc -l)" = 2 ]' \
    "collective --timing=window --sync-window 30 at 1 rank"

# --- bad values: one line, status 2 (every rank decides alike: one rank shows it)
refused 0 osu_allreduce "--timing=fast refused" "$P/osu_allreduce" --timing=fast
refused 0 osu_allreduce "an empty --timing refused" "$P/osu_allreduce" --timing=
refused 0 osu_bcast "--sync-window without --timing=window refused" "$P/osu_bcast" --sync-window 50
refused 0 osu_bcast "--sync-window 0 refused" "$P/osu_bcast" --timing=window --sync-window 0
refused 0 osu_barrier "--sync-window 1e9 refused" "$P/osu_barrier" --timing=window --sync-window 1e9
refused 0 osu_gather "--per-iteration-max with window timing refused" \
    "$P/osu_gather" --timing=window --per-iteration-max
refused 0 collective "collective --timing=slow refused" "$COLL" -O MPI_Bcast --timing=slow
refused 0 collective "collective -t global with --timing=window refused" \
    "$COLL" -O MPI_Bcast -t global --timing=window
