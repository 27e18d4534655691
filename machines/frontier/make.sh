#!/bin/bash
# Builds the suite on Frontier: Cray MPICH (cc), host buffers only.
#   machines/frontier/make.sh -j16
exec "$(dirname "${BASH_SOURCE[0]}")/../build.sh" frontier "$@"
