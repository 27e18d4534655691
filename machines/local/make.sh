#!/usr/bin/env bash
# Builds commsweep on this machine into build/ (installing missing Debian
# packages first). Usage: machines/local/make.sh [make arguments]
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/machines/local/env"
"$top/machines/local/install-deps.sh"
make -C "$top" -j"$(nproc)" MPICC="$MPICC" "$@"
