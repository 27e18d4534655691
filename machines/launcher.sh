# Sourced (bash): the launcher for the MPI at hand, shared by the machines'
# env files and tests/lib.sh so that both pick the same.
# launcher_defaults [DEFAULT]: MPIEXEC, when unset, is mpiexec.mpich when
# MPICC names MPICH's wrapper, else DEFAULT (mpiexec). MPIEXEC_FLAGS, when
# unset or empty, becomes what Open MPI needs on a workstation or CI machine
# (--oversubscribe for more ranks than cores, --allow-run-as-root as root)
# and nothing for other launchers; MPIEXEC_FLAGS_CHOSEN is then 1 (else 0),
# so that a script started later can tell these defaults from flags its
# caller chose.
launcher_defaults() {
    if [ -z "${MPIEXEC:-}" ]; then
        case "${MPICC:-mpicc}" in
            *mpich*) MPIEXEC=mpiexec.mpich ;;
            *) MPIEXEC=${1:-mpiexec} ;;
        esac
    fi
    if [ -z "${MPIEXEC_FLAGS:-}" ]; then
        MPIEXEC_FLAGS_CHOSEN=1 MPIEXEC_FLAGS=""
        if "$MPIEXEC" --version 2>&1 | grep -qiE 'open mpi|openrte'; then
            MPIEXEC_FLAGS="--oversubscribe"
            [ "$(id -u)" = 0 ] && MPIEXEC_FLAGS="$MPIEXEC_FLAGS --allow-run-as-root"
        fi
    fi
    MPIEXEC_FLAGS_CHOSEN=${MPIEXEC_FLAGS_CHOSEN:-0}
    export MPIEXEC MPIEXEC_FLAGS MPIEXEC_FLAGS_CHOSEN
}
