#!/bin/bash
# Builds commsweep for one system with the settings of machines/SYSTEM/env:
# MPICC, BUILD, and MAKE_VARS (an array of more make variables, e.g. CUDA=1,
# LDFLAGS=...). When env defines machine_check_build, it runs after the build
# (e.g. to confirm a library that must be linked is there).
#   machines/build.sh SYSTEM [make arguments]       (each make.sh calls this)
set -eu
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ $# -lt 1 ] || [ ! -f "$here/$1/env" ]; then
    echo "build.sh: give a system folder of machines/ that has an env file" >&2
    exit 2
fi
system=$1
shift
MAKE_VARS=()
# shellcheck source=slurm/env
. "$here/$system/env"
cd "$here/.."
# MPICH and the MPIs built on it (Cray MPICH) define MPI_STATUSES_IGNORE as
# (MPI_Status *)1, which gcc 11 and later take for a zero-size array passed
# to MPI_Waitall: a false -Wstringop-overflow that -Werror makes fatal
# (github.com/pmodels/mpich/issues/5687).
if [ "$(echo MPICH_VERSION | "$MPICC" -E -include mpi.h -x c - 2>/dev/null | tail -n 1)" != MPICH_VERSION ]; then
    MAKE_VARS+=("CFLAGS=${CFLAGS:--O2 -g} -Wno-stringop-overflow")
fi
make MPICC="$MPICC" BUILD="${BUILD:-build}" "${MAKE_VARS[@]}" "$@"
if declare -F machine_check_build > /dev/null; then
    machine_check_build "${BUILD:-build}"
fi
