#!/usr/bin/env bash
# Runs a command as on a machine without one library: in a private mount
# namespace (unshare -m, root only) the library's header becomes a file that
# does not compile and its shared library an empty file. For the tests of
# the build (tests/integration/build_deps.sh) and .ci/run's build without
# cmocka. Status 3 when the namespace cannot be made.
#   tests/without.sh hwloc|gsl|cmocka COMMAND ARGS...
set -u
case ${1:-} in
hwloc) hdr=/usr/include/hwloc.h so=libhwloc.so ;;
gsl) hdr=/usr/include/gsl/gsl_cdf.h so=libgsl.so ;;
cmocka) hdr=/usr/include/cmocka.h so=libcmocka.so ;;
*) echo "usage: tests/without.sh hwloc|gsl|cmocka COMMAND ARGS..." >&2; exit 2 ;;
esac
shift
if [ "$(id -u)" != 0 ] || ! unshare -m true 2> /dev/null; then
    echo "without.sh: needs root and unshare -m" >&2
    exit 3
fi
so=$(${MPICC:-mpicc} -print-file-name="$so")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo '#error hidden: this machine has no such library' > "$tmp/hidden.h"
: > "$tmp/hidden.so"
unshare -m bash -c 'mount --bind "$1" "$2" && mount --bind "$3" "$4" && shift 4 && exec "$@"' \
    without "$tmp/hidden.h" "$hdr" "$tmp/hidden.so" "$so" "$@"
