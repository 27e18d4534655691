# shellcheck shell=bash
# Sourced by record.sh and check.sh: the MPI launcher, chosen by the environment.
#   MPIEXEC        launcher command (default: mpirun)
#   MPIEXEC_FLAGS  flags before -np (default for Open MPI's mpirun: --oversubscribe,
#                  and --allow-run-as-root when run as root; none for others)
#   CASE_TIMEOUT   seconds one case may run (default 1800: ReFrame hpctestlib's osu_bw line
#                  validates 1000 x 64 messages of up to 4 MiB and took 664 s on 2 cores)
MPIEXEC=${MPIEXEC:-mpirun}
if [ -z "${MPIEXEC_FLAGS+set}" ]; then
    MPIEXEC_FLAGS=
    if "$MPIEXEC" --version 2>/dev/null | grep -q "Open MPI\|OpenRTE"; then
        MPIEXEC_FLAGS=--oversubscribe
        [ "$(id -u)" = 0 ] && MPIEXEC_FLAGS="$MPIEXEC_FLAGS --allow-run-as-root"
    fi
fi
CASE_TIMEOUT=${CASE_TIMEOUT:-1800}

# run_case NP BINARY ARGS... : stdout to $OUT_FILE, exit status to $RC_FILE, stderr to $ERR_FILE
run_case() {
    np=$1; shift
    # shellcheck disable=SC2086
    timeout "$CASE_TIMEOUT" $MPIEXEC $MPIEXEC_FLAGS -np "$np" "$@" >"$OUT_FILE" 2>"$ERR_FILE" </dev/null
    echo $? >"$RC_FILE"
}
