#!/usr/bin/env bash
# tools/compare on OMB 7.x's plain layout: the OSU programs' default output
# (no run description, no '# command:' line) and a file as OMB 7.4 itself
# prints it, against one another and against the suite's JSON Lines: rows
# paired by size, the ratio of the averages, no test where a side holds
# only averages (and the header and each row say so), a test where the
# suite's --stats columns give a spread; -f and -c columns; files of two
# tests, and files cut short or malformed, refused with status 2 and one
# line that names the line to blame.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/compare_lib.sh"
# The programs' own defaults (OMB 7.4's): their plain output is the layout.
unset COMMSWEEP_DEFAULTS
O="$BUILD/osu"
FIX="$TOP/tests/integration/omb74"
D="$TMPD/omb"
mkdir -p "$D"
SIZES="1 2 4 8 16 32 64"

# A run of an OSU program into FILE; a failed run fails the test here.
omb_run() { # FILE NP PROGRAM ARGS...
    local file=$1 np=$2
    shift 2
    run "$np" "$@" < /dev/null
    cp "$OUT" "$file"
    expect '[ "$RC" = 0 ] && [ -s "$file" ]' "$(basename "$1") ${*:2}: runs (status $RC)"
}

# Why the data lines of $OUT are not one row per size of SIZES, in order,
# each with test TEST, verdict VERDICT and a ratio B/A with four decimals
# within [LO, HI]; empty when they are.
rows_problems() { # TEST VERDICT LO HI
    [ "$RC" = 0 ] || { echo "status $RC: $(head -c 300 "$ERR")"; return; }
    data_lines | awk -v sizes="$SIZES" -v test="$1" -v want="\"$2\"" -v lo="$3" -v hi="$4" '
        BEGIN { n = split(sizes, size, " ") }
        { i++; verdict = substr($0, index($0, "\"")) }
        $1 != size[i] { print "row " i ": size " $1 ", want " size[i]; exit }
        $7 != test { print "test " $7 ", want " test ": " $0; exit }
        verdict != want { print "verdict " verdict ", want " want ": " $0; exit }
        $4 !~ /^[0-9]+\.[0-9][0-9][0-9][0-9]$/ || !($4 >= lo && $4 <= hi) {
            print "ratio " $4 " not in [" lo ", " hi "] with four decimals: " $0; exit }
        END { if (i != n) print i " rows, want " n }'
}

# Why columns A and B of $OUT are not the values of FILE_A's column COL_A
# and FILE_B's COL_B (text: the column's number in the data lines; JSON
# Lines: a field of each row).
values_problems() { # FILE_A COL_A FILE_B COL_B
    local va vb
    va=$(values_of "$1" "$2") vb=$(values_of "$3" "$4")
    data_lines | awk -v va="$va" -v vb="$vb" '
        BEGIN { na = split(va, a, " "); split(vb, b, " ") }
        { i++ }
        # compare prints %.6g: the values agree to six digits.
        function off(x, y) { return x - y > 1e-5 * y || y - x > 1e-5 * y }
        off($2, a[i]) { print "row " i ": A " $2 ", the file has " a[i]; exit }
        off($3, b[i]) { print "row " i ": B " $3 ", the file has " b[i]; exit }
        END { if (i != na) print i " rows, the file has " na }'
}
values_of() { # FILE COL|FIELD
    case $1 in
    *.jsonl) python3 -c 'import json, sys
print(" ".join(repr(o[sys.argv[2]]) for o in map(json.loads, open(sys.argv[1])) if o["type"] == "row"))' "$1" "$2" ;;
    *) data_lines "$1" | awk -v c="$2" '{ printf "%s ", $c }' ;;
    esac
}

# ---- the suite's plain output: two runs of osu_latency ----
omb_run "$D/lat1.txt" 2 "$O/osu_latency" -m 1:64 -i 100 -x 10
omb_run "$D/lat2.txt" 2 "$O/osu_latency" -m 1:64 -i 100 -x 10
expect 'head -n 2 "$D/lat1.txt" | grep -qx "# OSU MPI Latency Test v7.4 (commsweep .*)" &&
        ! grep -q "^# command:" "$D/lat1.txt"' \
    "the default output is OMB's plain layout: its title, no '# command:' line"
