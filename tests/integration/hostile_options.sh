#!/usr/bin/env bash
# Hostile input to the newer options: --groups, --np-ladder and
# --nodes-by-block (OSU collectives and pair programs), --timeout, --stats,
# --samples and --format (every family), --precision and --max-time (OSU
# point-to-point, collective and one-sided, and the network map), the
# network map's options and --topology files, tools/report's flags and
# input files, and the local job's COMPARE_WITH. Bad input of every kind
# (unknown, not a number, negative, zero, too large, empty, contradictions;
# a file that is empty, damaged, cut short, a FIFO no one writes, a link to
# nothing, a folder) must end with one clear line of the program's on
# stderr and status 2 (or the one the program documents) on every rank
# within 20 s: never a crash, a hang or MPI_Abort's backtrace. The MPI
# programs at 1, 3 and 5 ranks, each option family at each count (4 or 2
# where only an even count or a pair reaches the check).
. "$(dirname "$0")/../lib.sh"
# A blocked open() or a hang is cut here, and then fails the 20 s bound.
TEST_TIMEOUT=30
LIMIT=20
O="$BUILD/osu" N="$BUILD/netmap" REPORT="$TOP/tools/report"
# Runs that are wrongly accepted end soon: one size, few iterations.
OSU_SHORT=(-m 8:8 -i 2 -x 1)
NET_SHORT=(--nodes-by-block=1 --size=4096 --window=2 --iters=2 --lat-iters=5)

# Why the last run is not a refusal of NAME with STATUS whose line matches
# PATTERN (an extended regular expression); nothing when it is. The
# launcher's own lines do not count; a crash, an abort or a Python
# traceback anywhere in stderr does.
refusal_problems() { # NAME PATTERN [STATUS]
    local name=$1 pattern=$2 want=${3:-2} lines n
    lines=$(grep -a "^$name: " "$ERR")
    n=$(grep -ac "^$name: " "$ERR")
    [ "$RC" = "$want" ] || echo "status $RC (want $want)"
    [ "$n" = 1 ] || echo "$n lines from $name (want 1)"
    [ "${RUN_SECONDS:-0}" -le "$LIMIT" ] || echo "took ${RUN_SECONDS} s (at most $LIMIT)"
    [ "$n" = 0 ] || grep -qE -- "$pattern" <<< "$lines" || echo "the line does not say /$pattern/"
    # (a long option's number printed as a character is a byte that is no text)
    LC_ALL=C grep -aq '[^[:print:]]' <<< "$lines" && echo "the line holds bytes that are not text"
    grep -aqE 'MPI_ABORT|MPI_Abort|Segmentation|backtrace|core dumped|Traceback|AddressSanitizer' "$ERR" &&
        echo "a crash or an abort on stderr"
    return 0
}

# The arguments as a description: the test's folder left out.
label() { local a="$*"; echo "${a//$TMPD\//}"; }

verdict() { # DESCRIPTION PROBLEMS
    if [ -z "$2" ]; then ok "$1"; else not_ok "$1" "$2
$(grep -av -e '^-----' -e '^ *$' "$ERR" | head -c 1200)"; fi
}

# hostile NP PATTERN PROGRAM ARGS...: a refusal at NP ranks whose line says PATTERN.
hostile() {
    local np=$1 pattern=$2 prog=$3 s=s
    shift 3
    [ "$np" = 1 ] && s=
    case $prog in
    "$O"/*) run "$np" "$prog" "${OSU_SHORT[@]}" "$@" ;;
    "$N"/*) run "$np" "$prog" "${NET_SHORT[@]}" "$@" ;;
    *) run "$np" "$prog" "$@" ;;
    esac
    verdict "${prog##*/} $(label "$@") at $np rank$s: status 2, one line, within $LIMIT s" \
        "$(refusal_problems "${prog##*/}" "$pattern")"
}

