#!/bin/bash
# Builds the suite on Frontier: Cray MPICH (cc), HIP device buffers (HIP=1).
#   machines/frontier/make.sh -j16
exec "$(dirname "${BASH_SOURCE[0]}")/../build.sh" frontier "$@"
