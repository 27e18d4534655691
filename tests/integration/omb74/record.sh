#!/usr/bin/env bash
# Records the OMB 7.4 layout fixtures (NAME.N.layout, numbers masked by
# layout.awk) from an OMB 7.4 build: tests/integration/omb74/record.sh OMB_DIR
# where OMB_DIR holds c/mpi/{pt2pt/standard,collective/*,one-sided}. Not part
# of make check; the fixtures it writes are.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
omb=${1:?usage: record.sh OMB_DIR}
launch=${MPIEXEC:-mpirun --oversubscribe --allow-run-as-root}
declare -A seen=()
grep -v '^#' "$here/cases.txt" | while read -r np prog args; do
    exe=$(find "$omb/c/mpi" -type f -name "$prog" -perm -u+x | head -1)
    [ -n "$exe" ] || { echo "no $prog under $omb" >&2; exit 1; }
    n=$(( ${seen[$prog]:-0} + 1 )); seen[$prog]=$n
    # shellcheck disable=SC2086
    $launch -np "$np" "$exe" $args 2> /dev/null < /dev/null | awk -f "$here/layout.awk" > "$here/$prog.$n.layout"
    [ -s "$here/$prog.$n.layout" ] || { echo "$prog $args printed nothing" >&2; exit 1; }
done
