#!/usr/bin/env bash
# make check-scale: every program of the SMPI build (make SMPI=1) run by
# SimGrid's smpirun on simulated clusters of 256 to 1,024 nodes that
# tests/scale/platform.py writes, and checked: status 0 with nothing on
# stderr, the data checks (-c) passing where the program has them, the
# gnuplot blocks and rows the run must print, the JSON Lines valid by the
# schema, and, on platforms with a placed fault, the culprit named as the
# ground truth says; before them, the platforms' own test
# (platform_test.sh). Ends with "N passed, N failed".
#
# Every program built must have a line in tests/scale/runs.txt (a new one
# fails until it has). SCALE_JOBS simulations run at once (default: the
# cores); SCALE_ONLY=PATTERN runs the lines whose program matches;
# SCALE_TIMES=FILE appends each run's real seconds, heap peaks and command.
set -u
here=$(cd "$(dirname "$0")" && pwd)
BUILD=${BUILD:-build-smpi}
. "$here/../lib.sh"
PLATFORM="$here/platform.py"
RUNS="$here/runs.txt"
JOBS=${SCALE_JOBS:-$(nproc)}
SCALE_TIMEOUT=${SCALE_TIMEOUT:-600}

if ! grep -q 'SMPI=1' "$BUILD/.config" 2>/dev/null; then
    echo "check-scale: $BUILD is not an SMPI build (make SMPI=1 BUILD=$BUILD)" >&2
    exit 2
fi
command -v smpirun > /dev/null || { echo "check-scale: smpirun not found (Debian: libsimgrid-dev)" >&2; exit 2; }

PLAT="$TMPD/platforms"
mkdir -p "$PLAT" "$TMPD/runs"

# Platform NAME: what platform.py writes for it (the faults of netmap's
# lines are drawn from a seed, so the truth is known before the run).
make_platform() { # NAME
    local name=$1 args
    case $name in
        ft1024) args="preset fattree-1024" ;;
        ft1024-pair) args="preset fattree-1024 --far-pair" ;;
        ft1024-x4) args="preset fattree-1024 --use-nodes 256 --ranks-per-node 4" ;;
        ft256-x4) args="preset fattree-256 --use-nodes 64 --ranks-per-node 4" ;;
        df256) args="preset dragonfly-256" ;;
        ft256) args="preset fattree-256" ;;
        ft64) args="preset fattree-64" ;;
        ft256-slow) args="preset fattree-256 --seed 7 --random-faults node=1@0.25" ;;
        df256-slow) args="preset dragonfly-256 --seed 11 --random-faults node-send=1@0.1" ;;
        ft1024-faults) args="preset fattree-1024 --seed 3 --random-faults node=1,link=1" ;;
        *) echo "check-scale: no platform $name" >&2; return 1 ;;
    esac
    # shellcheck disable=SC2086
    "$PLATFORM" $args -o "$PLAT/$name" > "$PLAT/$name.log" 2>&1
}

# The lines of runs.txt without comments: PROGRAM PLATFORM RANKS EXPECT ARGS...
run_lines() { grep -vE '^[[:space:]]*(#|$)' "$RUNS"; }

# What a text run must show (EXPECT): B:R, B gnuplot blocks and R data
# rows (0:0 for the programs that write files or verdicts only); culprit,
# at least one row and the culprit lines naming the ground truth's nodes;
# located, netmap/locate's findings exactly the ground truth's faults
# (located.py);
# - only status, stderr and at least one row.
check_text() { # EXPECT OUT
    local expect=$1 out=$2 rows blocks
    rows=$(data_lines "$out" | wc -l | tr -d ' ')
    blocks=$(count_blocks "$out")
    if grep -qE '(^|[[:space:]])Fail([[:space:]]|$)' "$out"; then echo "a row says Fail"; fi
    case $expect in
        - | culprit | located) [ "$rows" -gt 0 ] || echo "no data row" ;;
        *:*)
            [ "$blocks" = "${expect%%:*}" ] || echo "$blocks blocks, not ${expect%%:*}"
            [ "$rows" = "${expect#*:}" ] || echo "$rows rows, not ${expect#*:}" ;;
    esac
}

# The nodes a placed fault slows, as the ground truth names them, against
# the nodes the map names as culprits in the direction the fault has.
check_culprits() { # PLATFORM_NAME OUT
    local truth="$PLAT/$1.truth.json" out=$2
    python3 - "$truth" "$out" << 'EOF'
import json, re, sys
truth = json.load(open(sys.argv[1]))
faults = truth["faults"] if isinstance(truth, dict) else truth
want = set()
for f in faults:
    for node in f["nodes"]:
        want.add((node, "sender"))
        if f["kind"] == "node":
            want.add((node, "receiver"))
named, links = set(), []
for line in open(sys.argv[2]):
    m = re.match(r"# culprit \(bandwidth, [a-z]+\): endpoint \d+ \((\S+)\) as (sender|receiver)", line)
    if m:
        named.add((m.group(1), m.group(2)))
    elif line.startswith("# culprit (bandwidth"):
        links.append(line.strip())
if named != want:
    print("named %s, the ground truth says %s" % (sorted(named), sorted(want)))
for l in links:
    print("a link named beside the node: " + l)
EOF
}

