#!/bin/bash
# record.sh OMB_BIN_DIR OUTDIR [CASE_REGEX]
# Runs OMB's programs (found by name under OMB_BIN_DIR, e.g. an OMB 7.4 install's
# libexec/osu-micro-benchmarks/mpi) at every cpu command line of commands.txt,
# once per case, and saves OUTDIR/CASE.out (stdout) and OUTDIR/CASE.rc (exit status).
# The cases whose program is not there are listed in OUTDIR/MISSING.
# CASE_REGEX (grep -E) re-records only the matching case ids.
# Launcher: see launcher.sh (MPIEXEC, MPIEXEC_FLAGS, CASE_TIMEOUT).
set -u
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 2 ] || [ $# -eq 3 ] || { echo "usage: $0 OMB_BIN_DIR OUTDIR [CASE_REGEX]" >&2; exit 2; }
bindir=$1; outdir=$2; only=${3:-}
mkdir -p "$outdir"
. "$here/launcher.sh"
errdir=$(mktemp -d); trap 'rm -rf "$errdir"' EXIT
[ -n "$only" ] || : >"$outdir/MISSING"
start=$(date +%s)
python3 "$here/parsers.py" cases "$here/commands.txt" | while read -r id np prog args; do
    if [ -n "$only" ] && ! echo "$id" | grep -Eq -- "$only"; then continue; fi
    bin=$(find "$bindir" -name "$prog" -type f -perm -u+x 2>/dev/null | head -n 1)
    if [ -z "$bin" ]; then
        echo "$id (no $prog in the OMB build)" >>"$outdir/MISSING"
        echo "missing  $id"
        continue
    fi
    OUT_FILE=$outdir/$id.out RC_FILE=$outdir/$id.rc ERR_FILE=$errdir/$id.err
    t0=$(date +%s%N)
    # shellcheck disable=SC2086
    run_case "$np" "$bin" $args
    ms=$(( ($(date +%s%N) - t0) / 1000000 ))
    printf 'rc=%s %4d.%03ds  %s\n' "$(cat "$RC_FILE")" $((ms / 1000)) $((ms % 1000)) "$id"
done
echo "recorded in $(( $(date +%s) - start )) s; not recorded: $(wc -l <"$outdir/MISSING")"
