#!/bin/bash
# Builds the suite for a Slurm cluster with the MPI named in env.
#   machines/slurm/make.sh [make arguments]       e.g. -j8, BUILD=build-mpich
exec "$(dirname "${BASH_SOURCE[0]}")/../build.sh" slurm "$@"