# One line of runs.txt, as text, JSON Lines or both; its TAP lines on stdout.
run_case() { # PROGRAM PLATFORM RANKS FORMATS EXPECT ARGS...
    local program=$1 plat=$2 np=$3 formats=$4 expect=$5
    shift 5
    local tag="${program//\//_}.$plat.$np.$RANDOM" desc="$program at $np ranks on $plat"
    local out="$TMPD/runs/$tag.out" err="$TMPD/runs/$tag.err" rc t0 took problems fmt
    local cfg
    read -r -a cfg <<< "$("$PLATFORM" cfg --line --ranks "$np")"
    for fmt in text jsonl; do
        case ",$formats," in *",$fmt,"*) ;; *) continue ;; esac
        local extra=()
        [ "$fmt" = jsonl ] && extra=(--format=jsonl)
        t0=$(date +%s.%N)
        COMMSWEEP_HEAP_REPORT=1 timeout -k 5 "$SCALE_TIMEOUT" smpirun -np "$np" \
            -platform "$PLAT/$plat.so" -hostfile "$PLAT/$plat.hosts" "${cfg[@]}" -quiet \
            "$BUILD/$program" "$@" "${extra[@]}" > "$out" 2> "$err" < /dev/null
        rc=$?
        took=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
        heap=$(sed -n 's/^heap peak: //p' "$err")
        sed -i '/^heap peak: /d' "$err"
        [ -n "${SCALE_TIMES:-}" ] && echo "$took s, heap $heap: $fmt $program $np ranks $plat $*" >> "$SCALE_TIMES"
        problems=""
        [ "$rc" = 0 ] || problems="status $rc"
        [ -s "$err" ] && problems="$problems${problems:+; }stderr: $(head -c 600 "$err")"
        if [ -z "$problems" ] && [ "$fmt" = text ]; then
            problems=$(check_text "$expect" "$out")
            [ "$expect" = culprit ] && problems="$problems$(check_culprits "$plat" "$out")"
            [ "$expect" = located ] && problems="$problems$(python3 "$here/located.py" "$PLAT/$plat" "$out")"
        fi
        if [ -z "$problems" ] && [ "$fmt" = jsonl ]; then
            problems=$(python3 "$TOP/tests/integration/jsonl_check.py" "$TOP/doc/jsonl.schema.json" \
                "$out" --program "$program" --status 0 2>&1)
        fi
        if [ -z "$problems" ]; then
            echo "ok - $desc ($fmt, ${took} s): $*"
        else
            echo "not ok - $desc ($fmt, ${took} s): $*"
            printf '%s\n' "$problems" | head -n 12 | sed 's/^/#   /'
        fi
    done
}

# Every program built has a line; every line's program is built.
missing=0
for p in $(built_programs alltoall always caf cpm netmap osu); do
    run_lines | awk '{print $1}' | grep -qx "$p" && continue
    echo "not ok - $p: no line in tests/scale/runs.txt"
    missing=$((missing + 1))
done

declare -A made
results="$TMPD/results"
: > "$results"
# The platforms themselves first: rates, latencies and faults where placed
# (platform_test.sh), its lines counted with the programs'.
BUILD_SMPI="$BUILD" bash "$here/platform_test.sh" > "$TMPD/platform_test.log" 2>&1
grep -E '^(ok|not ok|#)' "$TMPD/platform_test.log" | sed 's/^ok - /ok - platform: /; s/^not ok - /not ok - platform: /' >> "$results"
n=0
# The model builders first: the lines after them read their files.
ordered_lines() {
    run_lines | sed "s|@TMP@|$TMPD|g" | awk '$1 == "cpm/model"'
    echo "wait"
    run_lines | sed "s|@TMP@|$TMPD|g" | awk '$1 != "cpm/model"'
}
while read -r program plat np formats expect args; do
    if [ "$program" = wait ]; then
        wait
        continue
    fi
    if [ -n "${SCALE_ONLY:-}" ] && ! matches_any "$program" "$SCALE_ONLY"; then continue; fi
    if [ ! -x "$BUILD/$program" ]; then
        echo "not ok - $program: in runs.txt but not built in $BUILD" >> "$results"
        continue
    fi
    if [ -z "${made[$plat]:-}" ]; then
        make_platform "$plat" || { echo "not ok - platform $plat: $(tail -3 "$PLAT/$plat.log")" >> "$results"; made[$plat]=bad; continue; }
        made[$plat]=yes
    fi
    [ "${made[$plat]}" = yes ] || continue
    n=$((n + 1))
    args=${args//@PLAT@/$PLAT/$plat}
    # shellcheck disable=SC2086
    run_case "$program" "$plat" "$np" "$formats" "$expect" $args > "$TMPD/case.$n" 2>&1 < /dev/null &
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
done < <(ordered_lines)
wait
for ((i = 1; i <= n; i++)); do cat "$TMPD/case.$i" >> "$results"; done
cat "$results"
passed=$(grep -c '^ok ' "$results")
failed=$(( $(grep -c '^not ok ' "$results") + missing ))
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
