#!/usr/bin/env bash
# tools/report: verdicts on made-up results (pass, fail, no reference) and
# --check's status; the bus bandwidth column worked out by hand at 2, 3, 4
# and 8 ranks; a made-up file whose rows have '###' lines between them (one
# table per gnuplot block, headed by the file's own names); a headline of
# at most 12 rows however many references there are; bad input (a missing
# folder, one without results, truncated files, a JSON Lines file cut
# mid-object, bad references lines): one line and status 2; and a real
# short run's page (every family) opened by headless Chromium from a file
# and its DOM read by report_dom.py: named columns, the headline, the
# summary and contents, images that decode, the network map with units;
# --check's page check on stderr, and failing on a damaged image.
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

# One table per gnuplot block, named by the block's heading: '###' lines
# between the rows (each iteration's time) neither end a block nor hide
# its heading; two blank lines end it; a heading with a remark in brackets
# and names in brackets ('bandwidth[MB/s per endpoint]') still names it.
S="$TMPD/seedlike"
mkdir -p "$S"
{
    echo "# All to All: MPI_Alltoall over concurrent subcommunicators (commsweep 0.1.0)"
    echo "# command: build/alltoall/all contig 3 8 (made up)"
    echo "# ranks: 4"
    echo "# 1 concurrent communicator of 4 ranks (contiguous)"
    echo "#  comms    ranks   GiB_per_rank     time_min_s     time_avg_s     time_max_s      GiBps_min      GiBps_avg      GiBps_max"
    for i in warm-up 1 2 3; do echo "### count 8 iteration $i time 1.0e-05"; done
    echo "       1        4   4.768372e-07   1.0e-05   1.0e-05   1.0e-05   4.7e-02   4.7e-02   4.7e-02"
    for i in warm-up 1 2 3; do echo "### count 4 iteration $i time 1.0e-05"; done
    echo "       1        4   2.384186e-07   1.0e-05   1.0e-05   1.0e-05   2.3e-02   2.3e-02   2.3e-02"
    printf '\n\n'
    echo "# 2 concurrent communicators of 2 ranks (contiguous)"
    echo "#  comms    ranks   GiB_per_rank     time_min_s     time_avg_s     time_max_s      GiBps_min      GiBps_avg      GiBps_max"
    echo "### count 8 iteration 1 time 1.0e-05"
    echo "       2        2   4.768372e-07   1.0e-05   1.0e-05   1.0e-05   9.0e-02   9.0e-02   9.0e-02"
} > "$S/all-contig.t.dat"
{
    echo "# Network map: effective bisection bandwidth over random bisections (commsweep 0.1.0)"
    echo "# command: build/netmap/bisection (made up)"
    echo "# bisection pairs bandwidth[MB/s per endpoint] min median max total[MB/s]"
    echo "1 2 3089.241 2293.052 2834.716 4394.481 12356.966"
    echo "2 2 4967.874 3579.100 5095.351 6101.693 19871.495"
    printf '\n\n'
    echo "# test congestor impact_mean impact_tail (times: above 1 is worse)"
    echo "latency incast 1.942 3.499"
} > "$S/bisection.t.dat"
"$REPORT" "$S" > /dev/null 2> "$ERR"
RC=$?
same() { # DESCRIPTION: ok when $got is $want and report's status $RC was 0
    if [ "$RC" = 0 ] && [ "$got" = "$want" ]; then ok "$1"; else not_ok "$1" "status $RC, got:
$got
want:
$want"; fi
}
tables_of() { # HTML ID: the column names of each table of section ID, one table a line
    python3 - "$1" "$2" << 'PY'
import re, sys
page = open(sys.argv[1]).read()
m = re.search(r'<h4 id="%s">(.*?)(?=<h[234][ >]|</body>)' % re.escape(sys.argv[2]), page, re.S)
for t in re.findall(r"<table.*?</table>", m.group(1) if m else "", re.S):
    heads = [re.sub(r"<[^>]+>", "", h) for h in re.findall(r"<th[^>]*>(.*?)</th>", t)]
    body = re.search(r"<tbody>(.*)</tbody>", t, re.S)
    print(" ".join(heads) + " | rows " + str(len(re.findall(r"<tr>", body.group(1) if body else ""))))
PY
}
got=$(tables_of "$S/report.html" all-contig)
want="comms ranks GiB_per_rank time_min_s time_avg_s time_max_s GiBps_min GiBps_avg GiBps_max | rows 2
comms ranks GiB_per_rank time_min_s time_avg_s time_max_s GiBps_min GiBps_avg GiBps_max | rows 1"
same "'###' lines between rows: one table per gnuplot block (2), headed by the file's names"
got=$(tables_of "$S/report.html" bisection | cut -d'|' -f1)
want="bisection pairs bandwidth[MB/s per endpoint] min median max total[MB/s] 
test congestor impact_mean impact_tail "
same "headings with names in brackets and a remark in brackets name their columns"
expect "grep -q 'per-iteration lines (###)' '$S/report.html' && ! grep -q 'count 8 iteration' '$S/report.html'" \
    "the '###' lines stay in the file: the page counts them"

