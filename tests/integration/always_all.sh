#!/usr/bin/env bash
# Integration tests of always/all and always/iall: blocks, the middle loop's
# stopping rules, columns, data check and bad input.
. "$(dirname "$0")/../lib.sh"

# Checks $OUT: blocks for world .. 1 ranks per communicator; in each block,
# calls double and count halves from SIZE / tasks; MiB and GiB follow; the
# block stops at the first line over the time limit or at count 1.
check_always_output() { # NP SIZE LIMIT
    awk -v np="$1" -v size="$2" -v limit="$3" '
    function fail(msg) { print "bad output: " msg; bad = 1; exit 1 }
    function close_to(a, b) { d = a - b; if (d < 0) d = -d; return d <= 1e-9 + 1e-5 * b }
    BEGIN { n = 0; for (t = np; t >= 1; t = int(t / 2)) target[n++] = t; blk = -1; inblock = 0 }
    /^# warm-up:/ { warm++; next }
    /^#/ { next }
    /^[[:space:]]*$/ { if (inblock && !stopped) fail("block " blk " ended without a stopping reason"); inblock = 0; next }
    {
        if (!inblock) { blk++; inblock = 1; calls = 1; tg = target[blk]; count = int(size / tg); stopped = 0
                        if (blk >= n) fail("too many blocks") }
        if (stopped) fail("line after the block should have stopped: " $0)
        if (NF != 7) fail("fields " NF ": " $0)
        if ($1 != tg || $2 != calls || $3 != count) fail("tasks/calls/count " $1 "/" $2 "/" $3 " want " tg "/" calls "/" count)
        mib = count * tg * 8 / 1048576
        if (!close_to($4, mib)) fail("MiB " $4 " want " mib)
        if (!close_to($5, mib * calls / 1024)) fail("GiB " $5 " want " mib * calls / 1024)
        if (!($6 > 0)) fail("time not positive: " $0)
        if (!close_to($7 * $6, $5)) fail("bandwidth is not GiB / time: " $0)
        if ($6 > limit || count == 1) stopped = 1
        calls *= 2; count = int(count / 2); lines++
    }
    END { if (bad) exit 1
          if (blk + 1 != n) { print "blocks " blk + 1 " want " n; exit 1 }
          if (warm != n) { print "warm-up lines " warm " want " n; exit 1 } }
    ' "$OUT"
}

for prog in all iall; do
    P="$BUILD/always/$prog"
    for np in 1 2 3 4 8; do
        run "$np" "$P" 1024 --time-limit=0.01
        expect_success "always/$prog 1024 at $np ranks: blocks, calls, counts, sizes and stopping rule" \
            check_always_output "$np" 1024 0.01
    done
    # The done-when case: 65536 doubles at 4 ranks, 3 blocks each stopped by a rule.
    run 4 "$P" 65536 --time-limit=0.05
    expect '[ "$RC" = 0 ] && check_always_output 4 65536 0.05 >/dev/null && [ "$(grep -c "concurrent communicator" "$OUT")" = 3 ]' \
        "always/$prog 65536 at 4 ranks: 3 blocks, each stopped by the time rule or count 1"
    # A time limit that every first line exceeds: one line per block.
    run 2 "$P" 8192 --time-limit=1e-9
    expect '[ "$RC" = 0 ] && [ "$(data_lines | wc -l)" = 2 ] && check_always_output 2 8192 1e-9 >/dev/null' \
        "always/$prog stops a block at the first size over the time limit"
    run 3 "$P" 600 --partition=strided --time-limit=0.01
    expect '[ "$RC" = 0 ] && check_always_output 3 600 0.01 >/dev/null && grep -q "(strided)" "$OUT"' "always/$prog strided at 3 ranks"
    COMMSWEEP_CORRUPT=1 run 2 "$P" 1024 --time-limit=0.01
    expect '[ "$RC" = 1 ] && grep -q "^$prog: data check failed" "$ERR"' "always/$prog: a damaged receive buffer fails with status 1"
    run 1 "$P" 0 --time-limit=1e-9
    expect '[ "$RC" = 0 ] && grep -q "size: 262144000 doubles per task" "$OUT"' "always/$prog: size 0 means the default 640^3" 
    for args in "abc" "12abc" "99999999999999999999999" "1 2" "--time-limit=0" "--time-limit=-1" \
                "--time-limit=abc" "--partition=diagonal" "--bogus" "--memory=cuda"; do
        run 2 "$P" $args
        expect_usage_error "always/$prog $args: status 2 and one message" "$prog"
    done
    run 1 "$P" --help
    expect '[ "$RC" = 0 ] && grep -q "^Usage: $prog" "$OUT"' "always/$prog --help"
done
# Negative size means the default too (checked on the header only: the default is 2 GiB a buffer).
run 1 "$BUILD/always/all" -5 --time-limit=1e-9
expect '[ "$RC" = 0 ] && grep -q "size: 262144000 doubles per task" "$OUT"' "always/all: a negative size means the default"
