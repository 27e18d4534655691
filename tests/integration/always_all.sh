#!/usr/bin/env bash
# Integration tests of always/all and always/iall: the seed's loops on every
# rank at every world size from 1 to 17 (but 10 to 15 under MPICH), its
# columns, the middle loop's stopping rules, the data check of every row,
# bad input.
. "$(dirname "$0")/../lib.sh"

# The rows the seed's loops run at NP ranks for SIZE doubles when no time
# limit stops a block, in the form of the COMMSWEEP_ROWS_FILE hook: per
# targetSize = NP .. 1 (halving) "block T", then with countMax = SIZE / T a
# warm-up of countMax when countMax >= 1, and calls = 1, 2, 4, ... while
# calls < countMax, each of count countMax / calls.
seed_rows() { # NP SIZE
    awk -v np="$1" -v size="$2" 'BEGIN {
        for (t = np; t >= 1; t = int(t / 2)) {
            print "block " t; cm = int(size / t)
            if (cm >= 1) print "warmup " t " 1 " cm
            for (calls = 1; calls < cm; calls *= 2) print "timed " t " " calls " " int(cm / calls)
        } }'
}

# Why the rows files PREFIX.0 .. PREFIX.NP-1 are not all the seed's rows;
# empty when they are.
rows_problems() { # NP SIZE PREFIX
    local np=$1 r
    seed_rows "$1" "$2" > "$3.want"
    for ((r = 0; r < np; r++)); do
        if [ ! -f "$3.$r" ]; then echo "rank $r wrote no rows file"; return; fi
        cmp -s "$3.want" "$3.$r" || { echo "rank $r ran other rows than the seed's:"; diff "$3.want" "$3.$r" | head -5; return; }
    done
}

# Checks $OUT: one block per targetSize = NP .. 1, opened by its '#
# concurrent communicators' line; in each the warm-up line and the rows of
# the seed's middle loop (as seed_rows), the block ending after the first
# row of 2 or more calls over LIMIT; '#' lines where countMax is 0 or 1; the
# columns by the seed's formulas: MiB = 2 * tasks * count * 8 / 2^20,
# GiB = calls * MiB / 1024, GiB/s = GiB / time.
check_always_output() { # NP SIZE LIMIT
    awk -v np="$1" -v size="$2" -v limit="$3" '
    function fail(msg) { print "bad output: " msg; bad = 1; exit 1 }
    function close_to(a, b) { d = a - b; if (d < 0) d = -d; return d <= 1e-12 + 1e-5 * b }
    function columns(f1, tasks, calls, count, mib, gib, time, bw) {
        if (tasks != tg || calls != want_calls || count != int(cm / calls))
            fail("block " tg ": tasks/calls/count " tasks "/" calls "/" count " want " tg "/" want_calls "/" int(cm / want_calls))
        if (!close_to(mib, 2 * tasks * count * 8 / 1048576)) fail("MiB " mib " want " 2 * tasks * count * 8 / 1048576)
        if (!close_to(gib, calls * mib / 1024)) fail("GiB " gib " want " calls * mib / 1024)
        if (!(time > 0) || !close_to(bw * time, gib)) fail("GiB/s is not GiB / time: " $0)
    }
    function end_block() {
        if (blk < 0) return
        if (cm == 0 && !nocall) fail("block " tg ": countMax 0 without its # line")
        if (cm >= 1 && !warm) fail("block " tg ": no warm-up line")
        if (cm == 1 && !notimed) fail("block " tg ": countMax 1 without its # line")
        if (!stopped && want_calls < cm) fail("block " tg " ended at " want_calls " calls, before countMax " cm)
    }
    BEGIN { n = 0; for (t = np; t >= 1; t = int(t / 2)) target[n++] = t; blk = -1 }
    /^# [0-9]+ concurrent communicator/ {
        end_block(); blk++; if (blk >= n) fail("too many blocks")
        tg = target[blk]; cm = int(size / tg); want_calls = 1; warm = stopped = nocall = notimed = 0; next }
    /^# no call: countMax = / { nocall = 1; if (cm != 0) fail("block " tg ": no call with countMax " cm); next }
    /^# no timed row: countMax = 1/ { notimed = 1; if (cm != 1) fail("block " tg ": no timed row with countMax " cm); next }
    /^# warm-up:/ { if (warm) fail("second warm-up line"); warm = 1
                    columns($3, $3, $4, $5, $6, $7, $8, $9); next }
    /^#/ || /^[[:space:]]*$/ { next }
    {
        if (!warm) fail("row before the warm-up: " $0)
        if (stopped) fail("row after the time limit stopped the block: " $0)
        if (NF != 7) fail("fields " NF ": " $0)
        if (want_calls >= cm) fail("calls " $2 " not below countMax " cm)
        columns($1, $1, $2, $3, $4, $5, $6, $7)
        if ($2 >= 2 && $6 > limit) stopped = 1
        want_calls *= 2; rows++
    }
    END { if (bad) exit 1
          end_block(); if (bad) exit 1
          if (blk + 1 != n) { print "blocks " blk + 1 " want " n; exit 1 } }
    ' "$OUT"
}

