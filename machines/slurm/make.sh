#!/bin/bash
# Builds the suite for a Slurm cluster with the MPI named in env.
#   machines/slurm/make.sh [make arguments]     e.g. -j8, BUILD=build-mpich
set -eu
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=env
. "$here/env"
cd "$here/../.."
exec make MPICC="$MPICC" BUILD="${BUILD:-build}" "$@"
