#!/usr/bin/env bash
# --stats names each row's slowest rank in alltoall/all and aller: of all
# the world ranks of all the concurrent communicators (every rank times
# every call), the one with the largest own median time over the count's
# timed calls, how far above the median rank, its host and the index of
# its communicator; in JSON Lines as fields. COMMSWEEP_SLOW_RANK=R (the
# test hook) makes world rank R sleep 10 ms inside each of its timed calls:
# every row must name R, its host and its communicator.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/jsonl_lib.sh"
A="$BUILD/alltoall"
host=$(hostname)
TAIL="time_cv  slowest_rank  slowest_above_median_pct   slowest_host  slowest_comm"

# Why the text rows in $OUT do not all name RANK (above the median rank, on
# this host, in the communicator the block's '# communicator C: world
# ranks ...' lines put it in); empty when they do.
text_named() { # RANK
    awk -v rank="$1" -v host="$host" '
        /^# communicator [0-9]+: world ranks/ {
            for (i = 6; i <= NF; i++) if ($i == rank) { comm = $3; sub(":", "", comm) }
            next }
        /^#/ || NF == 0 { next }
        { rows++ }
        $(NF - 3) != rank || !($(NF - 2) + 0 > 0) || $(NF - 1) != host || $NF != comm {
            print "row names rank " $(NF - 3) " (+" $(NF - 2) "%) on " $(NF - 1) " in communicator " $NF \
                ", want " rank " on " host " in " comm ": " $0; exit }
        END { if (!rows) print "no data line" }' "$OUT"
}

# The same for the JSON rows in $OUT; STRIDED 1 or 0 gives the
# communicator of a world rank (strided: rank mod comms; contiguous:
# rank / ranks).
json_named() { # RANK STRIDED
    python3 - "$OUT" "$1" "$2" "$host" << 'EOF'
import json, sys
path, rank, strided, host = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1", sys.argv[4]
rows = [r for r in map(json.loads, open(path)) if r.get("type") == "row"]
if not rows:
    print("no row")
for r in rows:
    comm = rank % r["comms"] if strided else rank // r["ranks"]
    got = [r.get(k) for k in ("slowest_rank", "slowest_host", "slowest_comm")]
    if got != [rank, host, comm] or not r.get("slowest_above_median_pct", 0) > 0:
        print("row names %s (+%s%%), want %s: %s" % (got, r.get("slowest_above_median_pct"),
                                                     [rank, host, comm], json.dumps(r)))
        break
EOF
}

# expect_slowed DESCRIPTION NP SLOW CHECK CHECK_ARGS... -- PROGRAM ARGS...:
# runs NP ranks of PROGRAM with rank SLOW slowed; ok when CHECK prints
# nothing (every row names SLOW). 10 ms a call outweighs any other rank's
# median unless that rank lost its core for more than half of its calls,
# which a loaded, oversubscribed machine does now and then: a run whose rows
# do not all name the slowed rank is run once more (a '#' line says so).
# With the hook ignored no rank is named in every row of both runs, and
# this fails.
expect_slowed() {
    local desc=$1 np=$2 slow=$3 check=() why try
    shift 3
    while [ "$1" != -- ]; do check+=("$1"); shift; done
    shift
    for try in 1 2; do
        COMMSWEEP_SLOW_RANK=$slow run "$np" "$@" < /dev/null
        if [ "$RC" != 0 ]; then why="status $RC: $(head -c 500 "$ERR")"; break; fi
        why=$("${check[@]}")
        [ -z "$why" ] && break
        [ "$try" = 1 ] && echo "# $desc: run again after: $why"
    done
    if [ -z "$why" ]; then ok "$desc"; else not_ok "$desc" "$why"; fi
}

