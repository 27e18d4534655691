#!/usr/bin/env bash
# tools/report: verdicts on made-up results (pass, fail, no reference) and
# --check's status; the bus bandwidth column worked out by hand at 2, 3, 4
# and 8 ranks; bad input (a missing folder, one without results, truncated
# files, a JSON Lines file cut mid-object, bad references lines): one line
# and status 2; and a real quick-start run's page opened by headless
# Chromium from a file: every image decoded, every table has rows, no
# console message, no address outside the page.
. "$(dirname "$0")/../lib.sh"
REPORT="$TOP/tools/report"
command -v python3 > /dev/null || { skip "tools/report" "python3 is not installed"; exit 0; }

# An OSU text file: NAME RANKS HEADING then "SIZE VALUE" pairs.
osu_file() { # FILE TITLE HEADING RANKS SIZE VALUE...
    local file=$1 title=$2 heading=$3 ranks=$4
    shift 4
    {
        echo "# $title v7.4 (commsweep 0.1.0)"
        echo "# Datatype: MPI_CHAR."
        printf '# %-10s%18s\n' Size "$heading"
        while [ $# -ge 2 ]; do printf '%-10s%18s\n' "$1" "$2"; shift 2; done
        echo "# command: build/osu/${file##*/} (made up)"
        echo "# ranks: $ranks"
    } > "$file"
}

# The verdict cell of a headline row (its first cell).
verdict_of() { # HTML FIGURE
    python3 - "$1" "$2" << 'PY'
import re, sys
page = open(sys.argv[1]).read()
for row in re.findall(r"<tr>(.*?)</tr>", page):
    cells = [re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]
    if cells and cells[0] == sys.argv[2]:
        print(cells[-1])
        break
PY
}

R="$TMPD/made-up"
mkdir -p "$R"
osu_file "$R/osu_latency.t.dat" "OSU MPI Latency Test" "Avg Latency(us)" 2 8 2.00 1048576 100.00
osu_file "$R/osu_bw.t.dat" "OSU MPI Bandwidth Test" "Bandwidth (MB/s)" 2 8 10.00 4194304 20000.00
osu_file "$R/osu_allreduce.t.dat" "OSU MPI Allreduce Latency Test" "Avg Latency(us)" 4 8 3.00 1048576 500.00
cat > "$TMPD/refs" << 'REFS'
# made up: latency passes, bandwidth fails, allreduce has no line
linerate link 25
osu_latency  8     latency    2.3     +10%
osu_bw       peak  bandwidth  24000   -10%
REFS
"$REPORT" --references "$TMPD/refs" "$R" > /dev/null 2> "$ERR"
RC=$?
page="$R/report.html"
expect "[ \"\$RC\" = 0 ] && [ \"\$(verdict_of '$page' 'latency 8 B')\" = pass ] && [ \"\$(verdict_of '$page' 'bandwidth peak')\" = fail ] && [ \"\$(verdict_of '$page' 'allreduce 8 B')\" = 'no reference' ]" \
    "made-up results: latency passes, bandwidth fails, allreduce has no reference"
expect "grep -q 'Verdict: FAIL: 1 passed, 1 failed' '$page' && grep -q '80.0%' '$page'" \
    "the page's verdict counts them; 20000 MB/s is 80.0% of a 25 GB/s link"
"$REPORT" --check --references "$TMPD/refs" "$R" > /dev/null 2>&1
expect "[ \$? = 1 ]" "--check with a failed check: status 1"
grep -v osu_bw "$TMPD/refs" > "$TMPD/refs-pass"
"$REPORT" --check --references "$TMPD/refs-pass" "$R" > /dev/null 2>&1
expect "[ \$? = 0 ]" "--check with every check passing: status 0"
"$REPORT" --check "$R" > /dev/null 2>&1
expect "[ \$? = 0 ]" "--check without references: status 0 (nothing failed)"
# A line that names a figure the headline lacks adds it; one the run did
# not measure fails.
printf 'osu_bw 8 bandwidth 9 -10%%\n' > "$TMPD/refs-size"
"$REPORT" --check --references "$TMPD/refs-size" "$R" > /dev/null 2>&1
expect "[ \$? = 0 ] && [ \"\$(verdict_of '$page' 'osu_bw bandwidth 8 B')\" = pass ]" \
    "a references line for osu_bw at 8 B adds that figure, and it passes"
printf 'osu_bibw peak bandwidth 9 -10%%\n' > "$TMPD/refs-absent"
"$REPORT" --check --references "$TMPD/refs-absent" "$R" > /dev/null 2>&1
expect "[ \$? = 1 ] && [ \"\$(verdict_of '$page' 'osu_bibw bandwidth peak')\" = fail ] && grep -q 'not measured' '$page'" \
    "a references line for a program that did not run: not measured, and --check fails"

# Bus bandwidth: 1,000,000 bytes in 1000 us is 1000 MB/s of algorithm
# bandwidth; allreduce's bus bandwidth is 2(n-1)/n of it, alltoall's
# (n-1)/n of n times it.
for n in 2 3 4 8; do
    B="$TMPD/busbw$n"
    mkdir -p "$B"
    osu_file "$B/osu_allreduce.t.dat" "OSU MPI Allreduce Latency Test" "Avg Latency(us)" "$n" 1000000 1000.00
    osu_file "$B/osu_alltoall.t.dat" "OSU MPI All-to-All Personalized Exchange Latency Test" "Avg Latency(us)" "$n" 1000000 1000.00
    "$REPORT" "$B" > /dev/null 2>&1
    want_ar=$(awk -v n="$n" 'BEGIN { printf "%.2f", 1000 * 2 * (n - 1) / n }')
    want_aa=$(awk -v n="$n" 'BEGIN { printf "%.2f", 1000 * n * (n - 1) / n }')
    got=$(grep -o '<td class="busbw">[0-9.]*</td>' "$B/report.html" | sed 's/<[^>]*>//g' | tr '\n' ' ')
    expect "[ '$got' = '$want_ar $want_aa ' ]" \
        "bus bandwidth at $n ranks: allreduce $want_ar MB/s, alltoall $want_aa MB/s (got: $got)"
done

# Bad input: one line from report, status 2.
report_refused() { # DESCRIPTION ARGS...
    local desc=$1 n
    shift
    "$REPORT" "$@" > "$OUT" 2> "$ERR"
    RC=$?
    n=$(grep -c '^report: ' "$ERR")
    if [ "$RC" = 2 ] && [ "$n" = 1 ] && [ "$(wc -l < "$ERR")" = 1 ]; then
        ok "$desc"
    else
        not_ok "$desc" "status $RC, $(wc -l < "$ERR") lines: $(head -c 400 "$ERR")"
    fi
}
report_refused "a missing folder" "$TMPD/nothing-here"
mkdir -p "$TMPD/empty"
report_refused "a folder without results" "$TMPD/empty"
mkdir -p "$TMPD/cut"
cp "$R/osu_latency.t.dat" "$TMPD/cut/"
printf '16    3.0' >> "$TMPD/cut/osu_latency.t.dat"
report_refused "a .dat cut inside its last line" "$TMPD/cut"
mkdir -p "$TMPD/short"
awk '{ print } /^1048576 / { print "2097152" }' "$R/osu_latency.t.dat" > "$TMPD/short/osu_latency.t.dat"
report_refused "a .dat whose last row lost fields" "$TMPD/short"
if [ -x "$BUILD/osu/osu_latency" ]; then
    mkdir -p "$TMPD/json"
    run 2 "$BUILD/osu/osu_latency" -m 8:64 -i 5 -x 1 --format=jsonl
    head -c -20 "$OUT" > "$TMPD/json/osu_latency.t.jsonl"
    echo >> "$TMPD/json/osu_latency.t.jsonl"
    report_refused "a JSON Lines file cut mid-object" "$TMPD/json"
fi
for bad in "osu_bw peak bandwidth 24000" "osu_bw peak speed 24000 -10%" "osu_bw peak bandwidth fast -10%" \
    "osu_bw peak bandwidth 24000 -10" "osu_bw 4x bandwidth 24000 -10%" "osu_bw peak bandwidth -5 -10%" \
    "linerate link" "linerate wire 25" "linerate link zero"; do
    printf '# fine\nosu_latency 8 latency 2 +10%%\n%s\n' "$bad" > "$TMPD/bad-refs"
    report_refused "references line '$bad'" --references "$TMPD/bad-refs" "$R"
    expect "grep -q 'bad-refs:3: ' '$ERR'" "  ... named with its line number"
done
report_refused "references that do not exist" --references "$TMPD/no-refs" "$R"
report_refused "an unknown option" --bogus "$R"

# A real quick-start run (a short one), its page written by the job itself,
# opened by a browser from the file.
Q="$TMPD/quick"
RESULTS="$Q" NP=4 SWEEP_FAMILIES="osu netmap" OSU_PAIR="osu_latency osu_bw osu_bibw" \
    OSU_MULTI="osu_mbw_mr" OSU_COLL="osu_allreduce osu_alltoall osu_barrier" \
    OSU_RMA="osu_put_latency osu_get_latency" OSU_ITERS=10 OSU_WARMUP=2 OSU_SIZES=0:65536 \
    NETMAP_FLAGS="--size 4096 --iters 2 --lat-iters 5" BUILD="$BUILD" \
    "$TOP/machines/local/job.sh" > "$TMPD/job.out" 2> "$TMPD/job.err"
RC=$?
expect "[ \"\$RC\" = 0 ] && [ -s '$Q/report.html' ] && grep -q '^commsweep: report: $Q/report.html' '$TMPD/job.err'" \
    "the local job ends by writing its page, and says where"
expect "grep -q 'osu_latency.*pass' '$Q/report.html' && grep -q '<h3 id=\"pairs\">' '$Q/report.html' && ! grep -qE '(src|href)=\"(https?:|//)' '$Q/report.html'" \
    "the page has the local references' verdicts, the network map, and no address outside itself"
# The run against itself: compare's verdict and plot for every OSU file.
if [ -x "$BUILD/tools/compare" ]; then
    BUILD="$BUILD" "$REPORT" --compare-with "$Q" -o "$TMPD/self.html" "$Q" > /dev/null 2> "$ERR"
    RC=$?
    nosu=$(ls "$Q"/osu_*.dat | wc -l)
    ncmp=$(grep -o '<h3>osu_[a-z_]*</h3><p class="none">' "$TMPD/self.html" | wc -l)
    expect "[ \"\$RC\" = 0 ] && grep -q 'Comparison with the earlier run' '$TMPD/self.html' && [ '$ncmp' = '$nosu' ]" \
        "--compare-with the run itself: compare's verdict for each of the $nosu OSU files ($ncmp)"
fi
if command -v chromium > /dev/null; then
    timeout -k 5 120 chromium --headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0 \
        --virtual-time-budget=5000 --dump-dom "file://$Q/report.html" > "$TMPD/dom" 2> "$TMPD/chrome.err"
    check=$(grep -o '<p id="selfcheck"[^>]*>' "$TMPD/dom")
    attr() { sed -n "s/.*data-$1=\"\\([0-9]*\\)\".*/\\1/p" <<< "$check"; }
    images=$(attr images) decoded=$(attr images-decoded) tables=$(attr tables) empty=$(attr tables-empty)
    expect "[ -n '$images' ] && [ '$images' -ge 8 ] && [ '$decoded' = '$images' ] && [ '$tables' -ge 10 ] && [ '$empty' = 0 ]" \
        "Chromium: $decoded of $images images decoded, $tables tables, $empty empty"
    expect "! grep -q ':CONSOLE' '$TMPD/chrome.err'" "Chromium: no console message"
else
    skip "Chromium opens the page" "chromium is not installed (apt-get install chromium)"
fi
