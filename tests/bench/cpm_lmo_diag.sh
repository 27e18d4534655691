#!/usr/bin/env bash
# Where LMO's point-to-point error on one node comes from: the measurements
# of cpm/README.md, "LMO accuracy on one node", with the tools of
# tests/bench (built by make; cpm-diag-bench builds only them):
#   curve   cpm_curve: every pair's curve from 0 to M in one launch against
#           the line through its 0 and M bytes (LMO's prediction) and a
#           Hockney fit over 0, M/8, .., M;
#   passes  cpm_passes: three passes over the pairs at 1 KiB in one launch;
#   lmo     cpm_lmo_dump: ROUNDS rounds of LMO's experiments and the pairs'
#           round trips, interleaved, in one launch; then cpm_lmo_replay
#           feeds each round to libcpm's solver (medians), to the line
#           through the means and to the seed's order, held to the round
#           trips of the rounds after.
#   tests/bench/cpm_lmo_diag.sh          (BUILD=build NP=4 ROUNDS=20 M=65536)
#   STEPS="lmo" ROUNDS=40 tests/bench/cpm_lmo_diag.sh
#   MPIEXEC_FLAGS="--oversubscribe --bind-to core:overload-allowed" tests/bench/cpm_lmo_diag.sh
#   WRAP="chrt -f 10" tests/bench/cpm_lmo_diag.sh     (root: other work kept off)
# WRAP is put before the launcher: chrt -f 10 gives the ranks a real-time
# priority, which keeps other work off them and starves it meanwhile (the
# three steps take seconds on 2 cores when they are free). BASE_BUILD=DIR
# runs every step a second time with this build's tools linked against
# DIR's libcpm.a: a build before a change to the measurement layer (the
# tools call only cpm_measure_p2p, cpm_measure_p2pp_p2p and the Hockney
# estimate, which e4e23c3 has). KEEP=DIR keeps every output there (the
# dumps as DIR/lmo.out and DIR/lmo.base.out, for cpm_lmo_replay).
set -eu
. "$(dirname "$0")/../lib.sh"
NP=${NP:-4} ROUNDS=${ROUNDS:-20} M=${M:-65536} MAX_REPS=${MAX_REPS:-50}
STEPS=${STEPS:-curve passes lmo} WRAP=${WRAP:-} BASE_BUILD=${BASE_BUILD:-}
OUTD=${KEEP:-$TMPD}
mkdir -p "$OUTD"
make -C "$TOP" -s BUILD="$BUILD" cpm-diag-bench >&2
TOOLS=$BUILD/tests/bench
mpi() { $WRAP $MPIEXEC $MPIEXEC_FLAGS -n "$NP" "$@"; }
if [ -n "$BASE_BUILD" ]; then
    for lib in cpm/libcpm.a common/libcommon.a; do
        [ -f "$BASE_BUILD/$lib" ] || { echo "cpm_lmo_diag: no $BASE_BUILD/$lib (BASE_BUILD)" >&2; exit 2; }
    done
    mkdir -p "$TMPD/base"
    for tool in cpm_curve cpm_passes cpm_lmo_dump; do
        ${MPICC:-mpicc} -o "$TMPD/base/$tool" "$TOOLS/$tool.o" "$TOOLS/cpm_diag.o" \
            "$BASE_BUILD/cpm/libcpm.a" "$BASE_BUILD/common/libcommon.a" -lhwloc -lgsl -lgslcblas -lm
    done
fi

echo "# CPM LMO diagnostics at $NP ranks ($(date -u +%Y-%m-%dT%H:%M:%SZ), $(hostname)): $STEPS"
echo "# launcher: ${WRAP:+$WRAP }$MPIEXEC $MPIEXEC_FLAGS"
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg), cores: $(nproc)"
# One step's tool, and the same linked against BASE_BUILD's libcpm.
both() { # NAME TOOL ARGS...
    local name=$1 tool=$2
    shift 2
    mpi "$TOOLS/$tool" "$@" > "$OUTD/$name.out"
    cat "$OUTD/$name.out"
    if [ -n "$BASE_BUILD" ]; then
        echo "# the same with $BASE_BUILD's libcpm"
        mpi "$TMPD/base/$tool" "$@" > "$OUTD/$name.base.out"
        cat "$OUTD/$name.base.out"
    fi
}
for step in $STEPS; do
    case $step in
        curve) both curve cpm_curve "$M" "$MAX_REPS" ;;
        passes) both passes cpm_passes 1024 3 "$MAX_REPS" ;;
        lmo)
            both lmo cpm_lmo_dump "$ROUNDS" "$M" "$MAX_REPS" > /dev/null
            "$TOOLS/cpm_lmo_replay" "$OUTD/lmo.out"
            if [ -n "$BASE_BUILD" ]; then
                echo "# the same with $BASE_BUILD's libcpm"
                "$TOOLS/cpm_lmo_replay" "$OUTD/lmo.base.out"
            fi
            ;;
        *) echo "cpm_lmo_diag: no step $step (curve, passes, lmo)" >&2; exit 2 ;;
    esac
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
