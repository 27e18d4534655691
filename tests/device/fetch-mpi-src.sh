#!/usr/bin/env bash
# Downloads Debian 12's Open MPI source package (the .dsc, the upstream
# .orig.tar and the .debian.tar, about 7 MB) into DIR, for
# tests/device/validate.sh --build-mpi DIR on a GPU machine that has the
# CUDA toolkit but no CUDA-aware MPI and no package registry: there it is
# built with CUDA support in a few minutes. Nothing is installed or unpacked
# here.
#   tests/device/fetch-mpi-src.sh DIR    (as root, on a Debian 12 machine)
# It adds a deb-src entry for bookworm main on the mirror the machine's own
# bookworm entry uses (/etc/apt/sources.list.d/commsweep-src.sources) unless
# one is configured already, runs apt-get update, then apt-get source
# --download-only. Running it again changes nothing and downloads nothing
# that DIR already holds intact (apt checks each file's hash). Status 2 and
# one line on stderr on failure.
set -u
me=fetch-mpi-src.sh
die() { echo "$me: $*" >&2; exit 2; }
if [ $# != 1 ] || [ -z "$1" ]; then die "usage: tests/device/fetch-mpi-src.sh DIR"; fi
dir=$1
# The build options of validate.sh --build-mpi are those of Open MPI 4.1,
# the series bookworm ships; another release's openmpi would not fit them.
suite=bookworm
entry=/etc/apt/sources.list.d/commsweep-src.sources
command -v apt-get > /dev/null || die "no apt-get: this needs a Debian machine"
[ "$(id -u)" = 0 ] || die "adding a deb-src entry and apt-get update need root"

# apt's own reading of its sources (one-line and deb822 files alike):
# which source indexes exist, and which mirror serves the binary packages.
# shellcheck disable=SC2016 # apt's own $(FIELD) names, not the shell's
targets() { apt-get indextargets --no-release-info --format '$(TARGET_OF) $(RELEASE) $(COMPONENT) $(SITE)' 2> /dev/null; }
if ! targets | grep -q "^deb-src $suite main "; then
    mirror=$(targets | awk -v s="$suite" '$1 == "deb" && $2 == s && $3 == "main" { print $4; exit }')
    # A machine of another release, or with no bookworm entry: Debian's
    # own redirector serves bookworm too.
    [ -n "$mirror" ] || mirror=http://deb.debian.org/debian
    key=/usr/share/keyrings/debian-archive-keyring.gpg
    {
        echo "# Added by commsweep's tests/device/fetch-mpi-src.sh: Open MPI's source for validate.sh --build-mpi"
        echo "Types: deb-src"
        echo "URIs: $mirror"
        echo "Suites: $suite"
        echo "Components: main"
        [ -f "$key" ] && echo "Signed-By: $key"
    } > "$entry.new" || die "cannot write $entry.new"
    mv "$entry.new" "$entry" || die "cannot write $entry"
    echo "$me: added $entry (deb-src $mirror $suite main)"
fi
log=$(mktemp) || die "mktemp failed"
trap 'rm -f "$log"' EXIT
why() { grep -m1 -E '^(E:|Err:)' "$log" || tail -n 1 "$log"; } # apt's first error
apt-get update > "$log" 2>&1 || die "apt-get update failed: $(why)"

mkdir -p "$dir" || die "cannot create $dir"
cd "$dir" || die "cannot enter $dir"
# apt-get source writes into the current folder; as root it warns that the
# _apt user cannot write there, which does no harm.
if ! apt-get source --download-only "openmpi/$suite" > "$log" 2>&1; then
    die "apt-get source openmpi/$suite failed: $(why)"
fi
dsc=
for f in openmpi_*.dsc; do [ -e "$f" ] && dsc=$f; done
[ -n "$dsc" ] || die "no openmpi .dsc in $dir after apt-get source"
# Every file the .dsc names is here, or the build would stop on the GPU
# machine, with no registry to fetch it from.
names=()
while read -r f; do
    [ -s "$f" ] || die "$dsc names $f, which is not in $dir"
    names+=("$f")
done < <(awk '/^Files:/ { on = 1; next } /^[^ ]/ { on = 0 } on && NF == 3 { print $3 }' "$dsc")
[ "${#names[@]}" -gt 0 ] || die "$dsc names no files"
echo "$me: openmpi $(sed -n 's/^Version: //p' "$dsc" | head -n 1) in $dir: $dsc ${names[*]} ($(du -shc "$dsc" "${names[@]}" | tail -n 1 | cut -f1))"
