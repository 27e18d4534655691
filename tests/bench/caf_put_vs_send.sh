#!/usr/bin/env bash
# Contiguous put ping-pong bandwidth at the largest size next to the MPI Send
# ping-pong of the same cafbench run, at 2 ranks (single mode, sync images
# and sync all). Usage: tests/bench/caf_put_vs_send.sh [cafbench options]
#   BUILD=build MAXNDATA=4194304 TARGET=0.5 MPIEXEC=mpiexec MPIEXEC_FLAGS=...
# Prints the table on stdout and keeps the full output in $BUILD/bench/.
# The launcher, its flags and BUILD (made absolute) are lib.sh's.
set -u
. "$(dirname "$0")/../lib.sh"
MAXNDATA=${MAXNDATA:-4194304}
TARGET=${TARGET:-0.5}
mkdir -p "$BUILD/bench"
out="$BUILD/bench/caf_put_vs_send.out"
# shellcheck disable=SC2086
$MPIEXEC $MPIEXEC_FLAGS -n 2 "$BUILD/caf/cafbench" --p2p --single --maxndata "$MAXNDATA" \
    --target-time "$TARGET" "$@" > "$out" || { echo "cafbench failed, see $out" >&2; exit 1; }

# Last data line of the block whose header starts with $1: ndata latency bandwidth.
last_line() {
    awk -v h="$1" 'index($0, h) == 1 {inb = 1; last = ""; next}
        inb && /^[[:space:]]*$/ {inb = 0}
        inb && !/^#/ {last = $4 " " $8 " " $9}
        END {print last}' "$out"
}
printf '# %s\n' "$(grep '^# mpi:' "$out" | cut -c3-)"
printf '# 2 ranks, single ping-pong, largest size (ndata doubles), one-way latency and bandwidth\n'
printf '%-28s %12s %14s %16s\n' "# pattern" "ndata" "latency[us]" "bandwidth[MB/s]"
for h in "mpi_send mode=single sync=none" "put mode=single sync=sync_images" \
         "put mode=single sync=sync_all" "get mode=single sync=sync_images"; do
    read -r nd lat bw <<< "$(last_line "# p2p pattern=$h")"
    printf '%-28s %12s %14s %16s\n' "${h%% *}/${h##*=}" "$nd" "$lat" "$bw"
done
