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
make MPICC="$MPICC" BUILD="${BUILD:-build}" "${MAKE_VARS[@]}" "$@"
if declare -F machine_check_build > /dev/null; then
    machine_check_build "${BUILD:-build}"
fi
