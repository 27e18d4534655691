# Shared helpers for integration tests (sourced by tests/integration/*.sh).
# Tests print TAP lines: "ok - what" / "not ok - what"; tests/run.sh counts them.
#
#   run NP PROGRAM ARGS...   runs under the MPI launcher with a timeout;
#                            sets $RC and fills $OUT and $ERR (file names)
#   ok DESCRIPTION / not_ok DESCRIPTION DETAIL
#   expect COND_COMMAND DESCRIPTION  (ok when the command succeeds)
#   expect_usage_error DESCRIPTION   after run: status 2, one line on stderr
#                                    from the program, nothing else from it
#   skip DESCRIPTION REASON
set -u
BUILD=${BUILD:-build}
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
case "$BUILD" in /*) ;; *) BUILD="$TOP/$BUILD" ;; esac
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/commsweep-test.XXXXXX")
trap 'rm -rf "$TMPD"' EXIT
OUT="$TMPD/out" ERR="$TMPD/err" RC=0
TEST_TIMEOUT=${TEST_TIMEOUT:-180}

# The launcher: MPIEXEC/MPIEXEC_FLAGS win; otherwise the one that matches MPICC.
if [ -z "${MPIEXEC:-}" ]; then
    case "${MPICC:-mpicc}" in
        *mpich*) MPIEXEC=mpiexec.mpich ;;
        *) MPIEXEC=mpiexec ;;
    esac
fi
if [ -z "${MPIEXEC_FLAGS:-}" ]; then
    if "$MPIEXEC" --version 2>&1 | grep -qiE 'open mpi|openrte'; then
        MPIEXEC_FLAGS="--oversubscribe"
        [ "$(id -u)" = 0 ] && MPIEXEC_FLAGS="$MPIEXEC_FLAGS --allow-run-as-root"
    else
        MPIEXEC_FLAGS=""
    fi
fi
export MPIEXEC MPIEXEC_FLAGS

run() {
    local np=$1; shift
    timeout -k 5 "$TEST_TIMEOUT" $MPIEXEC $MPIEXEC_FLAGS -n "$np" "$@" > "$OUT" 2> "$ERR"
    RC=$?
    return 0
}

# Runs a program without a launcher (singleton MPI), same conventions as run.
run1() {
    timeout -k 5 "$TEST_TIMEOUT" "$@" > "$OUT" 2> "$ERR"
    RC=$?
    return 0
}

ok() { echo "ok - $1"; }
not_ok() {
    echo "not ok - $1"
    [ $# -gt 1 ] && printf '%s\n' "$2" | sed 's/^/#   /' | head -20
    return 0
}
skip() { echo "ok - $1 # SKIP $2"; }

expect() { # COMMAND_STRING DESCRIPTION
    if eval "$1"; then ok "$2"; else not_ok "$2" "failed: $1 (status $RC)
$(head -c 2000 "$ERR")"; fi
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

# Data lines (not comments, not blank) of $OUT, or of a file.
data_lines() { grep -vE '^(#|[[:space:]]*$)' "${1:-$OUT}"; }
# Blocks: groups of data lines separated by blank lines.
count_blocks() { awk 'BEGIN{b=0;inb=0} /^[[:space:]]*$/{inb=0;next} /^#/{next} {if(!inb){b++;inb=1}} END{print b}' "${1:-$OUT}"; }