compare_run "$D/lat1.txt" "$D/lat1.txt"
expect_no_problems "a plain run against itself: a row per size, B / A 1.0000, averages only" \
    rows_problems none "averages only: not tested" 1 1
expect 'grep -qx "# significance: not tested: plain OMB output holds averages only (A and B)" "$OUT" &&
        grep -q "^# A: $D/lat1.txt (text in OMB 7.4.s layout, by commsweep " "$OUT" &&
        grep -q "^# Comparison of two runs of OSU MPI Latency Test" "$OUT"' \
    "the header says why nothing is tested, and notes the layout and its version"
expect 'grep -qx "# 7 rows: 0 significant (0 B better, 0 B worse), 0 not significant, 7 not tested" "$OUT"' \
    "the last line counts 7 rows not tested"
compare_run "$D/lat1.txt" "$D/lat2.txt"
expect_no_problems "two plain runs: rows paired by size, each ratio a number" \
    rows_problems none "averages only: not tested" 0.0001 100000
expect_no_problems "two plain runs: A and B are each file's Avg Latency" \
    values_problems "$D/lat1.txt" 2 "$D/lat2.txt" 2

# One row made three times slower, the others as they were.
awk '$1 == 8 { printf "%-10s%18.2f\n", $1, 3 * $2; next } { print }' "$D/lat1.txt" > "$D/lat1-edit.txt"
compare_run "$D/lat1.txt" "$D/lat1-edit.txt"
expect '[ "$RC" = 0 ] && [ "$(data_lines | awk "\$1 == 8 { print \$4 }")" = 3.0000 ] &&
        [ "$(data_lines | awk "\$1 != 8 && \$4 != \"1.0000\"" | wc -l)" = 0 ]' \
    "a row edited to three times its latency: B / A 3.0000 there, 1.0000 elsewhere"
compare_run "$D/lat1-edit.txt" "$D/lat1.txt"
expect '[ "$RC" = 0 ] && [ "$(data_lines | awk "\$1 == 8 { print \$4 }")" = 0.3333 ]' \
    "the same, A and B swapped: 0.3333"

# ---- plain against JSON Lines ----
omb_run "$D/bw.txt" 2 "$O/osu_bw" -m 1:64 -i 20 -x 5
omb_run "$D/bw.jsonl" 2 "$O/osu_bw" -m 1:64 -i 20 -x 5 --format=jsonl --stats --samples
compare_run "$D/bw.txt" "$D/bw.jsonl"
expect_no_problems "plain osu_bw against its JSON Lines (--samples): paired by size, averages only" \
    rows_problems none "averages only: not tested" 0.0001 100000
expect_no_problems "plain osu_bw against its JSON Lines: A the text's bandwidth, B the JSON's" \
    values_problems "$D/bw.txt" 2 "$D/bw.jsonl" bandwidth_mb_s
expect 'grep -qx "# significance: not tested: plain OMB output holds averages only (A)" "$OUT" &&
        grep -qx "# table osu: bandwidth_mb_s in MB/s, higher is better" "$OUT" &&
        grep -q "^# Comparison of two runs of osu/osu_bw" "$OUT"' \
    "the header names the plain side (A), the JSON's program and which way is better"
compare_run "$D/bw.jsonl" "$D/bw.txt"
expect '[ "$RC" = 0 ] && grep -qx "# significance: not tested: plain OMB output holds averages only (B)" "$OUT"' \
    "JSON Lines as A, plain as B: the header names B"

