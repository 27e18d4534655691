#!/usr/bin/env bash
# Records the OMB 7.4 layout fixtures (NAME.N.layout, numbers masked by
# layout.awk) from an OMB 7.4 build:
#   tests/integration/omb74/record.sh OMB_DIR [PATTERN]
# where OMB_DIR holds c/mpi/{pt2pt/*,collective/*,one-sided,startup}; with
# PATTERN (a shell pattern) only the programs it matches are recorded, so
# that programs one build of OMB lacks can come from another (OMB built
# with Open MPI 4.1 has no persistent collectives: record '*_persistent'
# from an MPICH 4 build, with MPIEXEC=mpiexec.mpich). Not part of make
# check; the fixtures it writes are.
# A case with --ranks-per-node N (the fan tests, which OMB runs on 2 nodes
# or more, found by host name) runs OMB's program without that option of
# ours, each rank under fake_node.sh, which names the host after its block
# of N ranks (needs unshare and root).
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
    wrap=()
    if [[ " $args " =~ \ --ranks-per-node\ ([0-9]+) ]]; then
        wrap=("$here/fake_node.sh" "${BASH_REMATCH[1]}")
        args=$(sed 's/ *--ranks-per-node [0-9]*//' <<< "$args")
    fi
    # A run that fails (a loaded machine) is tried again, up to 3 times.
    for try in 1 2 3; do
        # shellcheck disable=SC2086
        # (Only the output counts: OMB's osu_latency_mt ends with a non-zero status.)
        $launch -np "$np" "${wrap[@]}" "$exe" $args 2> /dev/null < /dev/null |
            awk -f "$here/layout.awk" > "$here/$prog.$n.layout" || true
        if grep -q '^D' "$here/$prog.$n.layout"; then
            break
        fi
        [ "$try" = 3 ] && { echo "$prog $args failed 3 times" >&2; exit 1; }
    done
done
