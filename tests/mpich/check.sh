#!/bin/bash
# The suite with MPICH: builds it with MPICH's compiler wrapper into its own
# folder and runs the alltoall, always, OSU, coarray, CPM model-based
# collective, collective, manual API and model-file input, network-map,
# input-file and --timeout integration tests under
# MPICH's launcher (Hydra). Open MPI stays the default everywhere else.
# Hydra needs no extra flags here: it starts local ranks by fork, runs as
# root without complaint, and runs more ranks than cores.
#   tests/mpich/check.sh            (make check-mpich does this)
# Variables: MPICH_BUILD (build-mpich), MPICH_MPICC (mpicc.mpich),
# MPICH_MPIEXEC (mpiexec.mpich), MPICH_TESTS (the integration patterns),
# MPICH_CFLAGS (see below), JOBS (make -j, 2). Prints the counts of each part and one final line
# "N passed, N failed"; exits 1 when anything failed.
set -u
build=${MPICH_BUILD:-build-mpich}
mpicc=${MPICH_MPICC:-mpicc.mpich}
mpiexec=${MPICH_MPIEXEC:-mpiexec.mpich}
patterns=${MPICH_TESTS:-alltoall_* always_* osu_* caf_* cpm_coll* cpm_api cpm_inputs netmap input_files timeout}
# (The Makefile itself turns off MPICH's false -Wstringop-overflow.)
cflags=${MPICH_CFLAGS:-${CFLAGS:--O2 -g}}
# lib.sh (TOP, TMPD, ok/not_ok/skip and summary) picks the launcher flags
# for MPICH's launcher once it is the one named; the test runs inherit them.
MPICC=$mpicc MPIEXEC=$mpiexec
TAP_DETAIL_LINES=30
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

for c in "$mpicc" "$mpiexec"; do
    if ! command -v "$c" > /dev/null; then
        skip "MPICH build and tests" "$c is not installed (apt-get install mpich libmpich-dev)"
        summary; exit
    fi
done

cd "$TOP" || exit 1
log="$TMPD/log"
if make -j"${JOBS:-2}" MPICC="$mpicc" BUILD="$build" CFLAGS="$cflags" all unit-tests > "$log" 2>&1; then
    ok "build with $mpicc into $build, warnings as errors"
else
    not_ok "build with $mpicc into $build" "$(tail -n 30 "$log")"
    summary; exit
fi

# The runner's TESTS is one shell pattern: one run per pattern, the unit
# tests (MPICH-linked too) in a run of their own.
# The longest OMB 7.4 comparisons (every option on every program, every
# framework's every command line) run whole under Open MPI, a part here.
export MPICC MPIEXEC BUILD="$build" COMMSWEEP_TEST_SHORT=1
# MPICH's ranks poll without yielding: runs side by side only slow each
# other down, so the tests' loops (lib.sh's in_parallel) run one at a time.
export TEST_JOBS=${TEST_JOBS:-1}
run_part() { # NAME TESTS [UNIT_TEST_BINARIES...]
    local name=$1 counts p f s
    echo "# $name with $mpiexec"
    TESTS=$2 tests/run.sh "${@:3}" > "$log" 2>&1
    grep -E ' passed +[0-9]+ failed' "$log" | sed 's/^/# /'
    grep -E '^FAILED' "$log" | sed 's/^/# /' | tee -a "$TMPD/failed"
    counts=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
    if [ -z "$counts" ]; then
        not_ok "$name: the test runner did not finish" "$(tail -n 20 "$log")"
        return
    fi
    read -r p _ f _ s _ <<< "${counts//,/}"
    TAP_PASSED=$((TAP_PASSED + p)) TAP_FAILED=$((TAP_FAILED + f)) TAP_SKIPPED=$((TAP_SKIPPED + ${s:-0}))
}
# A device verdict that only one rank reaches ends every rank under MPICH
# too: an OpenACC build (its device memory on the runtime's host device).
. "$TOP/tests/device/refusal_lib.sh"
if [ -e "$(gcc -print-file-name=include/openacc.h)" ]; then
    if make -j"${JOBS:-2}" MPICC="$mpicc" BUILD="$build-openacc" CFLAGS="$cflags" OPENACC=1 \
        "$build-openacc/osu/osu_latency" "$build-openacc/alltoall/all" "$build-openacc/always/all" \
        > "$log" 2>&1; then
        one_rank_refuses "$build-openacc" "MPICH, openacc"
    else
        not_ok "build with $mpicc OPENACC=1 into $build-openacc" "$(tail -n 30 "$log")"
    fi
else
    skip "MPICH: one rank refuses device memory" "gcc's OpenACC (openacc.h) is not installed"
fi

units=()
for t in "$build"/tests/unit/test_*; do
    case "$t" in *.o | *.d) ;; *) [ -x "$t" ] && units+=("$t") ;; esac
done
run_part "unit tests" none "${units[@]}"
# MPICH's ranks poll without yielding: at 8 ranks on a 2-core machine each
# of cafbench's ~600 point-to-point measurements waits ~0.4 s for the idle
# ranks' polling (about 280 s for the one run, beyond the test timeout).
# The full coarray runs stop at 4 ranks here; Open MPI runs them at 8.
export CAF_TEST_NPS=${CAF_TEST_NPS:-1 2 3 4}
for pattern in $patterns; do
    run_part "integration tests $pattern" "$pattern"
done
# A CI log is often read from its end: the failures again, last, with the
# first lines each check printed (the parts' logs are in $build/tests/logs).
if [ -s "$TMPD/failed" ]; then
    echo "# failed under $mpiexec:"
    cat "$TMPD/failed"
    sed -n 's/^# FAILED \([^ :]*\).*/\1/p' "$TMPD/failed" | while read -r name; do
        grep -A4 -E '^not ok' "$build/tests/logs/$name.log" 2> /dev/null | head -n 12 | sed 's/^/#   /'
    done
fi
summary
