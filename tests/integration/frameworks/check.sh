#!/bin/bash
# check.sh BUILD_DIR
# Runs commsweep's programs (BUILD_DIR/osu/PROGRAM) at every cpu command line of
# commands.txt (each distinct line once), reads their output and OMB 7.4's
# recorded output (omb74/) with every framework's rules (parsers.py), and prints
# PASS or FAIL per (framework, command line), then "pairs read the same: A / B".
# Exits 1 when any pair reads differently.
# Launcher: see launcher.sh (MPIEXEC, MPIEXEC_FLAGS, CASE_TIMEOUT); CHECK_OUT=DIR
# keeps commsweep's outputs there instead of in a temporary folder; CHECK_CASES=REGEX
# (grep -E on case ids) runs only those cases (the others are reported as SKIP).
# TEST_JOBS=N (6): cases run N at a time, each mostly an MPI start spent
# waiting (1 where the ranks poll, as MPICH's do: tests/mpich/check.sh).
set -u
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 1 ] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
build=$(cd "$1" && pwd) || exit 2
. "$here/launcher.sh"
ref=$here/omb74
if [ -n "${CHECK_OUT:-}" ]; then
    out=$CHECK_OUT; mkdir -p "$out"
else
    out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
fi
start=$(date +%s)
while read -r id np prog args; do
    [ -f "$ref/$id.out" ] || continue          # nothing to compare with
    if [ -n "${CHECK_CASES:-}" ] && ! echo "$id" | grep -Eq -- "$CHECK_CASES"; then continue; fi
    bin=$build/osu/$prog
    # the build may be rebuilt meanwhile: wait a little for a binary that is away
    for _ in 1 2 3 4 5 6 7 8 9 10 11 12; do [ -x "$bin" ] && break; sleep 5; done
    [ -x "$bin" ] || { echo "no $bin" >&2; continue; }
    OUT_FILE=$out/$id.out RC_FILE=$out/$id.rc ERR_FILE=$out/$id.err
    # shellcheck disable=SC2086
    run_case "$np" "$bin" $args &
    while [ "$(jobs -rp | wc -l)" -ge "${TEST_JOBS:-6}" ]; do wait -n; done
done < <(python3 "$here/parsers.py" cases "$here/commands.txt")
wait
ran=$(( $(date +%s) - start ))
python3 "$here/parsers.py" compare "$here/commands.txt" "$ref" "$out"
status=$?
echo "commsweep runs took $ran s; whole check $(( $(date +%s) - start )) s"
exit $status