# The network map's verdict: pass when pairs named no node or link, fail
# (and --check fails) when it named one, whose line the page shows with
# the unit of each figure.
P="$TMPD/map"
mkdir -p "$P"
{
    echo "# Network map: bandwidth and latency of every pair of nodes (commsweep 0.1.0)"
    echo "# command: build/netmap/pairs (made up)"
    echo "# bandwidth, shifted mode, MB/s: row = from endpoint, column = to endpoint (0-based), nan = not measured (gnuplot: matrix)"
    echo "nan 100.000 5000.000"
    echo "5000.000 nan 5000.000"
    echo "5000.000 5000.000 nan"
    printf '\n\n'
} > "$P/pairs.t.dat"
cp "$P/pairs.t.dat" "$TMPD/pairs.clean"
echo "# culprits (bandwidth, shifted): none: no endpoint or link is more than 3 MADs and 10% below the median" >> "$P/pairs.t.dat"
"$REPORT" --check "$P" > /dev/null 2> "$ERR"
RC=$?
got=$(tables_of "$P/report.html" pairs | cut -d'|' -f1)
expect "[ \"\$RC\" = 0 ] && [ \"\$(verdict_of '$P/report.html' 'network map')\" = pass ] && [ \"\$got\" = 'from \\ to 0 1 2 ' ]" \
    "a network map without culprits: its verdict passes; a matrix's columns are its endpoints ($got)"
cp "$TMPD/pairs.clean" "$P/pairs.t.dat"
echo "# culprit (bandwidth, shifted): link 0 -> 1 (a -> b): 100.000 MB/s, 98.0% below the median of the pairs between endpoints not named (5000.000 MB/s, MAD 0.000)" >> "$P/pairs.t.dat"
"$REPORT" --check "$P" > /dev/null 2> "$ERR"
RC=$?
expect "[ \"\$RC\" = 1 ] && [ \"\$(verdict_of '$P/report.html' 'network map')\" = fail ] && grep -q '1 culprit named' '$P/report.html' && grep -q '(5000.000 MB/s, MAD 0.000 MB/s)' '$P/report.html'" \
    "a network map that names a culprit: its verdict fails, --check fails, its line with units"

# However many figures the references name, the headline holds 12; the
# rest follow it, and a failure among them still fails --check.
# (4 figures of their own, 11 that the references add: the last one fails)
cat > "$TMPD/refs-many" << 'REFS'
osu_latency    1048576  latency    100   +10%
osu_latency    peak     latency    100   +10%
osu_latency    -        latency    2     10%
osu_bw         8        bandwidth  10    -10%
osu_bw         4194304  bandwidth  20000 -10%
osu_bw         -        bandwidth  10    10%
osu_allreduce  1048576  latency    500   +10%
osu_allreduce  peak     latency    500   +10%
osu_allreduce  8        busbw      4     10%
osu_allreduce  peak     busbw      3146  10%
osu_allreduce  -        latency    1     +10%
REFS
sed '$ s/ 1 / 3 /' "$TMPD/refs-many" > "$TMPD/refs-many-pass"
"$REPORT" --check --references "$TMPD/refs-many-pass" "$R" > /dev/null 2>&1
expect "[ \$? = 0 ]" "15 figures, all passing: --check status 0"
"$REPORT" --check --references "$TMPD/refs-many" "$R" > /dev/null 2>&1
RC=$?
rows=$(python3 - "$R/report.html" << 'PY'
import re, sys
page = open(sys.argv[1]).read()
for sid in ("headline", "more-checks"):
    m = re.search(r'id="%s">.*?<tbody>(.*?)</tbody>' % sid, page, re.S)
    print(len(re.findall(r"<tr>", m.group(1))) if m else 0, end=" ")
PY
)
expect "[ \"\$RC\" = 1 ] && [ '$rows' = '12 3 ' ] && [ \"\$(verdict_of '$R/report.html' 'osu_allreduce latency')\" = fail ]" \
    "15 figures: 12 in the headline, 3 after it, where a failing one fails --check (rows: $rows)"

