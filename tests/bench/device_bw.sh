#!/usr/bin/env bash
# device_bw: the device-buffer runs of one GPU node, in one job, beside the
# physical limit: osu_latency, osu_bw and osu_bibw with D D, H D and MD MD,
# osu_allreduce on device buffers, alltoall/all on device buffers at 1 and 2
# ranks, all with -c, then devcopy_bw (a bare device-to-device copy loop).
# Each program's full output goes to stdout, headers included: they name the
# MPI library, each rank's GPU (PCI bus id) and whether device memory went
# to MPI directly or staged. Nothing is run when MEMORY's device is missing.
#   BUILD=build-cuda tests/bench/device_bw.sh [MEMORY (cuda, hip or openacc)] [--staging]
# MPIEXEC and MPIEXEC_FLAGS choose the launcher as for the tests.
set -eu
. "$(dirname "$0")/../lib.sh"
MEMORY=${1:-cuda}
STAGING=${2:-}
osu_d=$MEMORY
[ "$MEMORY" = hip ] && osu_d=rocm
launch() { local n=$1; shift; echo "### $*"; $MPIEXEC ${MPIEXEC_FLAGS:-} -n "$n" "$@"; echo; }
placements=("D D" "H D")
[ "$MEMORY" = openacc ] || placements+=("MD MD")
for p in osu_latency osu_bw osu_bibw; do
    for where in "${placements[@]}"; do
        # shellcheck disable=SC2086 # the placement is two words
        launch 2 "$BUILD/osu/$p" -d "$osu_d" -c -m 1:4194304 $STAGING $where
    done
done
launch 2 "$BUILD/osu/osu_allreduce" -d "$osu_d" -c -m 4:4194304 $STAGING
for n in 1 2; do
    launch "$n" "$BUILD/alltoall/all" --memory="$MEMORY" $STAGING contig 10 1048576
done
launch 1 "$BUILD/tests/bench/devcopy_bw" 4194304 200
