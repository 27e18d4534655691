#!/usr/bin/env bash
# tools/compare: on made-up runs of osu_latency (compare_gen.py: the same
# seed, the same times) it finds a planted 10% shift and calls the same
# noise "not significant", by bootstrap (--samples), by Welch's t from the
# --stats spread in JSON and in text, and says "not tested" without a
# spread; about 5% of rows of two seeds of one distribution are called
# significant, not many more; the bootstrap reproduces from its seed. On
# real runs of osu_latency in both formats: a run against itself, and
# against itself slowed by 10% with awk. Bad input: status 2, one line.
# The output is read by gnuplot, and --png draws it.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/compare_lib.sh"
GEN="python3 $TOP/tests/integration/compare_gen.py"
D="$TMPD/cmp"
mkdir -p "$D"

# Why the data lines of $OUT are not ROWS rows all with verdict VERDICT,
# test TEST and a ratio within [LO, HI]; empty when they are.
rows_problems() { # ROWS VERDICT TEST LO HI
    [ "$RC" = 0 ] || { echo "status $RC: $(head -c 300 "$ERR")"; return; }
    data_lines | awk -v rows="$1" -v want="\"$2\"" -v test="$3" -v lo="$4" -v hi="$5" '
        { n++; verdict = substr($0, index($0, "\"")) }
        verdict != want { print "verdict " verdict ", want " want ": " $0; exit }
        $7 != test { print "test " $7 ", want " test ": " $0; exit }
        !($4 >= lo && $4 <= hi) { print "ratio " $4 " not in [" lo ", " hi "]: " $0; exit }
        END { if (n != rows) print n " rows, want " rows }'
}

# Rows whose verdict starts with "significant" in $OUT.
significant_rows() { data_lines | grep -c '"significant' | tr -d ' '; }

# ---- made-up runs: the same noise, and a planted shift ----
$GEN --format jsonl --stats --samples --seed 1 > "$D/a.jsonl"
$GEN --format jsonl --stats --samples --seed 1 --scale 1.1 > "$D/a-slow.jsonl"
$GEN --format jsonl --stats --seed 1 > "$D/a-stats.jsonl"
$GEN --format jsonl --stats --seed 1 --scale 1.1 > "$D/a-stats-slow.jsonl"
$GEN --format text --stats --seed 1 > "$D/a.txt"
$GEN --format text --stats --seed 1 --scale 1.1 > "$D/a-slow.txt"
$GEN --format text --seed 1 > "$D/a-plain.txt"
$GEN --format text --seed 1 --scale 1.1 > "$D/a-plain-slow.txt"

compare_run "$D/a.jsonl" "$D/a.jsonl"
expect_no_problems "JSON --samples, the same noise: not significant (bootstrap), B / A = 1" \
    rows_problems 8 "not significant" bootstrap 1 1
compare_run "$D/a.jsonl" "$D/a-slow.jsonl"
expect_no_problems "JSON --samples, 10% slower: significant, B worse (bootstrap)" \
    rows_problems 8 "significant: B worse" bootstrap 1.0999 1.1001
compare_run "$D/a-slow.jsonl" "$D/a.jsonl"
expect_no_problems "JSON --samples, 10% faster: significant, B better" \
    rows_problems 8 "significant: B better" bootstrap 0.909 0.9092
compare_run "$D/a-stats.jsonl" "$D/a-stats.jsonl"
expect_no_problems "JSON --stats, the same noise: not significant (Welch)" \
    rows_problems 8 "not significant" welch 1 1
compare_run "$D/a-stats.jsonl" "$D/a-stats-slow.jsonl"
expect_no_problems "JSON --stats, 10% slower: significant (Welch)" \
    rows_problems 8 "significant: B worse" welch 1.0999 1.1001
compare_run "$D/a.txt" "$D/a.txt"
expect_no_problems "text --stats, the same noise: not significant (Welch)" \
    rows_problems 8 "not significant" welch 1 1
