#!/usr/bin/env bash
# Installs what commsweep needs from Debian's packages when it is missing:
# Open MPI (the reference MPI), hwloc, GSL, cmocka, gnuplot and the build
# tools, Python's jsonschema (the JSON Lines tests validate with it) and
# SimGrid (make SMPI=1 and make check-scale simulate clusters with it).
# Extra package names given as arguments are installed too (CI adds MPICH
# and Slurm). Needs root, or sudo.
set -eu
packages=(make gcc pkg-config openmpi-bin libopenmpi-dev libhwloc-dev libgsl-dev
          libcmocka-dev gnuplot-nox python3 python3-jsonschema libsimgrid-dev "$@")
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ "${#missing[@]}" -eq 0 ] && exit 0
sudo=()
[ "$(id -u)" -ne 0 ] && sudo=(sudo)
echo "commsweep: installing ${missing[*]}" >&2
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
