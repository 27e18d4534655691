#!/usr/bin/env bash
# Integration tests of the point-to-point programs: every program at the rank
# counts it supports, output format, size sequences, positive values, -f and
# -c columns, validation passing, and validation failing on damaged data.
. "$(dirname "$0")/osu_p2p_lib.sh"
SMALL="-i 20 -x 2"
LAT_SIZES=$(doubling_sizes 1 4096)
BW_SIZES=$(doubling_sizes 1 4096)
LAT_FULL=("Avg Latency(us)" "Min Latency(us)" "Max Latency(us)" "Iterations" "Validation")
BW_FULL=("Bandwidth (MB/s)" "Min BW (MB/s)" "Max BW (MB/s)" "Iterations" "Validation")

# osu_latency
run 2 "$P2P/osu_latency" -m 0:4096 $SMALL
expect_p2p "osu_latency: format, sizes 1..4096 (-m 0:4096: no size 0, as OMB 7.4), positive latencies" \
    "OSU MPI Latency Test" "$LAT_SIZES" "Avg Latency(us)"
expect 'grep -qx "# buffers: rank 0 on host, rank 1 on host" "$OUT"' "osu_latency: placement line"
run 2 "$P2P/osu_latency" -m 0:4096 $SMALL -f -c H H
expect_p2p "osu_latency -f -c H H: statistics columns and validation pass" \
    "OSU MPI Latency Test" "$LAT_SIZES" "${LAT_FULL[@]}"
expect 'data_lines | awk "{ if (!(\$3 <= \$2 + 0.01 && \$2 <= \$4 + 0.01 && \$5 == 20)) exit 1 }"' \
    "osu_latency -f: min <= mean <= max, 20 iterations"
run 2 "$P2P/osu_latency" -m 4096
expect 'data_lines | awk "{ print \$1 }" | tr "\n" " " | grep -qx "$(doubling_sizes 1 4096) "' \
    "osu_latency -m MAX starts at 1 with default iterations"

run 2 "$P2P/osu_latency" -m 1:64 -i 50 -x 2 -z
expect_p2p "osu_latency -z: OMB's tail columns" "OSU MPI Latency Test" "$(doubling_sizes 1 64)" \
    "Avg Latency(us)" "P50 Tail Lat(us)" "P90 Tail Lat(us)" "P99 Tail Lat(us)"
expect 'data_lines | awk "{ if (!(\$3 <= \$4 && \$4 <= \$5)) exit 1 }"' "osu_latency -z: P50 <= P90 <= P99"
run 2 "$P2P/osu_bw" -m 1:64 -i 20 -x 2 -z -c
expect_p2p "osu_bw -z -c: Validation, then the tail bandwidth columns (OMB 7.4's order)" \
    "OSU MPI Bandwidth Test" "$(doubling_sizes 1 64)" "Bandwidth (MB/s)" "Validation" \
    "P50 Tail BW(MB/s)" "P90 Tail BW(MB/s)" "P99 Tail BW(MB/s)"

run 2 "$P2P/osu_bibw" -m 1:64 -i 5 -x 1 -c -u 3
expect_p2p "osu_bibw -c -u 3: untimed exchanges before each checked one, validation passes" \
    "OSU MPI Bi-Directional Bandwidth Test" "$(doubling_sizes 1 64)" "Bandwidth (MB/s)" "Validation"

# osu_latency_mt
run 2 "$P2P/osu_latency_mt" -m 0:1024 $SMALL -c
expect_p2p "osu_latency_mt: default threads, validation pass" \
    "OSU MPI Multi-threaded Latency Test" "$(doubling_sizes 1 1024)" "Avg Latency(us)" "Validation"
expect 'head -3 "$OUT" | tr "\n" "|" | grep -qx "# Number of Sender threads: 1 |# Number of Receiver threads: 2||"' \
    "osu_latency_mt: default 1 sending, 2 receiving threads"
run 2 "$P2P/osu_latency_mt" -m 0:1024 $SMALL -c -f -t 3:2
expect_p2p "osu_latency_mt -t 3:2 -f -c: more senders than receivers" \
    "OSU MPI Multi-threaded Latency Test" "$(doubling_sizes 1 1024)" "${LAT_FULL[@]}"
run 2 "$P2P/osu_latency_mt" -m 1:64 $SMALL -c -t 5
expect_p2p "osu_latency_mt -t 5: five receiving threads" \
    "OSU MPI Multi-threaded Latency Test" "$(doubling_sizes 1 64)" "Avg Latency(us)" "Validation"

