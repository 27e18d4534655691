#!/usr/bin/env bash
# The local sweep: alltoall/all contiguous then strided, always/all and iall
# contiguous then strided, the OSU programs; one gnuplot-ready file per
# program in results/local-<date>/NAME.local.N<ranks>.dat, then PNG plots.
# Usage: machines/local/job.sh   (settings: machines/local/env and ../sweep.sh)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/machines/local/env"
. "$top/machines/sweep.sh"
: "${BUILD:=$top/build}"
: "${RESULTS:=$top/results/local-$(date +%Y%m%d-%H%M%S)}"
SWEEP_NP=$NP
SWEEP_TAG="local.N$NP"
# shellcheck disable=SC2206 # flags are words on purpose
SWEEP_LAUNCH_ALL=($MPIEXEC $MPIEXEC_FLAGS -n "$NP")
# shellcheck disable=SC2206
SWEEP_LAUNCH_PAIR=($MPIEXEC $MPIEXEC_FLAGS -n 2)
sweep_run_all
status=$?
sweep_plot "$top"
echo "commsweep: results in $RESULTS" >&2
exit $status
