#!/usr/bin/env bash
# --stats names each size's slowest rank in the OSU-style point-to-point and
# collective programs: the rank with the largest own median time over the
# iterations, its host, and how far above the median rank it is; in JSON
# Lines as fields. COMMSWEEP_SLOW_RANK=R (the test hook) makes rank R sleep
# 10 ms inside each of its timed calls: the rows must name R.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/jsonl_lib.sh"
OSU="$BUILD/osu"
host=$(hostname)

# Every data row names RANK on this host, above the median rank by more
# than MIN_PCT (three last columns).
named_problems() { # RANK MIN_PCT
    data_lines | awk -v rank="$1" -v min="$2" -v host="$host" '
        { rows++ }
        $(NF - 2) != rank || !($(NF - 1) + 0 > min) || $NF != host { print "row names " $(NF - 2) " (+" $(NF - 1) "%) on " $NF ": " $0; exit }
        END { if (!rows) print "no data line" }'
}

# (MIN_PCT: the slowed rank, 40 ms longer per call, lies far above the
# median rank on a quiet machine, and still above it on a loaded one;
# osu_bw times rank 0 alone, which is its own median. 10 ms was once
# outrun under MPICH: osu_mbw_mr's rank 0 waited 14 ms for a receiver
# that shared a core with polling ranks.)
# The non-blocking ones are left out: the others' overall time waits for
# the slowed rank's progress (its MPI_Test calls) too.
for case in "3 osu_allreduce 2 0" "3 osu_alltoall 1 0" "3 osu_barrier 2 0" \
    "4 osu_mbw_mr 1 0" "2 osu_bw 0 -1"; do
    read -r np prog slow min_pct <<< "$case"
    COMMSWEEP_SLOW_RANK=$slow COMMSWEEP_SLOW_MS=40 run "$np" "$OSU/$prog" -m 4:16 -i 5 -x 1 --stats
    expect '[ "$RC" = 0 ] && grep -q "CV(%)      First/Median       SlowestRank    AboveMedian(%)       SlowestHost$" "$OUT"' \
        "$prog --stats at $np ranks: the slowest rank's columns last in the heading"
    expect_no_problems "$prog --stats at $np ranks, rank $slow slowed: every row names rank $slow on $host, above the median rank" \
        named_problems "$slow" "$min_pct"
done

# The non-blocking collectives name a rank too.
run 3 "$OSU/osu_iallreduce" -m 4:4 -i 5 -x 1 --stats
expect '[ "$RC" = 0 ] && [ -z "$(data_lines | awk "\$(NF - 2) !~ /^[012]\$/ || \$NF != \"$host\"")" ] &&
        grep -q "CV(%)      First/Median       SlowestRank    AboveMedian(%)       SlowestHost$" "$OUT"' \
    "osu_iallreduce --stats at 3 ranks: the slowest rank's columns, one of ranks 0-2"

# Without the hook: some rank of the job, not below the median rank.
run 3 "$OSU/osu_allreduce" -m 4:16 -i 5 -x 1 --stats
expect '[ "$RC" = 0 ] && [ -z "$(data_lines | awk "\$(NF - 2) !~ /^[012]\$/ || \$(NF - 1) < 0 || \$NF != \"$host\"")" ]' \
    "osu_allreduce --stats at 3 ranks: each row names one of ranks 0-2, at or above the median rank"

# Without --stats, and in the one-sided programs (the origin alone is
# timed), no such column.
run 3 "$OSU/osu_allreduce" -m 4:4 -i 5 -x 1
expect '[ "$RC" = 0 ] && ! grep -q Slowest "$OUT"' "osu_allreduce without --stats: no slowest rank"
run 2 "$OSU/osu_put_latency" -m 4:4 -i 5 -x 1 --stats
expect '[ "$RC" = 0 ] && ! grep -q Slowest "$OUT"' "osu_put_latency --stats: no slowest rank (one-sided)"

# JSON Lines: the three fields, valid by the schema.
COMMSWEEP_SLOW_RANK=1 run 3 "$OSU/osu_allreduce" -m 4:8 -i 5 -x 1 --stats --format=jsonl
expect '[ "$RC" = 0 ] && [ "$(grep -c "\"slowest_rank\":1,\"slowest_above_median_pct\":[0-9.e+]*,\"slowest_host\":\"$host\"" "$OUT")" = 2 ]' \
    "osu_allreduce --stats --format=jsonl: slowest_rank, slowest_above_median_pct and slowest_host in each row"
jsonl_ok "osu_allreduce --stats --format=jsonl with the slowest rank: valid by the schema"
jsonl_check_all
summary
