#!/usr/bin/env bash
# Integration tests of alltoall/all: structure and values of the output at
# 1, 2, 3, 4, 6 and 8 ranks, contiguous and strided, the data check, bad input.
. "$(dirname "$0")/../lib.sh"
ALL="$BUILD/alltoall/all"

# Checks $OUT against what follows from the arguments: blocks (world .. 1
# halving), lines per block (count halving), comms, ranks, GiB per rank,
# positive times, min <= avg <= max, bandwidth = GiB / time, ### lines.
check_all_output() { # NP COUNTHI ITERS
    awk -v np="$1" -v hi="$2" -v iters="$3" '
    function fail(msg) { print "bad output: " msg; bad = 1; exit 1 }
    function close_to(a, b) { d = a - b; if (d < 0) d = -d; return d <= 1e-9 + 1e-6 * (b < 0 ? -b : b) }
    BEGIN { n = 0; for (t = np; t >= 1; t = int(t / 2)) target[n++] = t; blk = -1; inblock = 0 }
    /^###/ { if ($0 ~ /warm-up/) warm++; else if ($0 ~ /iteration/) itl++; next }
    /^#/ { next }
    /^[[:space:]]*$/ { inblock = 0; next }
    {
        if (!inblock) { if (blk >= 0 && line != nexp) fail("block " blk " has " line " lines, want " nexp);
                        blk++; inblock = 1; line = 0
                        if (blk >= n) fail("too many blocks")
                        tg = target[blk]; c = int(hi * np / tg)
                        nexp = 0; for (x = c; x >= 1; x = int(x / 2)) nexp++ }
        if (NF != 9) fail("line has " NF " fields: " $0)
        want_comms = int((np + tg - 1) / tg)
        if ($1 != want_comms) fail("comms " $1 " want " want_comms)
        if ($2 != tg) fail("ranks " $2 " want " tg)
        gib = 2 * c * tg * 8 / 1073741824
        if (!close_to($3, gib)) fail("GiB " $3 " want " gib " (count " c ")")
        if (!($4 > 0 && $4 <= $5 && $5 <= $6)) fail("times not 0 < min <= avg <= max: " $0)
        if (!($7 <= $8 && $8 <= $9)) fail("bandwidth not min <= avg <= max: " $0)
        if (!close_to($9 * $4, $3)) fail("max bandwidth is not GiB / min time: " $0)
        if (!close_to($7 * $6, $3)) fail("min bandwidth is not GiB / max time: " $0)
        line++; total++; c = int(c / 2)
    }
    END { if (bad) exit 1
          if (blk + 1 != n) { print "blocks " blk + 1 " want " n; exit 1 }
          if (line != nexp) { print "last block has " line " lines, want " nexp; exit 1 }
          if (warm != total) { print "warm-up lines " warm " want " total; exit 1 }
          if (itl != total * iters) { print "iteration lines " itl " want " total * iters; exit 1 } }
    ' "$OUT"
}

for np in 1 2 3 4 6 8; do
    for part in contig strided; do
        run "$np" "$ALL" "$part" 2 16
        expect_success "all $part 2 16 at $np ranks: blocks, lines and columns follow the arguments" \
            check_all_output "$np" 16 2
    done
done

# The done-when case: 8 ranks strided 2 256 gives blocks of 8, 4, 2, 1 ranks.
run 8 "$ALL" strided 2 256
expect '[ "$RC" = 0 ] && check_all_output 8 256 2 >/dev/null' "all strided 2 256 at 8 ranks passes its data check"
expect '[ "$(grep -c "concurrent communicator" "$OUT")" = 4 ]' "all strided at 8 ranks prints 4 blocks"
# Strided pairing: with 4 communicators of 2, partners differ by half the world.
expect 'grep -q "^# communicator 0: world ranks 0 4$" "$OUT" && grep -q "^# communicator 3: world ranks 3 7$" "$OUT"' \
    "strided pairs differ by half the world size"
expect 'grep -q "^# communicator 1: world ranks 1 3 5 7$" "$OUT"' "strided halves are odd and even ranks"
run 8 "$ALL" contig 1 8
expect 'grep -q "^# communicator 1: world ranks 4 5 6 7$" "$OUT" && grep -q "^# communicator 2: world ranks 4 5$" "$OUT"' \
    "contiguous blocks are consecutive ranks"
run 6 "$ALL" S 1 8
expect '[ "$RC" = 0 ] && grep -q "^# communicator 1: world ranks 1 3 5$" "$OUT" && grep -q "^# 6 concurrent communicators of 1 rank" "$OUT"' \
    "6 ranks strided: communicators of 6, 3 and 1"
run 7 "$ALL" contig 1 8
expect '[ "$RC" = 0 ] && check_all_output 7 8 1 >/dev/null && grep -q "^# communicator 2: world ranks 6$" "$OUT"' \
    "7 ranks contiguous: the last communicator is smaller and the data check passes"

# Defaults: absent, zero and negative values mean the seed defaults.
run 2 "$ALL"
expect '[ "$RC" = 0 ] && grep -q "partition: contiguous, iterations: 3, countHi: 40960 longs" "$OUT"' "no arguments: contiguous, 3 iterations, countHi 40960"
run 2 "$ALL" s 0 -5
expect '[ "$RC" = 0 ] && grep -q "partition: strided, iterations: 3, countHi: 40960 longs" "$OUT"' "zero and negative arguments mean the defaults"
run 2 "$ALL" x -1 4
expect '[ "$RC" = 0 ] && grep -q "partition: contiguous, iterations: 3, countHi: 4 longs" "$OUT" && check_all_output 2 4 3 >/dev/null' \
    "a partition not starting with s is contiguous; -1 iterations is the default"

# The data check can fail: the test hook damages one received element.
COMMSWEEP_CORRUPT=1 run 4 "$ALL" contig 1 8
expect '[ "$RC" = 1 ] && grep -q "^all: data check failed" "$ERR"' "a damaged receive buffer fails the data check with status 1"

# Bad input: one line from the program, status 2, no hang.
for args in "s abc" "s 12abc" "s 2 12abc" "s 1 99999999999999999999999" "s 99999999999999999999999" \
            "--bogus" "-q" "s 1 2 3" "--memory=tpu" "--memory" "--topology=1" "s 1 1e3"; do
    run 3 "$ALL" $args
    expect_usage_error "all $args: status 2 and one message" all
done
run 2 "$ALL" --memory=cuda contig 1 4
expect_usage_error "all --memory=cuda without CUDA support: status 2 and one message" all
run 2 "$ALL" s 1 2305843009213693951
expect '[ "$RC" = 2 ] && [ "$(program_lines all)" = 1 ] && grep -q "cannot allocate\|too large" "$ERR"' "a countHi too large to allocate: status 2 naming the size"

run 2 "$ALL" --help
expect '[ "$RC" = 0 ] && grep -q "^Usage: all" "$OUT" && [ "$(grep -c "^Usage" "$OUT")" = 1 ]' "--help prints usage once and exits 0"
run 2 "$ALL" --version
expect '[ "$RC" = 0 ] && grep -q "^all (commsweep) [0-9]" "$OUT"' "--version"
run 2 "$ALL" --topology contig 1 2
expect '[ "$RC" = 0 ] && grep -q "^# rank 1: host=.* cores=.* numa=.* gpu=" "$OUT"' "--topology prints every rank's placement"