# ---- a file as OMB 7.4 prints it ----
# Its heading from the recorded OMB 7.4 layout, its title with OMB's
# version, its rows as OMB writes them: the size in 10 columns, each value
# in 18 with two decimals.
heading=$(sed -n 's/^H //p' "$FIX/osu_latency.1.layout")
{
    printf '\n# OSU MPI Latency Test v7.4\n# Datatype: MPI_CHAR.\n%s\n' "$heading"
    v=1
    for s in $SIZES; do printf '%-10d%18.2f\n' "$s" "$v"; v=$((v + 1)); done
} > "$D/omb74.txt"
compare_run "$D/omb74.txt" "$D/lat1.txt"
expect_no_problems "OMB 7.4's own file against the suite's plain run: a row per size" \
    rows_problems none "averages only: not tested" 0.0001 100000
expect_no_problems "OMB 7.4's own file against the suite's plain run: both files' values" \
    values_problems "$D/omb74.txt" 2 "$D/lat1.txt" 2
expect 'grep -qx "# A: $D/omb74.txt (text in OMB 7.4.s layout)" "$OUT" &&
        grep -q "^# B: $D/lat1.txt (text in OMB 7.4.s layout, by commsweep " "$OUT"' \
    "the header tells OMB's file from the suite's"
expect '[ "$(data_lines | awk "\$1 == 4 { print \$4 }")" = "$(data_lines "$D/lat1.txt" | awk "\$1 == 4 { printf \"%.4f\", \$2 / 3 }")" ]' \
    "B / A of size 4 is the suite's latency over OMB's 3.00"
omb_run "$D/lat.jsonl" 2 "$O/osu_latency" -m 1:64 -i 100 -x 10 --format=jsonl
compare_run "$D/omb74.txt" "$D/lat.jsonl"
expect_no_problems "OMB 7.4's own file against the suite's JSON Lines" \
    rows_problems none "averages only: not tested" 0.0001 100000

# ---- -f and -c ----
omb_run "$D/full1.txt" 2 "$O/osu_latency" -m 1:64 -i 100 -x 10 -f
omb_run "$D/full2.txt" 2 "$O/osu_latency" -m 1:64 -i 100 -x 10 -f -c
expect 'grep -q "^# Size  *Avg Latency(us)  *Min Latency(us)  *Max Latency(us)  *Iterations  *Validation$" "$D/full2.txt" &&
        [ "$(data_lines "$D/full2.txt" | awk "\$6 == \"Pass\"" | wc -l)" = 7 ]' \
    "-f -c: OMB's full heading and a Validation column of Pass"
compare_run "$D/full1.txt" "$D/full2.txt"
expect_no_problems "-f against -f -c: paired by size, the averages compared" \
    rows_problems none "averages only: not tested" 0.0001 100000
expect_no_problems "-f against -f -c: A and B are the Avg Latency, not Min or Max" \
    values_problems "$D/full1.txt" 2 "$D/full2.txt" 2
compare_run "$D/full2.txt" "$D/lat1.txt"
expect_no_problems "-f -c against the short layout: one table, paired by size" \
    rows_problems none "averages only: not tested" 0.0001 100000
omb_run "$D/ar.txt" 2 "$O/osu_allreduce" -m 4:64 -i 20 -x 5 -f
omb_run "$D/ar.jsonl" 2 "$O/osu_allreduce" -m 4:64 -i 20 -x 5 --format=jsonl
compare_run "$D/ar.txt" "$D/ar.jsonl"
SIZES="4 8 16 32 64" expect_no_problems "osu_allreduce -f, plain against JSON Lines" \
    rows_problems none "averages only: not tested" 0.0001 100000
# The suite's --stats columns in its plain layout: with -f's iterations,
# Welch's t.
omb_run "$D/stats.txt" 2 "$O/osu_latency" -m 1:64 -i 100 -x 10 -f --stats
compare_run "$D/stats.txt" "$D/stats.txt"
expect_no_problems "plain --stats -f against itself: tested (Welch), not significant" \
    rows_problems welch "not significant" 1 1
expect '! grep -q "^# significance:" "$OUT"' "with a spread on both sides no 'not tested' line"

