#!/usr/bin/env bash
# Records the OMB 7.4 layout fixtures (NAME.N.layout, numbers masked by
# layout.awk) from an OMB 7.4 build:
#   tests/integration/omb74/record.sh OMB_DIR [PATTERN]
# where OMB_DIR holds c/mpi/{pt2pt/standard,collective/*,one-sided}; with
# PATTERN (a shell pattern) only the programs it matches are recorded, so
# that programs one build of OMB lacks can come from another (OMB built
# with Open MPI 4.1 has no persistent collectives: record '*_persistent'
# from an MPICH 4 build, with MPIEXEC=mpiexec.mpich). Not part of make
# check; the fixtures it writes are.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
omb=${1:?usage: record.sh OMB_DIR [PATTERN]}
pattern=${2:-*}
launch=${MPIEXEC:-mpirun --oversubscribe --allow-run-as-root}
declare -A seen=()
grep -v '^#' "$here/cases.txt" | while read -r np prog args; do
    n=$(( ${seen[$prog]:-0} + 1 )); seen[$prog]=$n
    # shellcheck disable=SC2254
    case $prog in $pattern) ;; *) continue ;; esac
    exe=$(find "$omb/c/mpi" -type f -name "$prog" -perm -u+x | head -1)
    [ -n "$exe" ] || { echo "no $prog under $omb" >&2; exit 1; }
    # A run that fails (a loaded machine) is tried again, up to 3 times.
    for try in 1 2 3; do
        # shellcheck disable=SC2086
        # (Only the output counts: OMB's osu_latency_mt ends with a non-zero status.)
        $launch -np "$np" "$exe" $args 2> /dev/null < /dev/null |
            awk -f "$here/layout.awk" > "$here/$prog.$n.layout" || true
        if grep -q '^D' "$here/$prog.$n.layout"; then
            break
        fi
        [ "$try" = 3 ] && { echo "$prog $args failed 3 times" >&2; exit 1; }
    done
done