# A real short run of every family, its page written by the job itself,
# opened by a browser from the file.
Q="$TMPD/quick"
RESULTS="$Q" NP=4 SWEEP_FAMILIES="alltoall always osu netmap" ALLTOALL_ITERS=2 ALLTOALL_COUNTHI=256 \
    ALWAYS_SIZE=16384 ALWAYS_TIME_LIMIT=0.05 OSU_PAIR="osu_latency osu_bw osu_bibw" \
    OSU_MULTI="osu_mbw_mr" OSU_COLL="osu_allreduce osu_alltoall osu_barrier" \
    OSU_RMA="osu_put_latency osu_get_latency" OSU_ITERS=10 OSU_WARMUP=2 OSU_SIZES=0:65536 \
    NETMAP_FLAGS="--size 4096 --iters 2 --lat-iters 5" BUILD="$BUILD" \
    "$TOP/machines/local/job.sh" > "$TMPD/job.out" 2> "$TMPD/job.err"
RC=$?
expect "[ \"\$RC\" = 0 ] && [ -s '$Q/report.html' ] && grep -q '^commsweep: report: $Q/report.html' '$TMPD/job.err'" \
    "the local job ends by writing its page, and says where"
expect "grep -q 'osu_latency.*pass' '$Q/report.html' && grep -q '<h4 id=\"pairs\">' '$Q/report.html' && ! grep -qE '(src|href)=\"(https?:|//)' '$Q/report.html'" \
    "the page has the local references' verdicts, the network map, and no address outside itself"
# --check looks at the page as a browser would and says so on stderr only
# (its status is 1 also when this short run's network map named a culprit:
# the page's verdict says which).
BUILD="$BUILD" "$REPORT" --check -o "$TMPD/checked.html" "$Q" > /dev/null 2> "$ERR"
RC=$?
want=0
grep -q 'Verdict: FAIL' "$TMPD/checked.html" && want=1
expect "[ \"\$RC\" = $want ] && [ \$(grep -c 'page check' '$ERR') = 1 ] && grep -qE '^report: page check: ([0-9]+) of \\1 images decoded, ([0-9]+) of \\2 tables with rows' '$ERR' && ! grep -qi 'page check' '$TMPD/checked.html'" \
    "--check: the page check on stderr ($(grep -o '[0-9]* of [0-9]* images' "$ERR")), none on the page"
mkdir -p "$TMPD/damaged"
cp "$Q"/osu_latency.* "$TMPD/damaged/"
png=$(ls "$TMPD"/damaged/*.png 2> /dev/null | head -n 1)
if [ -n "$png" ]; then
    head -c 2000 "$png" > "$png.cut" && mv "$png.cut" "$png"
    "$REPORT" --check "$TMPD/damaged" > /dev/null 2> "$ERR"
    RC=$?
    expect "[ \"\$RC\" = 1 ] && grep -q '^report: page check: image 1: ' '$ERR'" \
        "--check with a plot cut short: status 1, the image named on stderr"
else
    skip "--check with a damaged plot" "no plot (gnuplot is not installed)"
fi
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
    # A probe of the test's own marks each image the browser decoded.
    sed 's#</body>#<script id="test-probe">window.addEventListener("load", function () { for (const i of document.images) i.setAttribute("data-decoded", i.complete \&\& i.naturalWidth > 0 ? "1" : "0"); });</script></body>#' \
        "$Q/report.html" > "$TMPD/probe.html"
    timeout -k 5 120 chromium --headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0 \
        --virtual-time-budget=5000 --dump-dom "file://$TMPD/probe.html" > "$TMPD/dom" 2> "$TMPD/chrome.err"
    images=8
    ls "$Q"/*.png > /dev/null 2>&1 || images=0
    blocks=$(grep -c '^#  comms ' "$Q"/all-contig.*.dat)
    python3 "$TOP/tests/integration/report_dom.py" "$TMPD/dom" --min-images "$images" \
        --columns all-contig=comms,ranks,GiB_per_rank,time_avg_s,GiBps_avg \
        --columns always-all-strided=tasks,calls,count,MiB_per_call,GiBps_task \
        --columns rings=ring,kind,'latency[us]','bandwidth[MB/s]' \
        --tables all-contig="$blocks"
    expect "! grep -q ':CONSOLE' '$TMPD/chrome.err'" "Chromium: no console message"
else
    skip "Chromium opens the page" "chromium is not installed (apt-get install chromium)"
fi