# Text and JSON Lines at 4 and 5 ranks, contiguous and strided: the slowed
# rank in the full communicator, in halves (5 ranks: 3 communicators, the
# last of one rank) and alone.
for case in "4 2 c 0" "5 3 s 1" "5 4 c 0" "4 1 s 1"; do
    read -r np slow part strided <<< "$case"
    expect_slowed "all --stats at $np ranks ($part), rank $slow slowed: every row names rank $slow, this host and its communicator" \
        "$np" "$slow" text_named "$slow" -- "$A/all" --stats "$part" 9 1
    expect 'grep -q "$TAIL\$" "$OUT"' "all --stats at $np ranks: the slowest rank's four columns last in the heading"
    expect_slowed "all --stats --format=jsonl at $np ranks ($part), rank $slow slowed: every row names rank $slow, this host and its communicator" \
        "$np" "$slow" json_named "$slow" "$strided" -- "$A/all" --stats --format=jsonl "$part" 9 1
    jsonl_ok "all --stats --format=jsonl at $np ranks, rank $slow slowed: valid by the schema" \
        --program alltoall/all --status 0
done

# aller: every algorithm's block names the slowed rank too (3 ranks).
expect_slowed "aller --stats at 3 ranks, rank 2 slowed: every algorithm's rows name rank 2" \
    3 2 text_named 2 -- "$A/aller" --algorithm=alltoall,isend --stats s 9 1

# Without the hook: a rank of the job in each row, at or above the median
# rank, on this host, in the communicator its rank gives; valid JSON.
run 5 "$A/all" --stats s 5 1 < /dev/null
expect '[ "$RC" = 0 ] && [ -z "$(data_lines | awk "\$(NF - 3) !~ /^[0-4]\$/ || \$(NF - 2) < 0 || \$(NF - 1) != \"$host\" || \$NF != \$(NF - 3) % \$1")" ]' \
    "all --stats at 5 ranks (strided), no rank slowed: each row names one of ranks 0-4, at or above the median rank, and its communicator"
run 5 "$A/all" --stats --samples --format=jsonl c 5 1 < /dev/null
expect '[ "$RC" = 0 ] && [ "$(grep -c "\"slowest_rank\":[0-4],\"slowest_above_median_pct\":[0-9.e+-]*,\"slowest_host\":\"$host\",\"slowest_comm\":[0-4]}" "$OUT")" = "$(grep -c "\"type\":\"row\"" "$OUT")" ]' \
    "all --stats --format=jsonl at 5 ranks, no rank slowed: the four fields last in every row"
jsonl_ok "all --stats --samples --format=jsonl at 5 ranks: valid by the schema" \
    --program alltoall/all --status 0 --recompute

# Without --stats: neither the columns nor the fields.
run 4 "$A/all" s 3 1 < /dev/null
expect '[ "$RC" = 0 ] && ! grep -q slowest "$OUT" && grep -q "GiBps_max\$" "$OUT"' \
    "all without --stats: no slowest rank"
run 4 "$A/all" --format=jsonl s 3 1 < /dev/null
expect '[ "$RC" = 0 ] && ! grep -q slowest "$OUT"' "all --format=jsonl without --stats: no slowest field"
jsonl_ok "all --format=jsonl without --stats: valid by the schema" --program alltoall/all --status 0

# The readers of the text: compare pairs the rows, plot.sh finds its columns.
run 3 "$A/all" --stats s 3 2 < /dev/null
cp "$OUT" "$TMPD/all-stats.dat"
rows=$(data_lines | wc -l)
"$BUILD/tools/compare" "$TMPD/all-stats.dat" "$TMPD/all-stats.dat" > "$TMPD/cmp" 2> "$TMPD/cmp.err"
cmp_rc=$?
expect '[ "$cmp_rc" = 0 ] && [ "$rows" -gt 0 ] && grep -q "^# $rows rows: " "$TMPD/cmp"' \
    "compare reads all --stats' text with the slowest rank's columns, every row"
if command -v gnuplot > /dev/null; then
    "$TOP/plot/plot.sh" "$TMPD/all-stats.dat" > /dev/null 2> "$TMPD/plot.err"
    plot_rc=$?
    expect '[ "$plot_rc" = 0 ] && [ -s "$TMPD/all-stats.png" ]' "plot.sh draws all --stats' text"
else
    skip "plot.sh draws all --stats' text" "no gnuplot"
fi
jsonl_check_all
