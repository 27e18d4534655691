#!/usr/bin/env bash
# The local sweep: alltoall/all contiguous then strided, always/all and iall
# contiguous then strided, the OSU programs; one gnuplot-ready file per
# program in results/local-<date>/NAME.local.N<ranks>.dat, then PNG plots;
# with COMPARE_WITH=an earlier results folder, each OSU program's file set
# against the earlier one's in compare/NAME.dat and NAME.png (tools/compare);
# then the run's page, results/local-<date>/report.html (tools/report, with
# machines/local/references).
# Usage: machines/local/job.sh   (settings: machines/local/env and ../sweep.sh)
#        COMPARE_WITH=results/local-20260101-120000 machines/local/job.sh
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/machines/local/env"
. "$top/machines/sweep.sh"
: "${BUILD:=$top/build}"
: "${RESULTS:=$top/results/local-$(date +%Y%m%d-%H%M%S)}"
# A bad folder fails now, not after the sweep: one that is not there, and
# one without a result in it (an empty folder compared nothing, after hours).
if [ -n "${COMPARE_WITH:-}" ]; then
    if [ ! -d "$COMPARE_WITH" ]; then
        echo "commsweep: COMPARE_WITH=$COMPARE_WITH is not a results folder" >&2
        exit 2
    fi
    if ! compgen -G "$COMPARE_WITH/*.dat" > /dev/null &&
        ! compgen -G "$COMPARE_WITH/*.jsonl" > /dev/null; then
        echo "commsweep: COMPARE_WITH=$COMPARE_WITH is not a results folder (no .dat or .jsonl files in it)" >&2
        exit 2
    fi
fi
SWEEP_NP=$NP
SWEEP_TAG="local.N$NP"
# shellcheck disable=SC2206 # flags are words on purpose
SWEEP_LAUNCH_ALL=($MPIEXEC $MPIEXEC_FLAGS -n "$NP")
# shellcheck disable=SC2206
SWEEP_LAUNCH_PAIR=($MPIEXEC $MPIEXEC_FLAGS -n 2)
sweep_run_all
status=$?
sweep_plot "$top"
if [ -n "${COMPARE_WITH:-}" ]; then
    sweep_compare "$COMPARE_WITH" || status=1
fi
sweep_report "$top" local || status=1
if [ -d "$RESULTS" ]; then
    echo "commsweep: results in $RESULTS" >&2
else
    echo "commsweep: no results: the folder $RESULTS could not be created" >&2
fi
exit $status
