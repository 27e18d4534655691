#!/bin/bash
# Builds the suite on Perlmutter: Cray MPICH (cc), CUDA=1, the GTL library.
#   machines/perlmutter/make.sh -j16
exec "$(dirname "${BASH_SOURCE[0]}")/../build.sh" perlmutter "$@"
