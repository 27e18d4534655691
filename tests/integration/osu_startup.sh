#!/usr/bin/env bash
# Integration tests of the start-up programs osu_init and osu_hello at 1, 2,
# 3, 4 and 8 ranks (their one data line, OMB 7.4's, and its figures), and of
# osu_latency_mp, the latency beside forked processes: at 2 ranks with -c
# and -t, its forked processes gone after the run, damaged data caught, the
# refusals at 1, 3, 4 and 8 ranks and of bad input.
. "$(dirname "$0")/osu_p2p_lib.sh"

for np in 1 2 3 4 8; do
    run "$np" "$P2P/osu_init"
    expect '[ "$RC" = 0 ] && [ "$(data_lines)" = "$(data_lines | grep -xE "nprocs: '"$np"', min: [0-9]+ ms, max: [0-9]+ ms, avg: [0-9]+ ms")" ] && [ "$(data_lines | wc -l)" = 1 ] && head -1 "$OUT" | grep -q "^# OSU MPI Init Test (commsweep "' \
        "osu_init at $np ranks: title, one line of OMB's figures"
    # min <= avg <= max, in ms and in the finer '#' line.
    expect 'data_lines | tr -d "," | awk "{ if (!(\$4 <= \$10 && \$10 <= \$7)) exit 1 }" && grep "^# start time in us:" "$OUT" | tr -d "," | awk "{ if (!(\$7 > 0 && \$7 <= \$9 && \$9 <= \$11)) exit 1 }"' \
        "osu_init at $np ranks: min <= avg <= max"
    run "$np" "$P2P/osu_hello"
    expect '[ "$RC" = 0 ] && [ "$(data_lines)" = "This is a test with '"$np"' processes" ] && head -1 "$OUT" | grep -q "^# OSU MPI Hello World Test (commsweep "' \
        "osu_hello at $np ranks: title, the count of processes"
done
for args in "-x" "--bogus" "extra" "-I extra"; do
    # shellcheck disable=SC2086
    run 2 "$P2P/osu_init" $args
    expect_usage_error "osu_init $args refused" osu_init
done
run1 "$P2P/osu_hello" -n 3
expect_usage_error "osu_hello -n 3 refused" osu_hello
run1 "$P2P/osu_hello" 3
expect_usage_error "osu_hello 3 refused" osu_hello
run1 "$P2P/osu_init" --help
expect '[ "$RC" = 0 ] && grep -q -- "--session" "$OUT"' "osu_init --help lists -I"

# osu_latency_mp: OMB's lines before the title name the forked processes.
forked() { # SEND RECV: OMB 7.4's two lines
    printf '# Number of forked processes in sender: %s\n# Number of forked processes in receiver: %s\n' "$1" "$2"
}
run 2 "$P2P/osu_latency_mp" -m 0:1024 -i 20 -x 2 -c -f
expect_p2p "osu_latency_mp -c -f: format, sizes, validation passes" \
    "OSU MPI Multi-process Latency Test" "$(doubling_sizes 1 1024)" \
    "Avg Latency(us)" "Min Latency(us)" "Max Latency(us)" "Iterations" "Validation"
expect '[ "$(head -2 "$OUT")" = "$(forked 2 2)" ] && grep -qx "# forked: 2 beside rank 0, 2 beside rank 1, idle until the sweep ends" "$OUT"' \
    "osu_latency_mp: 2 and 2 processes forked by default"
run 2 "$P2P/osu_latency_mp" -m 1:16 -i 20 -x 2 -t 3:1
expect_p2p "osu_latency_mp -t 3:1" "OSU MPI Multi-process Latency Test" "$(doubling_sizes 1 16)" \
    "Avg Latency(us)"
# OMB's lines say what -t asked for, ours what each rank did fork.
expect '[ "$(head -2 "$OUT")" = "$(forked 3 1)" ] && grep -qx "# forked: 3 beside rank 0, 1 beside rank 1, idle until the sweep ends" "$OUT"' \
    "osu_latency_mp -t 3:1: 3 forked beside rank 0, 1 beside rank 1"
run 2 "$P2P/osu_latency_mp" -m 1:4 -i 5 -x 1 -t 4
expect '[ "$RC" = 0 ] && [ "$(head -2 "$OUT")" = "$(forked 0 4)" ] && grep -q "^# forked: 0 beside rank 0, 4 beside rank 1," "$OUT"' \
    "osu_latency_mp -t 4: none beside rank 0, 4 beside rank 1 (OMB 7.4's reading of RECV alone)"

COMMSWEEP_CORRUPT=1 run 2 "$P2P/osu_latency_mp" -m 1:8 -i 5 -x 1 -c
expect '[ "$RC" = 1 ] && data_lines | tail -1 | grep -qE "^1 .* Fail$" && [ "$(program_lines osu_latency_mp)" = 1 ]' \
    "osu_latency_mp with COMMSWEEP_CORRUPT=1 -c: Fail at size 1, one message, status 1"

for np in 1 3 4 8; do
    run "$np" "$P2P/osu_latency_mp" -m 1:8 -i 2 -x 1
    expect_usage_error "osu_latency_mp at $np ranks refused" osu_latency_mp
done
for args in "-t 0" "-t 128" "-t 0:2" "-t 2:128" "-t x" "-t 1:2:3" "-t" "-W 4"; do
    # shellcheck disable=SC2086
    run1 "$P2P/osu_latency_mp" $args
    expect_usage_error "osu_latency_mp $args refused" osu_latency_mp
done