# Every world size from 1 to 17: every rank runs the seed's rows (so no
# block's barriers go unmatched where a communicator is smaller), and the
# output follows. 16 doubles cover countMax 0 (17 ranks), 1 (9 to 16), odd
# and even ones; no time limit is reached. Short (under MPICH, where each
# run of 10 ranks and more takes seconds): 1 to 9, 16 and 17.
rows="$TMPD/rows"
world_sizes=$(seq 1 17)
test_short && world_sizes="$(seq 1 9) 16 17"
for prog in all iall; do
    P="$BUILD/always/$prog"
    for np in $world_sizes; do
        rm -f "$rows".*
        # (a hang would cost the default 180 s per run: 60 s is ample)
        COMMSWEEP_ROWS_FILE="$rows" TEST_TIMEOUT=60 run "$np" "$P" 16 --time-limit=100
        expect_success "always/$prog 16 at $np ranks: status 0, the seed's blocks, rows and columns" \
            check_always_output "$np" 16 100
        expect_no_problems "always/$prog 16 at $np ranks: every rank ran the seed's rows" \
            rows_problems "$np" 16 "$rows"
    done
done

# The columns at 4 ranks against the seed's formulas, computed here: tasks =
# targetSize, MiB_per_call = 2 * tasks * count * 8 / 2^20, GiB_total = calls
# * MiB_per_call / 1024 (GiBps_task = GiB_total / time_s: check_always_output).
seed_columns() { # NP SIZE
    awk -v np="$1" -v size="$2" 'BEGIN {
        for (t = np; t >= 1; t = int(t / 2)) {
            cm = int(size / t)
            for (calls = 0; calls < cm; calls = calls ? calls * 2 : 1) {
                n = calls ? calls : 1; count = int(cm / n); mib = 2 * t * count * 8 / 1048576
                printf "%d %d %d %.6e %.6e\n", t, n, count, mib, mib * n / 1024
            } } }'
}
# The first five columns of the warm-up lines and rows of $OUT.
printed_columns() {
    awk '/^# warm-up:/ { print $3, $4, $5, $6, $7; next } /^#/ || !NF { next } { print $1, $2, $3, $4, $5 }' "$OUT"
}
for prog in all iall; do
    run 4 "$BUILD/always/$prog" 1000 --time-limit=100
    expect '[ "$RC" = 0 ] && [ "$(printed_columns)" = "$(seed_columns 4 1000)" ]' \
        "always/$prog 1000 at 4 ranks: tasks, calls, count, MiB and GiB are the seed's (send and receive buffers)"
done