# osu_bw, osu_bibw
run 2 "$P2P/osu_bw" -m 1:4096 $SMALL
expect_p2p "osu_bw: format, sizes 1..4096, positive bandwidth" \
    "OSU MPI Bandwidth Test" "$BW_SIZES" "Bandwidth (MB/s)"
expect 'grep -qx "# window: 64" "$OUT"' "osu_bw: default window 64"
run 2 "$P2P/osu_bw" -m 1:4096 $SMALL -W 8 -f -c
expect_p2p "osu_bw -W 8 -f -c: statistics and validation" \
    "OSU MPI Bandwidth Test" "$BW_SIZES" "${BW_FULL[@]}"
expect 'grep -qx "# window: 8" "$OUT" && data_lines | awk "{ if (!(\$3 <= \$2 + 0.01 && \$2 <= \$4 + 0.01)) exit 1 }"' \
    "osu_bw -W 8: window line, min <= mean <= max"
run 2 "$P2P/osu_bibw" -m 1:4096 $SMALL -c
expect_p2p "osu_bibw: format, sizes, validation of both directions" \
    "OSU MPI Bi-Directional Bandwidth Test" "$BW_SIZES" "Bandwidth (MB/s)" "Validation"

# The -M cap: two buffers per process, so 65536 bytes allow 32768-byte messages.
run 2 "$P2P/osu_bw" -m 1:1048576 -i 2 -x 1 -M 65536
expect 'grep -q "^# warning: maximum message size lowered from 1048576 to 32768" "$OUT" && [ "$(data_lines | tail -1 | awk "{print \$1}")" = 32768 ]' \
    "osu_bw -M 65536: sizes capped at 32768 with a warning"

# osu_mbw_mr and osu_multi_lat at 2, 4 and 8 ranks (8 ranks share 2 cores,
# and MPICH's ranks poll: fewer iterations there)
for np in 2 4 8; do
    iters=$SMALL
    [ $np = 8 ] && iters="-i 4 -x 1"
    run $np "$P2P/osu_mbw_mr" -m 1:1024 $iters -c -R 1
    expect_p2p "osu_mbw_mr at $np ranks: MB/s, Messages/s, validation" \
        "OSU MPI Multiple Bandwidth / Message Rate Test" "$(doubling_sizes 1 1024)" \
        "MB/s" "Messages/s" "Validation"
    expect "grep -qx '# pairs: $((np / 2)) (rank i with rank i + $((np / 2)))' \"\$OUT\"" \
        "osu_mbw_mr at $np ranks: $((np / 2)) pairs"
    # Messages/s = MB/s * 10^6 / size, both from the same time.
    expect 'data_lines | awk "{ r = \$2 * 1e6 / \$1; d = r - \$3; if (d < 0) d = -d; if (d > 0.01 * \$3 + 1e4 / \$1) exit 1 }"' \
        "osu_mbw_mr at $np ranks: rate agrees with bandwidth"
    run $np "$P2P/osu_multi_lat" -m 0:1024 $iters -c
    expect_p2p "osu_multi_lat at $np ranks: format, sizes, validation" \
        "OSU MPI Multi Latency Test" "$(doubling_sizes 1 1024)" "Avg Latency(us)" "Validation"
done
# (Sizes large enough that MB/s shows in 2 decimals while the idle ranks
# compete for the cores.)
run 4 "$P2P/osu_mbw_mr" -m 1024:8192 $SMALL -p 1 -R 0
expect_p2p "osu_mbw_mr -p 1 -R 0 at 4 ranks: bandwidth only" \
    "OSU MPI Multiple Bandwidth / Message Rate Test" "$(doubling_sizes 1024 8192)" "MB/s"
expect 'grep -q "^# pairs: 1 " "$OUT"' "osu_mbw_mr -p 1: one pair"
run 2 "$P2P/osu_mbw_mr" -m 1:16 -i 5 -x 1 -V -W 4 -c
heading=$(printf '#      '; printf '  %10d' 1 2 4)
expect '[ "$RC" = 0 ] && grep -qx "# windows: 1 to 4, one column each" "$OUT" && [ "$(grep -cxF "$heading" "$OUT")" = 2 ] && grep -qx "# Message Rate Profile" "$OUT" && [ "$(data_lines | grep -cE "^[0-9]+ +([0-9]+\.[0-9]{2} +){3}Pass$")" = 5 ] && [ "$(data_lines | awk "NF == 4 && \$2 > 0" | wc -l)" = 5 ]' \
    "osu_mbw_mr -V -W 4 -c: OMB's matrices of MB/s (validated) and messages/s by window 1, 2, 4"
