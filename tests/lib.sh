# Shared helpers for integration tests (sourced by tests/integration/*.sh).
# Tests print TAP lines: "ok - what" / "not ok - what"; tests/run.sh counts them.
#
#   run NP PROGRAM ARGS...   runs under the MPI launcher with a timeout;
#                            sets $RC and fills $OUT and $ERR (file names);
#                            with TEST_PROFILE=FILE it appends there the
#                            run's seconds, ranks and command line
#   test_short               true in the MPICH run (COMMSWEEP_TEST_SHORT=1),
#                            where the longest tests run a part
#   in_parallel FUNCTION ARGS... / in_parallel_end
#                            a loop's runs $TEST_JOBS at a time, lines in order
#   ok DESCRIPTION / not_ok DESCRIPTION DETAIL
#   expect COND_COMMAND DESCRIPTION  (ok when the command succeeds)
#   expect_usage_error DESCRIPTION   after run: status 2, one line on stderr
#                                    from the program, nothing else from it
#   skip DESCRIPTION REASON
#   summary [NOTE]   "N passed, N failed[, N skipped][ (NOTE)]" from what
#                    ok/not_ok/skip counted in this shell (not in subshells);
#                    fails when anything failed. For scripts that are their
#                    own runner (tests/cluster, slurm, mpich); tests/run.sh
#                    counts the TAP lines of each script's log instead.
#   median [VALUE...]  the median of the values (or of stdin, one a line)
#   doubling_sizes MIN MAX [MULTIPLE]   the sizes of an OSU -m MIN:MAX sweep
#   cuda_build, gpu_usable   whether $BUILD has CUDA=1; and a GPU too
#   expect_no_problems DESCRIPTION FUNCTION ARGS...  ok when it prints nothing
set -u
BUILD=${BUILD:-build}
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
case "$BUILD" in /*) ;; *) BUILD="$TOP/$BUILD" ;; esac
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/commsweep-test.XXXXXX")
trap 'rm -rf "$TMPD"' EXIT
OUT="$TMPD/out" ERR="$TMPD/err" RC=0
TEST_TIMEOUT=${TEST_TIMEOUT:-180}
# The OSU tests were written against the seed's defaults (float reductions,
# created windows, the run description before the table): they run under
# them unless a test says otherwise. The tests of OMB 7.4's defaults (the
# programs' own) unset it: osu_omb74_*.sh, osu_defaults.sh, frameworks.
export COMMSWEEP_DEFAULTS=${COMMSWEEP_DEFAULTS-seed}
# COMMSWEEP_TEST_SHORT=1: the MPICH run (tests/mpich/check.sh). Its ranks
# poll without yielding, so that an 8-rank collective on 2 cores takes
# ~0.1 s instead of ~0.1 ms: the longest tests run a part there (fewer rank
# counts or partitions), and run whole under Open MPI.
test_short() { [ "${COMMSWEEP_TEST_SHORT:-0}" = 1 ]; }

# Open MPI's launcher waits odls_base_sigkill_timeout (1 s) after a rank
# ends with a non-zero status before it kills the rest: a second per run of
# bad input, of which the tests have hundreds. The ranks here end together,
# so nothing is left to wait for. (MPICH ignores the variable.)
export OMPI_MCA_odls_base_sigkill_timeout=${OMPI_MCA_odls_base_sigkill_timeout:-0}

# The launcher: MPIEXEC/MPIEXEC_FLAGS win; otherwise the one that matches
# MPICC, with the flags Open MPI needs here (machines/launcher.sh).
. "$TOP/machines/launcher.sh"
launcher_defaults mpiexec

run() {
    local np=$1 t0=$SECONDS; shift
    timeout -k 5 "$TEST_TIMEOUT" $MPIEXEC $MPIEXEC_FLAGS -n "$np" "$@" > "$OUT" 2> "$ERR"
    RC=$? RUN_SECONDS=$((SECONDS - t0))
    [ -n "${TEST_PROFILE:-}" ] && echo "$RUN_SECONDS $np $*" >> "$TEST_PROFILE"
    return 0
}

# Loops of many short runs, whose time is mostly MPI start-up spent
# waiting: in_parallel FUNCTION ARGS runs the function in the background,
# at most $TEST_JOBS (6) at once, with $OUT and $ERR of its own; its lines
# are printed, in the order of the calls, by in_parallel_end, which waits
# for them all. (ok and not_ok count in the background shells: for the
# scripts whose TAP lines tests/run.sh counts, not for summary.)
IN_PARALLEL=0
# Each job has Open MPI session folders of its own: jobs that start and end
# side by side race on a shared one (one ending removes it as another
# creates it: "mkdir /tmp/ompi.HOST.UID: File exists", orte_init failed).
in_parallel() { # FUNCTION ARGS...
    local n=$((IN_PARALLEL += 1))
    (
        OMPI_MCA_orte_tmpdir_base=$(mktemp -d "${TMPDIR:-/tmp}/cs-ompi.XXXXXX") || exit 1
        export OMPI_MCA_orte_tmpdir_base
        OUT="$TMPD/par.$n.out" ERR="$TMPD/par.$n.err" "$@"
        rm -rf "$OMPI_MCA_orte_tmpdir_base"
    ) > "$TMPD/par.$n" 2>&1 < /dev/null &
    while [ "$(jobs -rp | wc -l)" -ge "${TEST_JOBS:-6}" ]; do wait -n; done
}
in_parallel_end() {
    local i
    wait
    for ((i = 1; i <= IN_PARALLEL; i++)); do
        cat "$TMPD/par.$i"
        rm -f "$TMPD/par.$i" "$TMPD/par.$i".*
    done
    IN_PARALLEL=0
}

# Runs a program without a launcher (singleton MPI), same conventions as run.
run1() {
    timeout -k 5 "$TEST_TIMEOUT" "$@" > "$OUT" 2> "$ERR"
    RC=$?
    return 0
}

TAP_PASSED=0 TAP_FAILED=0 TAP_SKIPPED=0
# Lines of a failure's detail that not_ok prints.
TAP_DETAIL_LINES=${TAP_DETAIL_LINES:-20}
ok() { TAP_PASSED=$((TAP_PASSED + 1)); echo "ok - $1"; }
not_ok() {
    TAP_FAILED=$((TAP_FAILED + 1))
    echo "not ok - $1"
    [ $# -gt 1 ] && printf '%s\n' "$2" | sed 's/^/#   /' | head -n "$TAP_DETAIL_LINES"
    return 0
}
skip() { TAP_SKIPPED=$((TAP_SKIPPED + 1)); echo "ok - $1 # SKIP $2"; }
summary() { # [NOTE]
    local line="$TAP_PASSED passed, $TAP_FAILED failed"
    [ "$TAP_SKIPPED" -gt 0 ] && line="$line, $TAP_SKIPPED skipped"
    [ $# -gt 0 ] && line="$line ($1)"
    echo "$line"
    [ "$TAP_FAILED" -eq 0 ]
}

# ok when FUNCTION ARGS prints nothing; not ok with what it printed.
expect_no_problems() { # DESCRIPTION FUNCTION ARGS...
    local desc=$1 why
    shift
    why=$("$@")
    if [ -z "$why" ]; then ok "$desc"; else not_ok "$desc" "$why"; fi
}

# Whether $BUILD was built with CUDA=1, and whether its device paths can run
# here (a CUDA build and a GPU): tests expect device runs to work then and to
# be refused (status 2) otherwise.
cuda_build() { grep -q 'CUDA=1' "$BUILD/.config" 2>/dev/null; }
gpu_usable() { cuda_build && command -v nvidia-smi > /dev/null && nvidia-smi -L > /dev/null 2>&1; }

# MIN, then doubling (0 is followed by 1) up to MAX, keeping only multiples
# of MULTIPLE (default 1), space separated: the sizes an OSU sweep prints.
doubling_sizes() { # MIN MAX [MULTIPLE]
    awk -v lo="$1" -v hi="$2" -v r="${3:-1}" '
        BEGIN { for (s = lo; s <= hi; s = s ? s * 2 : 1) if (s % r == 0) out = out (out == "" ? "" : " ") s
                print out }'
}

median() { # [VALUE...]; nothing for no values
    if [ $# -gt 0 ]; then printf '%s\n' "$@"; else cat; fi | sort -g |
        awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

expect() { # COMMAND_STRING DESCRIPTION
    if eval "$1"; then ok "$2"; else not_ok "$2" "failed: $1 (status $RC)
$(head -c 2000 "$ERR")"; fi
}

# expect_success DESCRIPTION CHECK ARGS...: ok when the last run ended with
# status 0 and CHECK ARGS succeeds; otherwise what CHECK printed and stderr.
expect_success() {
    local desc=$1 msg
    shift
    if [ "$RC" = 0 ] && msg=$("$@"); then
        ok "$desc"
    else
        not_ok "$desc" "status $RC; ${msg:-}
$(head -c 1500 "$ERR")"
    fi
}

# Lines of stderr that the program wrote (prefixed "NAME: "), launcher chatter aside.
program_lines() { grep -c "^$1: " "$ERR" | tr -d ' '; }

expect_usage_error() { # DESCRIPTION PROGRAM_BASENAME
    local n
    n=$(program_lines "$2")
    if [ "$RC" = 2 ] && [ "$n" = 1 ]; then
        ok "$1"
    else
        not_ok "$1" "status $RC (want 2), $n message lines from $2 (want 1)
$(head -c 1500 "$ERR")"
    fi
}

# After a run with COMMSWEEP_STALL_RANK=R and --timeout: status 3 within
# the limit and a few seconds, a line of PROGRAM naming rank R as not having
# reached the call, and none naming a rank that finished its call (TEXT: a
# part the lines must hold, such as the step). Every rank ends with 3, but
# MPICH's launcher (Hydra) kills the ranks still running when the first
# ends and may report that signal, 9, as the job's status, or under load
# its own 1 (seen once in CI, with every rank's line written); the lines
# tell such an end from a failed data check.
expect_stalled() { # DESCRIPTION PROGRAM RANK SECONDS_AT_MOST [TEXT]
    local took=$RUN_SECONDS status_ok=0
    [ "$RC" = 3 ] && status_ok=1
    case $RC in 1 | 9) case $MPIEXEC in *mpich* | *hydra*) status_ok=1 ;; esac ;; esac
    if [ "$status_ok" = 1 ] && [ "$took" -le "$4" ] &&
        grep -q "^$2: .*${5:-}.* took longer than --timeout=.*: rank $3 (host .*) has not reached " "$ERR" &&
        ! grep -q "^$2: .*: rank [1-9][0-9]* (host .*) waits for" "$ERR"; then
        ok "$1"
    else
        not_ok "$1" "status $RC after ${took}s (want 3 within $4 s)
$(head -c 1500 "$ERR")"
    fi
}

# Data lines (not comments, not blank) of $OUT, or of a file.
data_lines() { grep -vE '^(#|[[:space:]]*$)' "${1:-$OUT}"; }
# Blocks: groups of data lines separated by blank lines.
# Data lines of gnuplot block B (1-based) of $OUT: blocks are runs of data
# lines between blank lines, comment lines skipped.
data_block() { # B
    awk -v want="$1" '/^[[:space:]]*$/ { inb = 0; next } /^#/ { next }
        { if (!inb) { b++; inb = 1 } } b == want' "$OUT"
}
count_blocks() { awk 'BEGIN{b=0;inb=0} /^[[:space:]]*$/{inb=0;next} /^#/{next} {if(!inb){b++;inb=1}} END{print b}' "${1:-$OUT}"; }

# refused NP NAME DESCRIPTION PROGRAM ARGS...: runs PROGRAM (NP 0: without a
# launcher) and expects status 2 with one line from NAME.
refused() {
    local np=$1 name=$2 desc=$3
    shift 3
    if [ "$np" = 0 ]; then run1 "$@"; else run "$np" "$@"; fi
    expect_usage_error "$desc" "$name"
}

# --- The OSU output format (osu/ programs), OMB 7.4's ---
# Width of the column named $1: 12 for "Iterations", 18 for the others.
osu_column_width() { if [ "$1" = Iterations ]; then echo 12; else echo 18; fi; }
# The columns line for COLUMN...: "# Size" in 10 characters, each column right
# in its width.
osu_columns_line() {
    printf '%-10s' '# Size'
    local c
    for c in "$@"; do printf '%*s' "$(osu_column_width "$c")" "$c"; done
    printf '\n'
}

# Why the table in $OUT is not SIZES by COLUMN... in OSU's format; empty when
# it is. Every data line: the size, then one field per column, each exactly
# its width: numbers with 2 decimals or plain counts, or "Pass". With
# POSITIVE 1, every column has a figure above zero: a single 0.00 is a rate
# below the two decimals' reach (1 byte on a busy machine), not a fault.
osu_table_problems() { # POSITIVE "SIZES" COLUMN...
    local positive=$1 sizes=$2 got width=10 c free="" i=1
    shift 2
    for c in "$@"; do
        i=$((i + 1))
        width=$((width + $(osu_column_width "$c")))
        # --stats' slowest rank (0 or more), how far above the median rank
        # (0 where one rank is timed) and its host name (text)
        case $c in SlowestRank | "AboveMedian(%)" | SlowestHost) free="$free $i " ;; esac
    done
    grep -qxF "$(osu_columns_line "$@")" "$OUT" || echo "no columns line '$(osu_columns_line "$@")'"
    got=$(data_lines | awk '{ printf "%s%s", sep, $1; sep = " " }')
    [ "$got" = "$sizes" ] || echo "sizes '$got', want '$sizes'"
    data_lines | awk -v n=$# -v positive="$positive" -v width=$width -v free="$free" '
        length($0) != width { print "line not " width " characters: " $0; exit }
        NF != n + 1 { print "not " n + 1 " fields: " $0; exit }
        { for (i = 2; i <= NF; i++) {
              if (index(free, " " i " ") == 0 && !($i == "Pass" || $i ~ /^[0-9]+(\.[0-9][0-9])?$/)) {
                  print "bad value " $i ": " $0; exit }
              if ($i != "Pass") { numeric[i] = 1; if ($i + 0 > 0) above[i] = 1 } } }
        END { for (i in numeric)
                  if (positive && index(free, " " i " ") == 0 && !above[i]) { print "column " i " is 0 in every row"; exit } }'
}

# Whether NAME matches one of the |-separated shell patterns (a | that
# comes from a variable is no alternation for case).
matches_any() { # NAME PATTERNS
    local p pats
    IFS='|' read -r -a pats <<< "$2"
    for p in "${pats[@]}"; do
        # shellcheck disable=SC2254 # each is a pattern
        case "$1" in $p) return 0 ;; esac
    done
    return 1
}

# The programs built in $BUILD, family/name, of the families named.
built_programs() { # FAMILY...
    local dir f
    for dir in "$@"; do
        for f in "$BUILD/$dir"/*; do
            [ -f "$f" ] && [ -x "$f" ] || continue
            case $f in *.so | *.a) continue ;; esac
            echo "$dir/${f##*/}"
        done
    done
}
