#!/usr/bin/env bash
# --stats in the text output: its columns come after all the others, in
# each family's layout, and hold a spread that makes sense (P5 <= median <=
# P95, the median within the slowest and fastest iteration); and
# --format=text is the default, line for line.
. "$(dirname "$0")/../lib.sh"
O="$BUILD/osu"

# ok when every data line has FIELDS fields and columns P5 <= MEDIAN <= P95
# (numbers counted from 1).
spread_problems() { # FIELDS MEDIAN P5 P95
    data_lines | awk -v n="$1" -v m="$2" -v lo="$3" -v hi="$4" '
        bad { next }
        NF != n { print "not " n " fields: " $0; bad = 1; next }
        !($lo <= $m && $m <= $hi) { print "P5 <= median <= P95 broken: " $0; bad = 1; next }
        { rows++ } END { if (!rows && !bad) print "no data line" }'
}

# OSU: OMB's widths, the four columns and the first iteration's ratio to
# the median last, after -f's and -z's.
run 2 "$O/osu_latency" -m 1:4 -i 5 -x 1 -f -z --stats < /dev/null
expect_no_problems "osu_latency -f -z --stats: Median, P5, P95, CV(%), then the slowest rank, OMB widths" \
    osu_table_problems 1 "1 2 4" "Avg Latency(us)" "Min Latency(us)" "Max Latency(us)" \
    Iterations "P50 Tail Lat(us)" "P90 Tail Lat(us)" "P99 Tail Lat(us)" "Median(us)" "P5(us)" \
    "P95(us)" "CV(%)" "First/Median" SlowestRank "AboveMedian(%)" SlowestHost
expect_no_problems "osu_latency --stats: P5 <= median <= P95" spread_problems 16 9 10 11
expect '[ -z "$(data_lines | awk "!(\$3 <= \$9 && \$9 <= \$4)")" ]' \
    "osu_latency --stats: the median between the fastest and the slowest iteration"
run 2 "$O/osu_bw" -m 8:8 -i 4 -x 1 --stats < /dev/null
expect 'grep -qxF "$(osu_columns_line "Bandwidth (MB/s)" "Median(MB/s)" "P5(MB/s)" "P95(MB/s)" "CV(%)" "First/Median" \
        SlowestRank "AboveMedian(%)" SlowestHost)" "$OUT"' \
    "osu_bw --stats: the spread of the bandwidth, in MB/s, and the slowest rank"
run 3 "$O/osu_iallreduce" -m 4:4 -i 4 -x 1 -c --stats < /dev/null
expect 'grep -q "Overlap(%)        Validation        Median(us)" "$OUT" && data_lines | grep -q " Pass "' \
    "osu_iallreduce -c --stats: the spread after Validation"
run 2 "$O/osu_get_latency" -m 4:4 -i 4 -x 1 --stats < /dev/null
expect_no_problems "osu_get_latency --stats (one-sided: each iteration timed)" spread_problems 7 3 4 5

# alltoall: four columns after GiBps_max, then the slowest rank's four;
# the median lies within min and max.
run 2 "$BUILD/alltoall/all" --stats s 5 2 < /dev/null
expect 'grep -q "GiBps_max  time_median_s      time_p5_s     time_p95_s        time_cv  slowest_rank  slowest_above_median_pct   slowest_host  slowest_comm$" "$OUT"' \
    "alltoall/all --stats: the heading names the four columns, then the slowest rank's"
expect_no_problems "alltoall/all --stats: P5 <= median <= P95" spread_problems 17 10 11 12
expect '[ -z "$(data_lines | awk "!(\$4 <= \$10 && \$10 <= \$6)")" ]' \
    "alltoall/all --stats: the median between the fastest and the slowest iteration"

# caf: the spread of the loop samples after the sample count.
run 2 "$BUILD/caf/cafbench" --sync --sync-outer 4 --sync-inner 2 --sync-delay 1 --stats < /dev/null
expect 'grep -q "samples loop_median\[us\]  loop_p5\[us\] loop_p95\[us\]    loop_cv$" "$OUT"' \
    "cafbench --sync --stats: the heading names the loop's spread last"
expect_no_problems "cafbench --sync --stats: P5 <= median <= P95" spread_problems 15 12 13 14

# cpm: four columns after ci, the confidence interval kept.
run 2 "$BUILD/cpm/p2p" -M 8 -S 8 -r 3 -R 4 --stats < /dev/null
expect 'grep -qx "#msg time wtick reps ci median p5 p95 cv" "$OUT"' "cpm/p2p --stats: columns after ci"
expect_no_problems "cpm/p2p --stats: P5 <= median <= P95" spread_problems 9 6 7 8

# --format=text is the default: the same '#' lines (the command and date
# aside) and the same table shape. Values are right-aligned in fixed-width
# columns, so the blanks before a number depend on its digits: a masked
# value swallows them. In the rows every number is masked: a measured value
# can come out whole (a ci of 0, a time of 2e-06).
shape() {
    grep -vE '^# (command|date):' "$1" |
        sed -E '/^#/s/ *[0-9]+\.[0-9]+(e[-+][0-9]+)?/ N/g; /^#/!s/ *-?[0-9]+(\.[0-9]+)?(e[-+][0-9]+)?/ N/g'
}
for p in "$O/osu_latency -m 1:8 -i 2 -x 1 -f" "$BUILD/alltoall/all s 2 2" "$BUILD/cpm/p2p -M 8 -S 8 -r 2 -R 2"; do
    # shellcheck disable=SC2086
    run 2 $p < /dev/null
    cp "$OUT" "$TMPD/default"
    # shellcheck disable=SC2086
    run 2 $p --format=text < /dev/null
    expect '[ "$RC" = 0 ] && diff <(shape "$TMPD/default") <(shape "$OUT") > /dev/null' \
        "${p##*/}: --format=text prints what the default prints"
done