run 2 "$P2P/osu_mbw_mr" -m 1:2 -i 2 -x 1 -V
expect '[ "$RC" = 0 ] && grep -qxF "$(printf '"'"'#      '"'"'; printf '"'"'  %10d'"'"' 1 2 4 8 16 32 64 128)" "$OUT"' \
    "osu_mbw_mr -V: windows 1 to 128 without -W, as OMB 7.4"
run1 "$P2P/osu_mbw_mr" -V -f
expect_usage_error "osu_mbw_mr -V -f refused: the matrix has no -f columns" osu_mbw_mr

# The persistent forms (MPI_Send_init/MPI_Recv_init): format, sizes,
# validation, -f, and the staged window patterns' statistics.
run 2 "$P2P/osu_latency_persistent" -m 0:4096 $SMALL -f -c
expect_p2p "osu_latency_persistent -f -c: statistics columns and validation pass" \
    "OSU MPI Latency Persistent Test" "$LAT_SIZES" "${LAT_FULL[@]}"
run 2 "$P2P/osu_bw_persistent" -m 1:4096 $SMALL -W 8 -f -c
expect_p2p "osu_bw_persistent -W 8 -f -c: statistics and validation" \
    "OSU MPI Bandwidth Persistent Test" "$BW_SIZES" "${BW_FULL[@]}"
run 2 "$P2P/osu_bibw_persistent" -m 1:4096 $SMALL -c -u 2
expect_p2p "osu_bibw_persistent -c -u 2: both directions validated" \
    "OSU MPI Bi-Directional Bandwidth Persistent Test" "$BW_SIZES" "Bandwidth (MB/s)" "Validation"
run 2 "$P2P/osu_bw_persistent" -m 1:64 -i 20 -x 2 -z -D vect:4:2 -c
expect '[ "$RC" = 0 ] && data_lines | awk "{ if (\$3 != \"Pass\" || \$NF != int(\$1 / 4) * 2) exit 1 }"' \
    "osu_bw_persistent -z -D vect:4:2 -c: persistent requests of a derived type, Pass"

# Damaged data must fail validation: the size printed with Fail as the last
# row, one message on stderr naming it, status 1.
export COMMSWEEP_CORRUPT=1
for prog in osu_latency osu_latency_mt osu_bw osu_bibw osu_mbw_mr osu_multi_lat \
    osu_latency_persistent osu_bw_persistent osu_bibw_persistent; do
    run 2 "$P2P/$prog" -m 0:64 -i 5 -x 1 -c
    expect '[ "$RC" = 1 ] && data_lines | tail -1 | grep -qE "^1 .* Fail$" && [ "$(program_lines $prog)" = 1 ] && grep -q "^$prog: validation failed at message size 1: rank [01] received a wrong byte" "$ERR"' \
        "$prog with COMMSWEEP_CORRUPT=1 -c: Fail at size 1, one message, status 1"
done
for prog in osu_mbw_mr osu_multi_lat; do
    run 4 "$P2P/$prog" -m 1:64 -i 5 -x 1 -c
    expect '[ "$RC" = 1 ] && data_lines | tail -1 | grep -qE "^1 .* Fail$" && [ "$(program_lines $prog)" = 1 ]' \
        "$prog at 4 ranks with COMMSWEEP_CORRUPT=1 -c: Fail, one message, status 1"
done
# COMMSWEEP_CORRUPT_RANK picks the damaging rank: rank 1 of osu_bibw sends
# too, so rank 0 finds the wrong byte.
COMMSWEEP_CORRUPT_RANK=1 run 2 "$P2P/osu_bibw" -m 1:64 -i 5 -x 1 -c
expect '[ "$RC" = 1 ] && data_lines | tail -1 | grep -qE "^1 .* Fail$" && grep -q "^osu_bibw: validation failed at message size 1: rank 0 " "$ERR" && grep -q "^# warning: COMMSWEEP_CORRUPT=1: rank 1 damages" "$OUT"' \
    "osu_bibw with COMMSWEEP_CORRUPT_RANK=1: rank 0 sees the damage"

run 2 "$P2P/osu_bw" -m 1:64 -i 5 -x 1
expect '[ "$RC" = 0 ] && ! grep -q Fail "$OUT"' \
    "osu_bw with COMMSWEEP_CORRUPT=1 but no -c: runs, nothing checked"
unset COMMSWEEP_CORRUPT
