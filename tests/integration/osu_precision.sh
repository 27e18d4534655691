#!/usr/bin/env bash
# --precision in the three OSU drivers (point to point, collective,
# one-sided): sizes stop early when the fake clock makes them precise, run to
# the cap when it makes one rank noisy (a rank that does not print: its
# imprecision must keep every rank going), and stop by --max-time; every
# rank stops at the same iteration (COMMSWEEP_PRECISION_TRACE); the rows
# say Iters, CI95(%) and Reached with --stats, and in JSON always; bad
# values end the run with one line and status 2.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/jsonl_lib.sh"
O="$BUILD/osu"

# Nothing when every rank traced the same counts, size by size (the lines
# of one rank are in its order of sizes), and each size's count is WANT
# (a number, or "cap:N" for any count up to N); else what differs.
same_stops() { # SIZES RANKS WANT
    local sizes=$1 ranks=$2 want=$3 r seq first=""
    for ((r = 0; r < ranks; r++)); do
        seq=$(sed -n "s/^precision trace: rank $r: \([0-9]*\) iterations, .*/\1/p" "$ERR" | tr '\n' ' ')
        [ "$(wc -w <<< "$seq")" = "$sizes" ] || { echo "rank $r traced '$seq', want $sizes sizes"; return; }
        [ -z "$first" ] && first=$seq
        [ "$seq" = "$first" ] || { echo "rank $r stopped at '$seq', rank 0 at '$first'"; return; }
    done
    for n in $first; do
        case $want in
            cap:*) [ "$n" -le "${want#cap:}" ] || echo "count $n above the cap ${want#cap:}" ;;
            *) [ "$n" = "$want" ] || echo "count $n, want $want" ;;
        esac
    done
}

# The Iters, CI95(%) and Reached columns (last three) of every row.
reached_problems() { # ITERS REACHED
    data_lines | awk -v n="$1" -v yes="$2" '
        { rows++ }
        $(NF - 2) != n || $NF != yes || !($(NF - 1) ~ /^[0-9.]+$|^inf$/) { print "row: " $0; exit }
        END { if (!rows) print "no data line" }'
}

export COMMSWEEP_PRECISION_TRACE=1
# Early: every iteration alike on the fake clock; -i is the first batch.
for case in "2 osu_latency 2" "3 osu_allreduce 2" "2 osu_put_latency 2" "2 osu_bw 2"; do
    read -r np prog sizes <<< "$case"
    COMMSWEEP_PRECISION_CLOCK=quiet run "$np" "$O/$prog" -m 4:8 -i 50 -x 2 --precision=1 --stats
    expect_no_problems "$prog at $np ranks, a quiet clock: every size stops after its first batch (-i 50), on every rank" \
        same_stops "$sizes" "$np" 50
    expect_no_problems "$prog --stats: Iters 50, Reached yes" reached_problems 50 yes
done

# Late: one rank noisy (not the printing one where every rank is timed):
# 1% is never reached, and the sizes run to the cap, ten times -i (the
# non-blocking ones measure two series per size: the pure communication,
# then with the compute).
for case in "2 osu_latency 0 2" "3 osu_allreduce 2 2" "3 osu_iallreduce 1 4" "2 osu_put_latency 0 2"; do
    read -r np prog noisy sizes <<< "$case"
    COMMSWEEP_PRECISION_CLOCK=noisy:$noisy run "$np" "$O/$prog" -m 4:8 -i 40 -x 2 --precision=1 --max-time=60 --stats
    expect_no_problems "$prog at $np ranks, rank $noisy noisy: every size runs to the cap (400), on every rank" \
        same_stops "$sizes" "$np" 400
    expect_no_problems "$prog --stats: Iters 400, Reached no" reached_problems 400 no
done

# The time limit: a size that would need 200000 iterations of 4 KiB round
# trips (0.4 s at the least) stops after --max-time=0.2 s with fewer.
COMMSWEEP_PRECISION_CLOCK=noisy:0 run 2 "$O/osu_latency" -m 4096:4096 -i 20000 -x 10 --precision=0.1 --max-time=0.2 --stats
expect_no_problems "osu_latency --max-time=0.2: the size stops before its cap, on both ranks" \
    same_stops 1 2 cap:199999
expect '[ "$RC" = 0 ] && [ "$(data_lines | awk "{ print \$NF }")" = no ]' \
    "osu_latency --max-time=0.2: the row says the precision was not reached"

# The real clock, a wide target: the same count on every rank.
run 3 "$O/osu_allreduce" -m 4:64 -i 20 -x 2 --precision=20 --max-time=2
expect_no_problems "osu_allreduce --precision=20 on the real clock: every rank stops at the same iteration" \
    same_stops 5 3 cap:200
expect '[ "$RC" = 0 ] && grep -q "^# precision: each size in batches until the 95% confidence interval of its mean is within 20% of it, or after 2 s" "$OUT"' \
    "osu_allreduce --precision: the header says the rule"
unset COMMSWEEP_PRECISION_TRACE

# JSON: iterations, ci95_pct and precision_reached in every row, valid by
# the schema; first_over_median with --stats.
COMMSWEEP_PRECISION_CLOCK=quiet run 2 "$O/osu_bw" -m 4:8 -i 10 -x 1 --precision=5 --format=jsonl
expect '[ "$RC" = 0 ] && [ "$(grep -c "\"iterations\":10,.*\"ci95_pct\":0,\"precision_reached\":true" "$OUT")" = 2 ]' \
    "osu_bw --precision --format=jsonl: iterations, ci95_pct and precision_reached in each row"
jsonl_ok "osu_bw --precision --format=jsonl: valid by the schema"
run 3 "$O/osu_allreduce" -m 4:8 -i 10 -x 1 --stats --format=jsonl
expect '[ "$RC" = 0 ] && [ "$(grep -c "\"first_over_median\":[0-9]" "$OUT")" = 2 ] && ! grep -q precision_reached "$OUT"' \
    "osu_allreduce --stats --format=jsonl: first_over_median in each row, no precision fields without --precision"
jsonl_ok "osu_allreduce --stats --format=jsonl: valid by the schema"

# Refused: one line, status 2.
for bad in "--precision=0" "--precision=-1" "--precision=abc" "--precision=101" "--precision=" \
    "--max-time=3" "--precision=2 --max-time=0" "--precision=2 --max-time=-1" \
    "--precision=2 --max-time=1e9" "--precision=2 --max-time=x"; do
    # shellcheck disable=SC2086
    run 2 "$O/osu_latency" -m 4:4 $bad
    expect_usage_error "osu_latency $bad: one line, status 2" osu_latency
done
run 3 "$O/osu_allreduce" -m 4:4 --precision=2 --timing=window
expect_usage_error "osu_allreduce --precision with window timing: one line, status 2" osu_allreduce
jsonl_check_all
summary