# The text has two decimals: 10% of 2.01 us is printed as 2.21.
compare_run "$D/a.txt" "$D/a-slow.txt"
expect_no_problems "text --stats, 10% slower: significant (Welch)" \
    rows_problems 8 "significant: B worse" welch 1.09 1.11
compare_run "$D/a.txt" "$D/a-slow.jsonl"
expect_no_problems "text against JSON Lines of the same program: significant (Welch)" \
    rows_problems 8 "significant: B worse" welch 1.09 1.11
compare_run "$D/a-plain.txt" "$D/a-plain-slow.txt"
expect_no_problems "text without --stats: 'no spread: not tested', the ratio of the averages" \
    rows_problems 8 "no spread: not tested" none 1.09 1.11
expect 'grep -q "^# value: each row.s main value" "$OUT"' \
    "without --stats the header says the values are not medians"

# ---- two seeds of one distribution: about 5% of rows, by chance ----
# 100 rows of 200 iterations each way; for a test at 95% the count of
# significant rows is binomial(100, 0.05): more than 12 has odds of 0.2%.
for s in 3 5; do
    $GEN --format jsonl --stats --samples --seed $s --rows 100 --iterations 200 > "$D/s$s.jsonl"
    $GEN --format jsonl --stats --seed $s --rows 100 --iterations 200 > "$D/w$s.jsonl"
done
compare_run "$D/s3.jsonl" "$D/s5.jsonl"
n=$(significant_rows)
expect '[ "$RC" = 0 ] && [ "$n" -le 12 ]' "bootstrap, two seeds: $n of 100 rows significant (at most 12)"
compare_run "$D/w3.jsonl" "$D/w5.jsonl"
n=$(significant_rows)
expect '[ "$RC" = 0 ] && [ "$n" -le 12 ]' "Welch, two seeds: $n of 100 rows significant (at most 12)"
$GEN --format jsonl --stats --seed 5 --rows 100 --iterations 200 --scale 1.1 > "$D/w5-slow.jsonl"
compare_run "$D/w3.jsonl" "$D/w5-slow.jsonl"
expect_no_problems "Welch, two seeds, 10% slower: every row significant" \
    rows_problems 100 "significant: B worse" welch 1.07 1.13

# ---- the bootstrap's seed ----
compare_run "$D/s3.jsonl" "$D/s5.jsonl"
grep -v '^# date:' "$OUT" > "$D/seed1.a"
compare_run "$D/s3.jsonl" "$D/s5.jsonl" --seed 1
grep -v '^# date:' "$OUT" | sed 's/ --seed 1$//' > "$D/seed1.b"
expect 'cmp -s "$D/seed1.a" "$D/seed1.b"' "the same seed (1 is the default): the same output"
compare_run "$D/s3.jsonl" "$D/s5.jsonl" --seed 2
expect '[ "$RC" = 0 ] && cmp -s <(data_lines "$D/seed1.a" | cut -c 1-55) <(data_lines | cut -c 1-55) &&
        ! cmp -s <(data_lines "$D/seed1.a") <(data_lines)' \
    "another seed: the same medians and ratios, other p values"
expect 'grep -q "2000 resamples of each side from seed 2" "$OUT"' "the header names the resamples and the seed"

# ---- real runs ----
P="$BUILD/osu/osu_latency"
run 2 "$P" -m 1:64 -i 400 -x 20 --stats --samples --format=jsonl < /dev/null
cp "$OUT" "$D/real.jsonl"
# Every time half as long again: the main value, the spread and each
# sample. (10% was not always beyond the noise of 1-byte latencies on two
# busy cores: p = 0.25 at 2 bytes, rightly not significant.)
python3 - "$D/real.jsonl" > "$D/real-slow.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    o = json.loads(line)
    if o["type"] == "row":
        for k in ("latency_us", "median", "p5", "p95"):
            o[k] *= 1.5
        o["samples"] = [1.5 * x for x in o["samples"]]
    print(json.dumps(o))
PY
compare_run "$D/real.jsonl" "$D/real.jsonl"
expect_no_problems "a real JSON run against itself: not significant" \
    rows_problems 7 "not significant" bootstrap 1 1