if command -v gnuplot > /dev/null; then
    compare_run "$D/lat1.txt" "$D/lat2.txt" --png "$D/cmp.png"
    expect '[ "$RC" = 0 ] && [ "$(head -c 4 "$D/cmp.png" | od -An -c | tr -d " ")" = "211PNG" ]' \
        "--png draws two plain runs"
else
    skip "--png draws two plain runs" "gnuplot is not installed"
fi

# ---- refused: status 2, one line ----
refused_compare "plain runs of two programs" "$D/lat1.txt" "$D/bw.txt"
expect 'grep -q "is a run of .OSU MPI Latency Test., .* of .OSU MPI Bandwidth Test.: compare two runs of one program" "$ERR"' \
    "plain runs of two programs: the message names both titles"
refused_compare "a plain run against JSON Lines of another program" "$D/lat1.txt" "$D/bw.jsonl"
sed 's/Latency Test/Bandwidth Test/' "$D/omb74.txt" > "$D/omb74-bw.txt"
refused_compare "OMB's file of one title against the suite's of another" "$D/omb74-bw.txt" "$D/lat1.txt"

# Cut short: the 4th data row (size 8, line 8) without its value.
head -n 7 "$D/lat1.txt" > "$D/cut.txt"
printf '8         ' >> "$D/cut.txt"
refused_compare "a file cut in the middle of a row" "$D/cut.txt" "$D/lat1.txt"
expect 'grep -q "cut.txt:8: 1 values where the heading (line 4) names 2 columns" "$ERR"' \
    "a file cut in the middle of a row: line 8 named"
refused_compare "a file cut in the middle of a row, as B" "$D/lat1.txt" "$D/cut.txt"
head -n 4 "$D/lat1.txt" > "$D/headonly.txt"
refused_compare "a file cut after its heading" "$D/headonly.txt" "$D/lat1.txt"
expect 'grep -q "headonly.txt:4: the file ends before any data line" "$ERR"' \
    "a file cut after its heading: its last line named"
awk 'NR == 9 { $2 = "fast" } { print }' "$D/lat1.txt" > "$D/word.txt"
refused_compare "a word for a latency" "$D/lat1.txt" "$D/word.txt"
expect 'grep -q "word.txt:9: .fast. in column Avg Latency(us) is not a number" "$ERR"' \
    "a word for a latency: line 9 named"
awk 'NR == 6 { $6 = "Maybe" } { print }' "$D/full2.txt" > "$D/valid.txt"
refused_compare "a Validation that is neither Pass nor Fail" "$D/valid.txt" "$D/full2.txt"
expect 'grep -q "valid.txt:6: " "$ERR"' "a Validation that is neither Pass nor Fail: line 6 named"
sed 's/ v7\.4$/ v6.2/' "$D/omb74.txt" > "$D/omb62.txt"
refused_compare "OMB 6.2's output" "$D/omb62.txt" "$D/lat1.txt"
expect 'grep -q "omb62.txt:2: OMB 6.2.s output: compare reads the layout of OMB 7.x" "$ERR"' \
    "OMB 6.2's output: the title's line named"
cat "$D/lat1.txt" "$D/lat2.txt" > "$D/twice.txt"
refused_compare "two plain runs in one file" "$D/twice.txt" "$D/lat1.txt"
printf 'size latency\n1 2\n' > "$D/other.txt"
refused_compare "a file of no OSU title and no '# command:' line" "$D/other.txt" "$D/lat1.txt"
expect 'grep -q "nor OMB 7.x.s output" "$ERR"' "a file of neither layout: the message names both"
omb_run "$D/mbwv.txt" 2 "$O/osu_mbw_mr" -m 1:4 -i 10 -x 2 -V
refused_compare "osu_mbw_mr -V's table of window sizes" "$D/mbwv.txt" "$D/mbwv.txt"
expect 'grep -q "mbwv.txt:[0-9]*: a heading of window sizes" "$ERR"' \
    "osu_mbw_mr -V's table of window sizes: the heading's line named"
