#!/usr/bin/env bash
# Downloads the Debian packages that tests/device/validate.sh needs on a GPU
# machine that has the vendor toolkit but no MPI, hwloc or GSL and no
# package registry: Open MPI with the libraries it loads, hwloc and GSL,
# as .deb files (nothing is installed here). Carry the folder to the GPU
# machine beside the source tree; validate.sh unpacks them (dpkg -x) into a
# prefix of its own and runs from there.
#   tests/device/fetch-debs.sh [DIR]    (default .debs; on a Debian 12 machine)
# The C library, libgcc, zlib and the like are left out: the GPU machine has
# its own, and an older copy on the loader's path could break its tools.
set -eu
dir=${1:-.debs}
packages=(openmpi-bin openmpi-common libopenmpi3 libopenmpi-dev
          libhwloc15 libhwloc-dev libgsl27 libgslcblas0 libgsl-dev
          libevent-core-2.1-7 libevent-pthreads-2.1-7 libfabric1 libibverbs1 librdmacm1
          libnl-3-200 libnl-route-3-200 libpmix2 libucx0 libpsm2-2 libpsm-infinipath1
          libmunge2 libnuma1)
mkdir -p "$dir"
cd "$dir"
# apt-get download writes into the current folder; as root it warns that
# the _apt user cannot write there, which does no harm.
apt-get download "${packages[@]}" 2>&1 | grep -v 'unsandboxed as root' || true
n=$(ls ./*.deb 2> /dev/null | wc -l)
if [ "$n" -lt "${#packages[@]}" ]; then
    echo "fetch-debs.sh: $n of ${#packages[@]} packages in $dir" >&2
    exit 1
fi
echo "fetch-debs.sh: $n packages in $dir ($(du -sh . | cut -f1))"