compare_run "$D/real.jsonl" "$D/real-slow.jsonl"
expect_no_problems "a real JSON run against itself 50% slower: significant" \
    rows_problems 7 "significant: B worse" bootstrap 1.4999 1.5001
run 2 "$P" -m 1:64 -i 400 -x 20 --stats < /dev/null
cp "$OUT" "$D/real.txt"
# awk keeps OMB's layout: the size in 10 columns, each value in 18; the
# times (latency, median, P5, P95) 10% longer, the CV and the slowest
# rank's columns as they were.
awk '/^[0-9]/ { printf "%-10s", $1; for (i = 2; i <= 5; i++) printf "%18.2f", 1.1 * $i
               for (i = 6; i <= NF; i++) printf "%18s", $i; printf "\n"; next } { print }' \
    "$D/real.txt" > "$D/real-slow.txt"
compare_run "$D/real.txt" "$D/real.txt"
expect_no_problems "a real text run against itself: not significant (Welch)" \
    rows_problems 7 "not significant" welch 1 1
compare_run "$D/real.txt" "$D/real-slow.txt"
expect '[ "$RC" = 0 ] && [ "$(data_lines | awk "\$4 < 1.04 || \$4 > 1.16" | wc -l)" = 0 ] &&
        [ "$(data_lines | grep -c "B better")" = 0 ]' \
    "a real text run against itself 10% slower: B / A about 1.1, never better"

# ---- gnuplot reads the output; --png draws it ----
compare_run "$D/a.jsonl" "$D/a-slow.jsonl"
cp "$OUT" "$D/cmp.dat"
if command -v gnuplot > /dev/null; then
    records=$(gnuplot -e "stats '$D/cmp.dat' using 1:4 nooutput; print STATS_records" 2>&1)
    expect '[ "$records" = 8 ]' "gnuplot reads the 8 rows' size and ratio (got: $records)"
    compare_run "$D/a.jsonl" "$D/a-slow.jsonl" --png "$D/cmp.png"
    expect '[ "$RC" = 0 ] && [ "$(head -c 4 "$D/cmp.png" | od -An -c | tr -d " ")" = "211PNG" ] &&
            [ ! -s "$ERR" ]' "--png writes a PNG and says nothing"
    compare_run "$D/a.jsonl" "$D/a-slow.jsonl" --png "$D/no/such/folder/cmp.png"
    expect '[ "$RC" = 2 ] && [ "$(wc -l < "$ERR")" = 1 ] && [ ! -s "$OUT" ] &&
            grep -qxF "compare: cannot write $D/no/such/folder/cmp.png: No such file or directory (ENOENT)" "$ERR"' \
        "--png into a folder that is not there: refused before anything is printed, status 2, one line"
    run1 env PATH=/nonexistent "$C" "$D/a.jsonl" "$D/a-slow.jsonl" --png "$D/nognuplot.png" < /dev/null
    expect '[ "$RC" = 1 ] && [ "$(wc -l < "$ERR")" = 1 ] && grep -q "gnuplot is not installed" "$ERR" &&
            [ ! -e "$D/nognuplot.png" ] && [ -s "$OUT" ] && ! grep -qa PNG "$OUT"' \
        "--png without gnuplot: status 1, one line, no PNG, nothing of one in the text"
else
    skip "gnuplot reads the output; --png" "gnuplot is not installed"
fi

compare_run --help
expect '[ "$RC" = 0 ] && grep -q "^Usage: compare \[--png FILE\] \[--seed N\] A B" "$OUT"' "--help"
compare_run --version
expect '[ "$RC" = 0 ] && grep -q "^compare (commsweep) " "$OUT"' "--version"