for prog in all iall; do
    P="$BUILD/always/$prog"
    # The done-when case: 65536 doubles at 4 ranks, 3 blocks each stopped by a rule.
    run 4 "$P" 65536 --time-limit=0.05
    expect '[ "$RC" = 0 ] && check_always_output 4 65536 0.05 >/dev/null && [ "$(grep -c "concurrent communicator" "$OUT")" = 3 ]' \
        "always/$prog 65536 at 4 ranks: 3 blocks, each stopped by the time rule or at its end"
    # A time limit that every row exceeds: the seed never stops after its
    # one-call row, so each block has the rows of 1 and 2 calls.
    run 2 "$P" 8192 --time-limit=1e-9
    expect '[ "$RC" = 0 ] && [ "$(data_lines | wc -l)" = 4 ] && check_always_output 2 8192 1e-9 >/dev/null' \
        "always/$prog stops a block after the first row of 2 or more calls over the time limit"
    run 3 "$P" 600 --partition=strided --time-limit=0.01
    expect '[ "$RC" = 0 ] && check_always_output 3 600 0.01 >/dev/null && grep -q "(strided)" "$OUT"' "always/$prog strided at 3 ranks"
    # Sizes smaller than the communicators: countMax 0 runs nothing, 1 only
    # the warm-up, each said by a '#' line.
    run 4 "$P" 3 --time-limit=100
    expect '[ "$RC" = 0 ] && check_always_output 4 3 100 >/dev/null &&
            grep -q "^# no call: countMax = 3 doubles / 4 tasks = 0 doubles per peer$" "$OUT" &&
            grep -q "^# no timed row: countMax = 1" "$OUT" && [ "$(data_lines | wc -l)" = 2 ]' \
        "always/$prog 3 at 4 ranks: countMax 0 and 1 say so in # lines, countMax 3 runs 1 and 2 calls"
    # Every row's data are checked right after it: the damaged warm-up fails
    # before any row is printed.
    COMMSWEEP_CORRUPT=1 run 2 "$P" 1024 --time-limit=100
    expect '[ "$RC" = 1 ] && grep -q "^$prog: data check failed: rank 0, warm-up of 2 tasks, 1 calls of count 512: " "$ERR" &&
            [ "$(program_lines "$prog")" = 1 ] && ! grep -q "^# warm-up:" "$OUT" && [ "$(data_lines | wc -l)" = 0 ]' \
        "always/$prog: a damaged receive buffer fails the first row's check with status 1"
    COMMSWEEP_STALL_RANK=1 run 3 "$P" --timeout=1 64
    expect_stalled "always/$prog --timeout=1, rank 1 stalled: status 3 within seconds, a line naming rank 1 and the row" \
        "$prog" 1 20 "warm-up of 3 tasks, 1 calls of count 21"
    for args in "abc" "12abc" "99999999999999999999999" "1 2" "--time-limit=0" "--timeout=-1" "--timeout=86401" "--time-limit=-1" \
                "--time-limit=abc" "--time-limit=86401" "--time-limit=1e23" "--partition=diagonal" \
                "--bogus" "--memory=cuda"; do
        run 2 "$P" $args
        expect_usage_error "always/$prog $args: status 2 and one message" "$prog"
    done
    run 1 "$P" --help
    expect '[ "$RC" = 0 ] && grep -q "^Usage: $prog" "$OUT"' "always/$prog --help"
done
# Zero and negative sizes mean the default (checked on the header: the
# default is 2 GiB a buffer, the longest runs here).
run 1 "$BUILD/always/all" 0 --time-limit=1e-9
expect '[ "$RC" = 0 ] && grep -q "size: 262144000 doubles per task" "$OUT"' "always/all: size 0 means the default 640^3"
run 1 "$BUILD/always/iall" -5 --time-limit=1e-9
expect '[ "$RC" = 0 ] && grep -q "size: 262144000 doubles per task" "$OUT"' "always/iall: a negative size means the default"