# accepted NP PROGRAM ARGS...: a value that looks hostile but is documented
# (--timeout=0: no limit): status 0, nothing from the program on stderr.
accepted() {
    local np=$1 prog=$2 s=s why=
    shift 2
    [ "$np" = 1 ] && s=
    run "$np" "$prog" "${OSU_SHORT[@]}" "$@"
    [ "$RC" = 0 ] || why="status $RC (want 0)"
    ! grep -aq "^${prog##*/}: " "$ERR" || why="$why
a line from ${prog##*/}"
    [ "$RUN_SECONDS" -le "$LIMIT" ] || why="$why
took ${RUN_SECONDS} s"
    verdict "${prog##*/} $(label "$@") at $np rank$s: the documented default, status 0, within $LIMIT s" "$why"
}

# The same with SLURM_CONF set (--topology=slurm reads topology.conf beside it).
hostile_slurm() { # SLURM_CONF NP PATTERN PROGRAM ARGS...
    export SLURM_CONF=$1
    shift
    hostile "$@"
}

# The same under a bound on memory, so that an allocation past it fails
# here whatever the system's overcommit.
hostile_bounded() { # NP PATTERN PROGRAM ARGS...
    ulimit -v 8000000
    hostile "$@"
}

# Counts what a batch of in_parallel printed, so that summary counts it too.
batch_end() {
    in_parallel_end > "$TMPD/batch"
    cat "$TMPD/batch"
    TAP_PASSED=$((TAP_PASSED + $(grep -c '^ok - ' "$TMPD/batch")))
    TAP_FAILED=$((TAP_FAILED + $(grep -c '^not ok - ' "$TMPD/batch")))
}

# ---- Inputs: files of every bad kind ----
F="$TMPD/in"
mkdir -p "$F/folder" "$F/sc-missing" "$F/sc-fifo"
: > "$F/empty"
mkfifo "$F/fifo" "$F/sc-fifo/topology.conf"
ln -s "$F/nowhere" "$F/dangling"
printf '@0 swA g1 extra\n' > "$F/topo-4-fields"
printf '@0 swA g1\n@1\n' > "$F/topo-1-field"
printf 'SwitchName=s1 Nodes=@[0-\n' > "$F/topo-cut-hostlist"
printf 'SwitchName=s1 Nodes=@[5-2]\n' > "$F/topo-reversed-range"
printf 'SwitchName= Nodes=@[0-4]\n' > "$F/topo-no-switch-name"
# a NUL inside line 1: what follows it (and the lines after) must not be dropped unseen
printf '@0 swA g1\0@3 swB g2\n@1 swA g1\n@2 swB g2\n' > "$F/topo-nul"
# one endpoint on two switches
printf '@0 swA g1\n@1 swA g1\n@2 swB g1\n@0 swB g1\n' > "$F/topo-twice"

# ---- OSU collectives: --groups, --np-ladder, --nodes-by-block ----
in_parallel hostile 1 "group size '0'" "$O/osu_allreduce" --groups=0
in_parallel hostile 1 "asks for 2 groups; this job has 1 rank$" "$O/osu_allreduce" --groups=stride:2
in_parallel hostile 1 "groups of 2 ranks; this job has 1" "$O/osu_alltoall" --groups=2
in_parallel hostile 1 "option '--np-ladder' takes no value" "$O/osu_bcast" --np-ladder=3
in_parallel hostile 1 "--nodes-by-block.*empty" "$O/osu_ibcast" --groups=cross --nodes-by-block=
in_parallel hostile 1 "option '--groups' needs a value" "$O/osu_barrier" --groups
in_parallel hostile 3 "unknown group layout 'abc'" "$O/osu_allreduce" --groups=abc
in_parallel hostile 3 "--groups and --np-ladder do not go together" "$O/osu_bcast" --groups=node --np-ladder
in_parallel hostile 3 "--np-ladder does not take --samples" "$O/osu_allreduce" --np-ladder --samples --format=jsonl
in_parallel hostile 3 "asks for 4 groups; this job has 3" "$O/osu_alltoall" --groups=stride:4
in_parallel hostile 3 "--nodes-by-block applies to --groups=node" "$O/osu_barrier" --groups=3 --nodes-by-block=1
in_parallel hostile 3 "root" "$O/osu_reduce" --np-ladder -k 2
in_parallel hostile 5 "group size.*too large" "$O/osu_allreduce" --groups=99999999999999999999
in_parallel hostile 5 "--nodes-by-block '0'.*at least 1" "$O/osu_bcast" --groups=node --nodes-by-block=0
in_parallel hostile 5 "groups of 6 ranks; this job has 5" "$O/osu_allreduce" --groups=6
in_parallel hostile 5 "asks for 9 groups; this job has 5" "$O/osu_alltoall" --groups=stride:9
in_parallel hostile 5 "root" "$O/osu_bcast" --groups=2 -k 3
in_parallel hostile 5 "stride 'x'" "$O/osu_ibcast" --groups=stride:x
batch_end

# ---- OSU programs of pairs: --groups and --np-ladder where taken, refused
# where not, as in the other families (an odd count is refused before the
# groups are made: 4 ranks reach them) ----
in_parallel hostile 1 "unknown group layout 'abc'" "$O/osu_mbw_mr" --groups=abc
in_parallel hostile 1 "option '--np-ladder' takes no value" "$O/osu_multi_lat" --np-ladder=1
in_parallel hostile 1 "unknown option '--groups=2'" "$O/osu_bw" --groups=2
in_parallel hostile 1 "unknown option '--nodes-by-block=2'" "$O/osu_put_latency" --nodes-by-block=2
in_parallel hostile 3 "stride '0'.*at least 1" "$O/osu_mbw_mr" --groups=stride:0
in_parallel hostile 3 "--nodes-by-block 'x'.*not a number" "$O/osu_multi_lat" --groups=node --nodes-by-block=x
in_parallel hostile 3 "unknown option '--np-ladder'" "$O/osu_latency" --np-ladder
in_parallel hostile 5 "option '--np-ladder' takes no value" "$O/osu_mbw_mr" --np-ladder=yes
in_parallel hostile 5 "unknown option '--groups=node'" "$O/osu_bibw" --groups=node
in_parallel hostile 5 "group size '': empty" "$O/osu_multi_lat" --groups=
in_parallel hostile 4 "--groups and --np-ladder do not go together" "$O/osu_mbw_mr" --groups=2 --np-ladder
in_parallel hostile 4 "groups of 6 ranks; this job has 4" "$O/osu_multi_lat" --groups=6
in_parallel hostile 4 "asks for 8 groups; this job has 4" "$O/osu_mbw_mr" --groups=stride:8
in_parallel hostile 1 "unknown option '--groups=2'" "$BUILD/alltoall/all" --groups=2
in_parallel hostile 3 "unknown option '--np-ladder'" "$BUILD/always/all" --np-ladder
in_parallel hostile 5 "unknown option '--nodes-by-block=2'" "$BUILD/caf/cafbench" --nodes-by-block=2
batch_end

# ---- --timeout: every family ----
in_parallel hostile 1 "'-1' for --timeout|--timeout '-1'" "$O/osu_allreduce" --timeout=-1
in_parallel hostile 1 "--timeout.*too large" "$BUILD/alltoall/all" --timeout=86401
in_parallel hostile 1 "--timeout.*nan|nan.*--timeout" "$BUILD/caf/cafbench" --timeout=nan
in_parallel hostile 1 "option '--timeout' needs a value" "$O/osu_put_latency" --timeout
in_parallel hostile 3 "--timeout.*-0.5|-0.5.*--timeout" "$O/osu_bw" --timeout=-0.5
in_parallel hostile 3 "--timeout.*1e400|1e400.*--timeout" "$BUILD/always/all" --timeout=1e400
in_parallel hostile 3 "--timeout.*abc|abc.*--timeout" "$N/rings" --timeout=abc
in_parallel hostile 3 "--timeout.*empty|empty.*--timeout" "$O/osu_alltoall" --timeout=
in_parallel hostile 5 "--timeout.*inf|inf.*--timeout" "$O/osu_bcast" --timeout=inf
in_parallel hostile 5 "--timeout.*too large" "$BUILD/always/iall" --timeout=1e9
in_parallel hostile 5 "--timeout.*empty|empty.*--timeout" "$N/locate" --timeout=
in_parallel hostile 5 "--timeout.*abc|abc.*--timeout" "$O/osu_mbw_mr" --timeout=abc
in_parallel accepted 1 "$O/osu_allreduce" --timeout=0
in_parallel accepted 3 "$O/osu_alltoall" --timeout=0
in_parallel accepted 5 "$O/osu_bcast" --timeout=0
batch_end

# ---- --stats, --samples, --format ----
in_parallel hostile 1 "--samples.*--format=jsonl" "$O/osu_allreduce" --samples
in_parallel hostile 1 "option '--stats' takes no value" "$BUILD/alltoall/all" --stats=1
in_parallel hostile 1 "^iall: --stats: refused|--stats" "$BUILD/always/iall" --stats
in_parallel hostile 1 "--samples.*--format=jsonl" "$N/pairs" --samples
in_parallel hostile 3 "--samples.*--format=jsonl" "$O/osu_alltoall" --samples --format=text
in_parallel hostile 3 "option '--samples' takes no value" "$O/osu_bw" --samples=yes
in_parallel hostile 3 "--stats" "$N/bisection" --stats
in_parallel hostile 3 "option '--format' needs a value" "$O/osu_put_latency" --format
in_parallel hostile 5 "'bogus' for --format" "$O/osu_bcast" --format=bogus
in_parallel hostile 5 "'JSONL' for --format" "$BUILD/always/all" --format=JSONL
in_parallel hostile 5 "--samples" "$N/congestion" --samples --format=jsonl
in_parallel hostile 5 "--samples.*--format=jsonl" "$BUILD/caf/cafbench" --samples
# --stats keeps every iteration's time: a count beyond memory is refused
in_parallel hostile_bounded 3 "cannot allocate" "$O/osu_allreduce" --stats -i 100000000000
in_parallel hostile_bounded 2 "cannot allocate" "$O/osu_put_latency" --stats -i 100000000000
# The times of -i iterations that cannot be had: bad input, refused by all.
in_parallel hostile_bounded 2 "cannot allocate" "$O/osu_latency" --stats -i 100000000000
batch_end

# ---- --precision and --max-time ----
in_parallel hostile 1 "--precision '0'.*positive" "$O/osu_latency" --precision=0
in_parallel hostile 1 "--precision '101'.*too large" "$O/osu_bw" --precision=101
in_parallel hostile 1 "--max-time.*give --precision" "$O/osu_allreduce" --max-time=2
in_parallel hostile 1 "--precision '': empty" "$O/osu_put_latency" --precision=
in_parallel hostile 3 "--precision '-1'" "$O/osu_latency" --precision=-1
in_parallel hostile 3 "--max-time '0'.*positive" "$O/osu_allreduce" --precision=5 --max-time=0
in_parallel hostile 3 "--max-time '1e9'.*too large" "$O/osu_put_latency" --precision=5 --max-time=1e9
in_parallel hostile 3 "--precision 'nan'" "$O/osu_bw" --precision=nan
in_parallel hostile 5 "--precision 'abc'.*not a number" "$O/osu_allreduce" --precision=abc
in_parallel hostile 5 "--max-time.*give --precision" "$O/osu_put_latency" --max-time=5
in_parallel hostile 5 "--max-time '-1'" "$O/osu_bw" --precision=5 --max-time=-1
in_parallel hostile 5 "--precision 'inf'" "$O/osu_latency" --precision=inf
in_parallel hostile 1 "--precision '0'.*positive" "$N/pairs" --precision=0
in_parallel hostile 1 "--max-time '0'.*positive" "$N/rings" --precision=5 --max-time=0
in_parallel hostile 3 "--precision '-1'" "$N/rings" --precision=-1
in_parallel hostile 3 "--max-time '1e9'.*too large" "$N/bisection" --precision=5 --max-time=1e9
in_parallel hostile 5 "--max-time.*give --precision" "$N/pairs" --max-time=2
in_parallel hostile 5 "--precision 'nan'" "$N/locate" --precision=nan
batch_end

# ---- The network map's options (a bad value is refused before the job's
# size, so 1 rank reaches the check) ----
in_parallel hostile 1 "--size '0'" "$N/pairs" --size=0
in_parallel hostile 1 "--window '-3'" "$N/rings" --window=-3
in_parallel hostile 1 "--iters 'x'" "$N/bisection" --iters=x
in_parallel hostile 1 "'101' for --victims|--victims '101'" "$N/congestion" --victims=101
in_parallel hostile 1 "--partners '0'|'0' for --partners" "$N/locate" --partners=0
in_parallel hostile 1 "'bogus' for --mode" "$N/pairs" --mode=bogus
in_parallel hostile 3 "--size.*too large" "$N/pairs" --size=99999999999999999999999
in_parallel hostile 3 "--rings '-1'" "$N/rings" --rings=-1
in_parallel hostile 3 "--bisections '0'" "$N/bisection" --bisections=0
in_parallel hostile 3 "--ranks-per-node" "$N/pairs" --ranks-per-node=9
in_parallel hostile 3 "--confirm '0'|'0' for --confirm" "$N/locate" --confirm=0
in_parallel hostile 3 "'maybe' for --matrix" "$N/pairs" --matrix=maybe
in_parallel hostile 5 "--lat-size '-1'" "$N/pairs" --lat-size=-1
in_parallel hostile 5 "--seed 'abc'" "$N/rings" --seed=abc
in_parallel hostile 5 "'bogus' for --congestor" "$N/congestion" --congestor=bogus
in_parallel hostile 5 "--congestor-size" "$N/congestion" --congestor-size=1e30
in_parallel hostile 5 "--max-probes '-1'" "$N/locate" --max-probes=-1
in_parallel hostile 5 "ranks-per-node|nodes-by-block" "$N/pairs" --nodes-by-block=2 --ranks-per-node=3
batch_end

# ---- --topology files (pairs from 2 endpoints, locate from 4) ----
in_parallel hostile 1 "--topology" "$N/pairs" --topology=
in_parallel hostile 1 "option '--topology' needs a value" "$N/locate" --topology
in_parallel hostile 1 "unknown option '--topology" "$N/rings" --topology="$F/topo-4-fields"
in_parallel hostile 3 "missing: No such file" "$N/pairs" --topology="$F/missing"
in_parallel hostile 3 "fifo: a FIFO, not a regular file" "$N/pairs" --topology="$F/fifo"
in_parallel hostile 3 "folder: a folder, not a regular file" "$N/pairs" --topology="$F/folder"
in_parallel hostile 3 "line 1: .*expected HOST SWITCH" "$N/pairs" --topology="$F/topo-4-fields"
in_parallel hostile 3 "line 1: .*not a host list" "$N/pairs" --topology="$F/topo-cut-hostlist"
in_parallel hostile_slurm "$F/sc-fifo/slurm.conf" 3 "topology.conf: a FIFO, not a regular file" "$N/pairs" --topology=slurm
# An empty topology places no endpoint: refused, not a run without one.
in_parallel hostile 3 "in/empty: places none of the job.s 3 endpoints" "$N/pairs" --topology="$F/empty"
# An endpoint on two switches: refused, not placed on the last one.
in_parallel hostile 3 "topo-twice: line [0-9]*: .* is on switch .* and on " "$N/pairs" --topology="$F/topo-twice"
in_parallel hostile 5 "dangling: No such file" "$N/locate" --topology="$F/dangling"
in_parallel hostile 5 "line 2: .*expected HOST SWITCH" "$N/locate" --topology="$F/topo-1-field"
in_parallel hostile 5 "line 1: .*not a host list" "$N/pairs" --topology="$F/topo-reversed-range"
in_parallel hostile 5 "line 1: .*SwitchName" "$N/locate" --topology="$F/topo-no-switch-name"
in_parallel hostile_slurm "$F/sc-missing/slurm.conf" 5 "topology.conf: No such file" "$N/locate" --topology=slurm
# A NUL byte would end the file's text: refused.
in_parallel hostile 5 "topo-nul: a NUL byte at offset" "$N/pairs" --topology="$F/topo-nul"
# An empty topology places no endpoint: refused, not a run without one.
in_parallel hostile 5 "in/empty: places none of the job.s 5 endpoints" "$N/locate" --topology="$F/empty"
batch_end

# ---- tools/report: flags and input files ----
# tool_refused DESCRIPTION PATTERN COMMAND...: status 2, one line in all, within the limit.
tool_refused() {
    local desc=$1 pattern=$2 t0=$SECONDS
    shift 2
    timeout -k 5 "$TEST_TIMEOUT" "$@" > "$OUT" 2> "$ERR" < /dev/null
    RC=$? RUN_SECONDS=$((SECONDS - t0))
    local why
    why=$(refusal_problems report "$pattern")
    [ "$(wc -l < "$ERR")" -le 1 ] || why="$why
$(wc -l < "$ERR") lines on stderr (want 1)"
    verdict "$desc: status 2, one line, within $LIMIT s" "$why"
}
if command -v python3 > /dev/null; then
    R="$TMPD/results"
    mkdir -p "$R"
    {
        echo "# OSU MPI Latency Test v7.4 (commsweep 0.1.0)"
        printf '# %-10s%18s\n' Size "Avg Latency(us)"
        printf '%-10s%18s\n' 8 2.00
        echo "# command: build/osu/osu_latency (made up)"
        echo "# ranks: 2"
    } > "$R/osu_latency.t.dat"
    printf 'osu_latency 8 latency 2.3 +10%% \xe9t\xe9\n' > "$F/refs-latin1"
    # a results folder with one damaged file beside the good one
    results_with() { # NAME: a copy of $R, for a bad file of that name beside it
        rm -rf "$TMPD/r-$1"
        mkdir -p "$TMPD/r-$1"
        cp "$R/osu_latency.t.dat" "$TMPD/r-$1/"
        echo "$TMPD/r-$1/$1"
    }
    for bad in "empty $F/empty" "FIFO $F/fifo" "link-to-nothing $F/dangling" "folder $F/folder" \
        "non-UTF-8 $F/refs-latin1"; do
        read -r what path <<< "$bad"
        tool_refused "report --references=$what" "${path##*/}" "$REPORT" --references "$path" "$R"
    done
    tool_refused "report --references=''" "empty value for --references" "$REPORT" --references "" "$R"
    tool_refused "report --references without its value" "--references" "$REPORT" "$R" --references
    mkfifo "$(results_with osu_bw.t.dat)"
    tool_refused "report, a results .dat that is a FIFO" "a FIFO, not a regular file" "$REPORT" "$TMPD/r-osu_bw.t.dat"
    mkdir "$(results_with osu_bibw.t.dat)"
    tool_refused "report, a results .dat that is a folder" "a folder, not a regular file" "$REPORT" "$TMPD/r-osu_bibw.t.dat"
    ln -s "$F/nowhere" "$(results_with osu_mbw_mr.t.dat)"
    tool_refused "report, a results .dat linked to nothing" "No such file" "$REPORT" "$TMPD/r-osu_mbw_mr.t.dat"
    : > "$(results_with osu_bw.t.jsonl)"
    tool_refused "report, an empty .jsonl" "empty file" "$REPORT" "$TMPD/r-osu_bw.t.jsonl"
    echo '{"type":"header","program":5}' > "$(results_with osu_allreduce.t.jsonl)"
    tool_refused "report, a .jsonl header whose program is a number" "'program' is not text" \
        "$REPORT" "$TMPD/r-osu_allreduce.t.jsonl"
    echo '{"type":"header","program":"osu/osu_bcast","hosts":5}' > "$(results_with osu_bcast.t.jsonl)"
    tool_refused "report, a .jsonl header whose hosts are a number" "'hosts' is not a list" \
        "$REPORT" "$TMPD/r-osu_bcast.t.jsonl"
    printf '{"type":"header","program":"osu/osu_alltoall"}\n{"type":"row","size_bytes":1e999,"latency_us":1.5}\n' \
        > "$(results_with osu_alltoall.t.jsonl)"
    tool_refused "report, a .jsonl row of an endless size" "size_bytes Infinity is not a size" \
        "$REPORT" "$TMPD/r-osu_alltoall.t.jsonl"
    printf '{"type":"header","program":"osu/osu_barrier","mpi":"x"}\n' > "$(results_with osu_barrier.t.jsonl)"
    tool_refused "report, a .jsonl header whose mpi is text" "'mpi' is not an object" \
        "$REPORT" "$TMPD/r-osu_barrier.t.jsonl"
    tool_refused "report RESULTS_DIR a regular file" "not a folder" "$REPORT" "$F/empty"
    tool_refused "report RESULTS_DIR a FIFO" "not a folder" "$REPORT" "$F/fifo"
    tool_refused "report RESULTS_DIR a link to nothing" "a link to nothing" "$REPORT" "$F/dangling"
    tool_refused "report RESULTS_DIR an empty folder" "no results" "$REPORT" "$F/folder"
    tool_refused "report RESULTS_DIR ''" "empty value for RESULTS_DIR" "$REPORT" ""
    tool_refused "report without RESULTS_DIR" "required" "$REPORT"
    tool_refused "report --bogus" "unrecognized arguments: --bogus" "$REPORT" --bogus "$R"
    tool_refused "report --check=1" "--check" "$REPORT" --check=1 "$R"
    tool_refused "report -o ''" "empty value for --output" "$REPORT" -o "" "$R"
    tool_refused "report --compare-with ''" "empty value for --compare-with" "$REPORT" --compare-with "" "$R"
    tool_refused "report --compare ''" "empty value for --compare" "$REPORT" --compare "" "$R"
    mkfifo "$F/out-fifo"
    tool_refused "report -o a FIFO no process reads" "no process reads it" "$REPORT" -o "$F/out-fifo" "$R"
    tool_refused "report -o a folder" "it is a folder" "$REPORT" -o "$F/folder" "$R"
    tool_refused "report --compare a folder" "--compare .*folder: not an executable file" \
        "$REPORT" --compare-with "$R" --compare "$F/folder" "$R"
    tool_refused "report --compare a link to nothing" "--compare .*dangling: not an executable file" \
        "$REPORT" --compare-with "$R" --compare "$F/dangling" "$R"
    tool_refused "report --compare-with a regular file" "not a folder" "$REPORT" --compare-with "$F/empty" "$R"
    tool_refused "report --compare-with a link to nothing" "a link to nothing" "$REPORT" --compare-with "$F/dangling" "$R"
else
    skip "tools/report's hostile input" "python3 is not installed"
fi

# ---- COMPARE_WITH: the local job ----
# A folder that is not one, or holds no results, stops the job before it
# runs anything (status 2, its one line); an earlier file that is damaged,
# a FIFO or a link to nothing is compare's to refuse (its one line naming
# the file), and the job ends with status 1 (machines/sweep.sh).
job() { # NAME COMPARE_WITH: the local job, small, into $TMPD/job-NAME
    local t0=$SECONDS
    timeout -k 5 "$TEST_TIMEOUT" env BUILD="$BUILD" RESULTS="$TMPD/job-$1" SWEEP_FAMILIES=osu \
        OSU_PAIR=osu_latency OSU_MULTI= OSU_RMA= OSU_COLL= OSU_SIZES=4:16 OSU_ITERS=10 OSU_WARMUP=1 \
        NP=2 PLOTS=0 COMPARE_WITH="$2" "$TOP/machines/local/job.sh" > "$OUT" 2> "$ERR"
    RC=$? RUN_SECONDS=$((SECONDS - t0))
}
job_stopped() { # WHAT PATH
    local why
    job "$1" "$2"
    why=$(refusal_problems commsweep "COMPARE_WITH=$2 is not a results folder")
    [ "$(wc -l < "$ERR")" = 1 ] || why="$why
$(wc -l < "$ERR") lines on stderr (want 1)"
    [ ! -e "$TMPD/job-$1" ] || why="$why
the job ran (its results folder is there)"
    verdict "COMPARE_WITH=${1//-/ }: the job stops before it runs anything, status 2, one line" "$why"
}
job_compared() { # WHAT
    job "earlier-$1" "$TMPD/earlier-$1"
    verdict "COMPARE_WITH=a folder whose osu_latency file is a $1: status 1, compare's one line naming it, within $LIMIT s" \
        "$(refusal_problems compare "earlier-$1/osu_latency.local.N2.dat" 1)"
}
mkdir -p "$TMPD/earlier-cut" "$TMPD/earlier-FIFO" "$TMPD/earlier-link-to-nothing"
printf '# OSU MPI Latency Test v7.4 (commsweep 0.1.0)\n# Size       Avg Latency(us)\n4  1.0\n8  2.0 3.0\n16' \
    > "$TMPD/earlier-cut/osu_latency.local.N2.dat"
mkfifo "$TMPD/earlier-FIFO/osu_latency.local.N2.dat"
ln -s "$F/nowhere" "$TMPD/earlier-link-to-nothing/osu_latency.local.N2.dat"
in_parallel job_stopped a-regular-file "$F/empty"
in_parallel job_stopped a-FIFO "$F/fifo"
in_parallel job_stopped a-link-to-nothing "$F/dangling"
in_parallel job_stopped an-empty-folder "$F/folder"
for what in cut FIFO link-to-nothing; do in_parallel job_compared "$what"; done
batch_end
summary
