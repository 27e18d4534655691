#!/usr/bin/env bash
# The quick-start job compares its run with an earlier one when COMPARE_WITH
# names that run's folder: two short local jobs of osu_latency and
# osu_allreduce, the second with COMPARE_WITH=the first; it writes a table
# (tested: the local sweep has --stats) and a PNG per OSU program; a folder
# that is not there stops the job before it runs anything.
. "$(dirname "$0")/../lib.sh"
job() { # RESULTS [VAR=VALUE...]: the local job, small, into RESULTS
    local results=$1
    shift
    env BUILD="$BUILD" RESULTS="$results" SWEEP_FAMILIES=osu OSU_PAIR=osu_latency OSU_MULTI= \
        OSU_RMA= OSU_COLL=osu_allreduce OSU_SIZES=4:64 OSU_ITERS=100 OSU_WARMUP=10 NP=2 \
        "$@" "$TOP/machines/local/job.sh" > "$TMPD/job.out" 2> "$TMPD/job.err"
}

job "$TMPD/first" PLOTS=0
first=$?
plots=1
command -v gnuplot > /dev/null || plots=0
job "$TMPD/second" PLOTS=$plots COMPARE_WITH="$TMPD/first"
rc=$?
expect '[ "$first" = 0 ] && [ "$rc" = 0 ]' "two local jobs, the second compared with the first"
for p in osu_latency osu_allreduce; do
    f="$TMPD/second/compare/$p.dat"
    # 5 sizes, each with both medians and a test (Welch: --stats in text)
    expect '[ -s "$f" ] && [ "$(data_lines "$f" | grep -c " welch ")" = 5 ] &&
            grep -q "^# A: $TMPD/first/$p.local.N2.dat (text" "$f"' \
        "compare/$p.dat: every size tested, the earlier run as A"
    if [ "$plots" = 1 ]; then
        expect '[ -s "$TMPD/second/compare/$p.png" ]' "compare/$p.png"
    else
        skip "compare/$p.png" "gnuplot is not installed"
    fi
    expect 'grep -q "^commsweep: compare $p: 5 rows: " "$TMPD/job.err"' "the job says what $p's comparison found"
done
job "$TMPD/third" PLOTS=0 COMPARE_WITH="$TMPD/none"
rc=$?
expect '[ "$rc" = 2 ] && [ "$(cat "$TMPD/job.err")" = "commsweep: COMPARE_WITH=$TMPD/none is not a results folder" ] &&
        [ ! -e "$TMPD/third" ]' "COMPARE_WITH naming no folder: the job stops before it runs anything"