# Rows of 150,000 iterations a side: a bootstrap of them took seconds a row
# (minutes for millions); Welch's t on their spread serves, and says so.
$GEN --format jsonl --stats --samples --rows 2 --iterations 150000 --seed 1 > "$D/long.jsonl"
compare_run "$D/long.jsonl" "$D/long.jsonl"
expect '[ "$RC" = 0 ] && [ "$(data_lines | awk "\$7 == \"welch\"" | wc -l)" = 2 ] && grep -q "200000 of them at most together" "$OUT"' \
    "300,000 values in a pair of rows: Welch's t instead of a bootstrap, and the header says the bound"

# ---- bad input: status 2, one line, nothing on stdout ----
$GEN --format jsonl --stats --program osu_bw > "$D/bw.jsonl"
head -c 500 "$D/a.jsonl" > "$D/cut.jsonl"
awk 'NR == 8 { $2 = "fast" } { print }' "$D/a.txt" > "$D/word.txt"
cat "$D/a.txt" "$D/a.txt" > "$D/twice.txt"
printf 'size latency\n1 2\n' > "$D/other.txt"
refused_compare "one file" "$D/a.jsonl"
refused_compare "three files" "$D/a.jsonl" "$D/a.jsonl" "$D/a.jsonl"
refused_compare "an unknown option" --colour "$D/a.jsonl" "$D/a.jsonl"
refused_compare "a seed that is no number" --seed=one "$D/a.jsonl" "$D/a.jsonl"
refused_compare "--stats (compare measures nothing)" --stats "$D/a.jsonl" "$D/a.jsonl"
refused_compare "a file that is not there" "$D/a.jsonl" "$D/none.jsonl"
refused_compare "an empty file" "$D/a.jsonl" /dev/null
refused_compare "a folder" "$D/a.jsonl" "$D"
refused_compare "runs of two programs" "$D/a.jsonl" "$D/bw.jsonl"
refused_compare "JSON cut in the middle of a line" "$D/cut.jsonl" "$D/a.jsonl"
refused_compare "text with a word for a number" "$D/a.txt" "$D/word.txt"
refused_compare "two runs in one file" "$D/twice.txt" "$D/a.txt"
refused_compare "text of no program of the suite" "$D/other.txt" "$D/a.txt"
# A measured value must be a finite number, not negative; a count of
# iterations a positive whole number. Each, on either side, names its line.
for v in -1.00 nan inf 1e999 "1 MB of 9s"; do
    if [ "$v" = "1 MB of 9s" ]; then head -c 1000000 /dev/zero | tr '\0' 9; else printf '%s' "$v"; fi > "$D/value"
    for col in 3 4 5; do # the median, P5 and P95 of the 4th row
        awk -v col="$col" 'NR == FNR { v = $0; next } FNR == 11 { $col = v } { print }' \
            "$D/value" "$D/a.txt" > "$D/bad.txt"
        refused_compare "text with ${v:0:8} in column $col" "$D/a.txt" "$D/bad.txt"
        expect 'grep -q ":11: " "$ERR"' "text with ${v:0:8} in column $col: the line is named"
    done
done
# JSON: the second row (line 3), through Python so that only that field changes.
bad_json() { # FIELD VALUE (JSON text; "sample" for the first sample)
    python3 - "$D/a.jsonl" "$1" "$2" > "$D/bad.jsonl" <<'PY'
import json, sys
path, field, value = sys.argv[1:]
for n, line in enumerate(open(path), 1):
    if n == 3:
        row = json.loads(line)
        if field == "sample":
            row["samples"][0] = "@"
        else:
            row[field] = "@"
        line = json.dumps(row).replace('"@"', value) + "\n"
    sys.stdout.write(line)
PY
}
for case in "sample -1" "sample 1e999" "sample null" "median -1" "median 1e999" "median null" \
    "p5 -1" "p95 null" "iterations -5" "iterations 1e29" "iterations 2.5"; do
    bad_json $case
    refused_compare "JSON Lines with $case" "$D/bad.jsonl" "$D/a.jsonl"
    expect 'grep -q ":3: " "$ERR"' "JSON Lines with $case: the line is named"
    refused_compare "JSON Lines with $case as B" "$D/a.jsonl" "$D/bad.jsonl"
done
