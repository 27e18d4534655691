#!/usr/bin/env bash
# validate.sh: the GPU proof in one command, on one GPU node. It builds the
# suite for the vendor it finds (CUDA=1, or HIP=1 where ROCm is found), runs
# every device mode with its data checked (-c), times the physical limits
# (a bare device-to-device copy loop and pinned host-device copy loops) in
# the same run, and prints a pass/fail table with each device bandwidth's
# ratio to those limits. Exit status 0 when every check passed, 1 when one
# failed, 2 when it cannot start (no GPU, no toolkit, no MPI).
#
#   tests/device/validate.sh [--debs DIR] [--mpi PREFIX | --build-mpi SRC]
#                            [--build DIR] [--timeout SECONDS]
#                            [--vendor cuda|hip|openacc] [--mps] [--quick]
#
# The GPU machine needs the vendor toolkit, gcc and make. Where MPI comes from:
#   (default)        the mpicc and mpirun on PATH.
#   --debs DIR       Debian's Open MPI, hwloc and GSL packages, fetched on a
#                    machine with a registry (tests/device/fetch-debs.sh DIR)
#                    and carried beside the sources (default: .debs when it
#                    exists and mpicc does not). They are unpacked with
#                    dpkg -x into BUILD/prefix and used from there (Open MPI
#                    relocated through OPAL_PREFIX). Debian's Open MPI does
#                    not read device memory.
#   --mpi PREFIX     a site's own (GPU-aware) MPI: PREFIX/bin/mpicc, mpirun.
#   --build-mpi SRC  Open MPI built here with CUDA support (--with-cuda=
#                    $CUDA_HOME, CUDA only) from Debian's source, fetched by
#                    tests/device/fetch-mpi-src.sh SRC: SRC is that folder,
#                    the .orig.tar itself or an unpacked source tree. It is
#                    configured with what a one-node proof needs (12
#                    minutes on 2 cores), installed into BUILD/mpi and
#                    reused while the source and options stay the same; log:
#                    BUILD/validate/logs/mpi-build.log.
# --mpi and --build-mpi exclude each other; with either, --debs supplies only
# hwloc and GSL (its Open MPI packages are left packed; default: .debs when
# it exists and the machine has no hwloc.h or gsl headers).
# Device pointers go to MPI when the library says it reads them and a probe
# transfer proves it (the first device run, osu_latency D D, before anything
# is timed): then every device mode runs twice, direct and staged
# (--staging), and the table gives direct/staged (managed memory, which MPI
# reads as host memory, runs once). Otherwise only the staged
# runs are made and the table's header says why.
#
# Checks (each with -c, each under its own time limit):
#   osu_latency, osu_bw, osu_bibw with D D, H D and MD MD (2 ranks)
#   osu_allreduce on device buffers (2 ranks)
#   alltoall/all, alltoall/aller, always/all, always/iall with
#   --memory=VENDOR and --memory=managed at 1 and 2 ranks
#   osu_xccl_* (NCCL in a CUDA build, RCCL in a HIP build; 2 ranks), where
#   the library loads; otherwise the header says why they did not run
# --vendor openacc runs the same on gcc's OpenACC (on its host device where
# nothing offloads: a dry run of this script on any machine, where MPI reads
# that memory, so both direct and staged runs are made); managed memory is
# then left out, as OpenACC has none.
# --quick runs the same checks on small sizes (a test of this script:
# tests/device/check.sh runs it with --vendor openacc).
# --mps (CUDA) runs the checks under the Multi-Process Service: on a node
# with one GPU the two ranks share it, and without MPS their processes
# time-slice it, so each staged copy waits for a context switch.
# Output: the table on stdout and in BUILD/validate/table.txt; each check's
# full output in BUILD/validate/logs/. The limits: devcopy_bw d2d, h2d, d2h.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
TOP=$PWD
BUILD=build-validate
DEBS=
MPI_PREFIX=
MPI_SRC=
CHECK_TIMEOUT=120
VENDOR=
MPS=0
QUICK=0
while [ $# -gt 0 ]; do
    case $1 in
    --debs) DEBS=${2:?--debs DIR}; shift 2 ;;
    --debs=*) DEBS=${1#*=}; shift ;;
    --mpi) MPI_PREFIX=${2:?--mpi PREFIX}; shift 2 ;;
    --mpi=*) MPI_PREFIX=${1#*=}; shift ;;
    --build-mpi) MPI_SRC=${2:?--build-mpi SRC}; shift 2 ;;
    --build-mpi=*) MPI_SRC=${1#*=}; shift ;;
    --build) BUILD=${2:?--build DIR}; shift 2 ;;
    --build=*) BUILD=${1#*=}; shift ;;
    --mps) MPS=1; shift ;;
    --quick) QUICK=1; shift ;;
    --vendor) VENDOR=${2:?--vendor NAME}; shift 2 ;;
    --vendor=*) VENDOR=${1#*=}; shift ;;
    --timeout) CHECK_TIMEOUT=${2:?--timeout SECONDS}; shift 2 ;;
    --timeout=*) CHECK_TIMEOUT=${1#*=}; shift ;;
    -h | --help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "validate.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
    esac
done
die() { echo "validate.sh: $*" >&2; exit 2; }
case $CHECK_TIMEOUT in '' | *[!0-9]* | 0) die "--timeout takes whole seconds" ;; esac
[ -n "$MPI_PREFIX" ] && [ -n "$MPI_SRC" ] && die "--mpi and --build-mpi exclude each other: give one MPI"
case $BUILD in /*) ;; *) BUILD=$TOP/$BUILD ;; esac
RESULTS=$BUILD/validate
mkdir -p "$RESULTS/logs" || exit 2
started=$(date +%s)

# --- The vendor and its GPU, first: a machine without one is told at once,
# before anything is built.
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
ROCM_PATH=${ROCM_PATH:-/opt/rocm}
if [ -z "$VENDOR" ]; then
    if [ -f "$CUDA_HOME/include/cuda_runtime_api.h" ]; then VENDOR=cuda
    elif [ -f "$ROCM_PATH/include/hip/hip_runtime_api.h" ]; then VENDOR=hip
    else die "no CUDA toolkit ($CUDA_HOME) or ROCm ($ROCM_PATH): set CUDA_HOME or ROCM_PATH"
    fi
fi
MANAGED=(managed)
case $VENDOR in
cuda)
    OSU_D=cuda MAKE_VENDOR=(CUDA=1 "CUDA_HOME=$CUDA_HOME")
    GPU=$(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2> /dev/null | head -n 1) ;;
hip)
    OSU_D=rocm MAKE_VENDOR=(HIP=1 "HIP_HOME=$ROCM_PATH")
    GPU=$(rocm-smi --showproductname 2> /dev/null | grep -m1 -i 'card series' | sed 's/.*: *//') ;;
openacc)
    OSU_D=openacc MAKE_VENDOR=(OPENACC=1) MANAGED=()
    GPU="the OpenACC runtime's device" ;;
*) die "--vendor $VENDOR: give cuda, hip or openacc" ;;
esac
# Open MPI 4.1 reads device memory of CUDA only (ROCm through UCX, which a
# machine without a registry does not have).
[ -z "$MPI_SRC" ] || [ "$VENDOR" = cuda ] || die "--build-mpi builds Open MPI with CUDA support: not for --vendor $VENDOR"
[ -n "$GPU" ] || die "no $VENDOR GPU answers (nvidia-smi / rocm-smi)"

# --- MPI, hwloc and GSL: installed, a site's own MPI, Open MPI built from
# source, or unpacked from carried packages.
has_header() { # HEADER: the C compiler finds it (with CPATH)
    printf '#include <%s>\n' "$1" | "${CC:-cc}" -E -x c - > /dev/null 2>&1
}
if [ -z "$DEBS" ] && [ -d .debs ]; then
    if [ -n "$MPI_PREFIX$MPI_SRC" ]; then
        has_header hwloc.h && has_header gsl/gsl_statistics_double.h || DEBS=.debs
    elif ! command -v mpicc > /dev/null; then
        DEBS=.debs
    fi
fi
if [ -n "$DEBS" ]; then
    [ -d "$DEBS" ] || die "--debs $DEBS: no such folder"
    P=$BUILD/prefix
    rm -rf "$P"
    mkdir -p "$P/bin"
    n=0 left=0
    for deb in "$DEBS"/*.deb; do
        [ -e "$deb" ] || break
        if [ -n "$MPI_PREFIX$MPI_SRC" ]; then
            # The MPI comes from elsewhere: Debian's Open MPI and PMIx stay
            # packed, so that no second libmpi can be found before its own.
            case $(dpkg-deb -f "$deb" Package 2> /dev/null) in
            openmpi-* | libopenmpi* | libpmix*) left=$((left + 1)); continue ;;
            esac
        fi
        dpkg-deb -x "$deb" "$P" || die "cannot unpack $deb"
        n=$((n + 1))
    done
    [ "$n" -gt 0 ] || die "--debs $DEBS holds no .deb files (tests/device/fetch-debs.sh makes them)"
    L=
    for d in "$P"/usr/lib/*-linux-gnu; do [ -d "$d" ] && L=$d && break; done
    [ -n "$L" ] || die "--debs $DEBS: no usr/lib/*-linux-gnu in its packages"
    export CPATH=$P/usr/include${CPATH:+:$CPATH}
    export LIBRARY_PATH=$L${LIBRARY_PATH:+:$LIBRARY_PATH}
    export LD_LIBRARY_PATH=$L${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    if [ -z "$MPI_PREFIX$MPI_SRC" ]; then
        [ -x "$P/usr/bin/opal_wrapper" ] || die "$DEBS has no Open MPI (openmpi-bin, libopenmpi-dev)"
        # Debian's Open MPI is relocatable: OPAL_PREFIX moves every path it
        # derives from /usr; PMIx's components are found through its own path.
        ln -sf ../usr/bin/opal_wrapper "$P/bin/mpicc"
        ln -sf ../usr/bin/orterun "$P/bin/mpirun"
        export OPAL_PREFIX=$P/usr PMIX_PREFIX=$L/pmix2
        export PMIX_MCA_mca_base_component_path=$L/pmix2/lib/pmix
        # PMIx also searches its built-in folder, where the machine's own (other)
        # PMIx may keep a compression component that does not load into this
        # one: it is not needed by a one-node job.
        export PMIX_MCA_pcompress=^zlib PMIX_MCA_pcompress_base_silence_warning=1
        export PATH=$P/bin:$P/usr/bin:$PATH
        export LD_LIBRARY_PATH=$L/openmpi/lib:$LD_LIBRARY_PATH
        MPI_FROM="Debian packages from $DEBS ($n), unpacked into $P"
    else
        DEPS_FROM="; hwloc and GSL from $DEBS ($n packages unpacked into $P, $left of Open MPI left packed)"
    fi
fi

# build_mpi SRC PREFIX: Open MPI with CUDA support, from Debian's source
# package folder, its .orig.tar or an unpacked tree (built as it is), into
# PREFIX. From the folder or the tarball Debian's patches are not applied:
# they concern packaging, Fortran and other architectures, and applying them
# would need autotools to regenerate the build files. Everything a one-node proof does not use is left out, so
# that it builds in minutes: Fortran, C++, Java, OpenSHMEM, MPI-IO, the
# network libraries (UCX, verbs, OFI, PSM), batch systems; hwloc, libevent
# and PMIx are the copies bundled in Open MPI's own tarball, so nothing but
# the CUDA toolkit and a compiler is needed.
# shellcheck disable=SC2054 # the commas are in one option's list
MPI_CONFIGURE=(--with-cuda="$CUDA_HOME"
    --with-hwloc=internal --with-libevent=internal --with-pmix=internal
    --disable-mpi-fortran --disable-oshmem --disable-mpi-cxx --disable-mpi-java
    --disable-io-romio --without-ucx --without-verbs --without-ofi --without-psm --without-psm2
    --without-mxm --without-portals4 --without-ugni --without-knem --without-xpmem
    --without-hcoll --without-fca --without-lustre --without-gpfs --without-pvfs2 --without-ime
    --without-tm --without-lsf --without-alps --without-slurm --without-sge --without-valgrind
    --enable-mca-no-build=io-ompio,common-ompio,fcoll,fbtl,fs,sharedfp,topo-treematch,vprotocol,pml-v,coll-monitoring,pml-monitoring,osc-monitoring,common-monitoring,reachable-netlink
    --disable-dependency-tracking --disable-silent-rules)
build_mpi() {
    local src=$1 prefix=$2 work=$BUILD/mpi-build log=$RESULTS/logs/mpi-build.log
    local tarball='' tree='' f id t0 secs
    case $src in /*) ;; *) src=$TOP/$src ;; esac
    if [ -f "$src" ]; then
        tarball=$src
    elif [ -f "$src/configure" ] && [ -d "$src/ompi" ]; then
        tree=$src
    elif [ -d "$src" ]; then
        for f in "$src"/openmpi_*.orig.tar.* "$src"/openmpi-*.tar.*; do [ -f "$f" ] && tarball=$f && break; done
        if [ -z "$tarball" ]; then
            for f in "$src"/openmpi-*/configure; do [ -f "$f" ] && tree=${f%/configure} && break; done
        fi
    fi
    [ -n "$tarball$tree" ] || die "--build-mpi $1: no Open MPI source there (tests/device/fetch-mpi-src.sh DIR fetches it)"
    # What was built, and how: the same again is not rebuilt.
    if [ -n "$tarball" ]; then
        id="tarball $(sha256sum < "$tarball" | cut -c1-64)"
    else
        id="tree $tree $({ sha256sum < "$tree/VERSION"; } 2> /dev/null | cut -c1-64)"
    fi
    id="$id configure ${MPI_CONFIGURE[*]}"
    if [ -x "$prefix/bin/mpicc" ] && [ "$(cat "$prefix/.commsweep-build" 2> /dev/null)" = "$id" ]; then
        MPI_BUILT="built earlier from $1, reused"
        return 0
    fi
    echo "# validate.sh: building Open MPI with CUDA support from $1 into $prefix (log: $log)"
    t0=$(date +%s)
    rm -rf "$work" "$prefix"
    mkdir -p "$work/obj" || die "cannot create $work"
    {
        echo "# source: ${tarball:-$tree}"
        echo "# configure --prefix=$prefix ${MPI_CONFIGURE[*]}"
    } > "$log"
    if [ -n "$tarball" ]; then
        mkdir -p "$work/src" || die "cannot create $work/src"
        tar -C "$work/src" --strip-components=1 -xf "$tarball" >> "$log" 2>&1 ||
            die "building Open MPI: cannot unpack $tarball (log: $log)"
        tree=$work/src
    fi
    # Built outside the source tree, so that a carried tree stays as it
    # came. A patched tree's Makefile.am files are newer than the
    # Makefile.in they made: make's AUTOMAKE and friends are turned into
    # no-ops, as the machine may have no autotools.
    local noauto=(AUTOMAKE=true ACLOCAL=true AUTOCONF=true AUTOHEADER=true)
    local step
    for step in configure make install; do
        echo "# --- $step ($(($(date +%s) - t0)) s)" >> "$log"
        case $step in
        configure) (cd "$work/obj" && "$tree/configure" --prefix="$prefix" "${MPI_CONFIGURE[@]}") >> "$log" 2>&1 ;;
        make) make -C "$work/obj" -j"$(nproc)" "${noauto[@]}" >> "$log" 2>&1 ;;
        install) make -C "$work/obj" -j"$(nproc)" "${noauto[@]}" install >> "$log" 2>&1 ;;
        esac || die "building Open MPI failed at $step: $(grep -E -m1 'configure: error|error:|Error [0-9]' "$log" | cut -c1-160) (log: $log)"
    done
    [ -x "$prefix/bin/mpicc" ] || die "building Open MPI: no $prefix/bin/mpicc after make install (log: $log)"
    printf '%s\n' "$id" > "$prefix/.commsweep-build"
    secs=$(($(date +%s) - t0))
    echo "# --- done in $secs s" >> "$log"
    MPI_BUILT="built from $1 in $secs s"
}
if [ -n "$MPI_SRC" ]; then
    build_mpi "$MPI_SRC" "$BUILD/mpi"
    MPI_PREFIX=$BUILD/mpi
fi
if [ -n "$MPI_PREFIX" ]; then
    case $MPI_PREFIX in /*) ;; *) MPI_PREFIX=$TOP/$MPI_PREFIX ;; esac
    [ -x "$MPI_PREFIX/bin/mpicc" ] || die "--mpi $MPI_PREFIX: no $MPI_PREFIX/bin/mpicc"
    [ -x "$MPI_PREFIX/bin/mpirun" ] || die "--mpi $MPI_PREFIX: no $MPI_PREFIX/bin/mpirun"
    # Its own libraries before any others (a wrapper's runpath gives way
    # to LD_LIBRARY_PATH); mpicc and mpirun named, not searched for.
    for d in "$MPI_PREFIX/lib64" "$MPI_PREFIX/lib"; do
        [ -d "$d" ] && export LD_LIBRARY_PATH=$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    done
    export PATH=$MPI_PREFIX/bin:$PATH MPICC=$MPI_PREFIX/bin/mpicc MPIEXEC=$MPI_PREFIX/bin/mpirun
    if [ -n "$MPI_SRC" ]; then
        MPI_FROM="Open MPI with CUDA support, $MPI_BUILT, in $MPI_PREFIX"
    else
        MPI_FROM="--mpi $MPI_PREFIX"
    fi
    MPI_FROM=$MPI_FROM${DEPS_FROM:-}
elif [ -z "$DEBS" ]; then
    MPI_FROM="installed ($(command -v mpicc || echo 'no mpicc'))"
fi
command -v "${MPICC:-mpicc}" > /dev/null || die "no mpicc: install MPI, give --mpi PREFIX or --build-mpi SRC, or carry Debian's packages (--debs)"
command -v mpirun > /dev/null || die "no mpirun: install MPI, give --mpi PREFIX or --build-mpi SRC, or carry Debian's packages (--debs)"
MAKE_MPI=()
[ -n "$MPI_PREFIX" ] && MAKE_MPI=(MPICC="$MPICC")

if [ "$MPS" = 1 ]; then
    [ "$VENDOR" = cuda ] || die "--mps is CUDA's Multi-Process Service: not for $VENDOR"
    command -v nvidia-cuda-mps-control > /dev/null || die "--mps: no nvidia-cuda-mps-control here"
    export CUDA_MPS_PIPE_DIRECTORY=$RESULTS/mps-pipe CUDA_MPS_LOG_DIRECTORY=$RESULTS/mps-log
    mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
    nvidia-cuda-mps-control -d || die "--mps: nvidia-cuda-mps-control -d failed"
    trap 'echo quit | nvidia-cuda-mps-control' EXIT
fi

# --- Build: every program, warnings as errors, no cmocka needed.
echo "# validate.sh: building with ${MAKE_VENDOR[*]} ${MAKE_MPI[*]} into $BUILD"
if ! make -j"$(nproc)" "${MAKE_VENDOR[@]}" "${MAKE_MPI[@]}" BUILD="$BUILD" > "$RESULTS/logs/build.log" 2>&1; then
    tail -n 20 "$RESULTS/logs/build.log" >&2
    die "the build failed (log: $RESULTS/logs/build.log)"
fi

# shellcheck disable=SC1091 # checked on its own
. "$TOP/machines/launcher.sh"
launcher_defaults mpirun
# With OMB's defaults the OSU programs print their run description (each
# rank's device, how device data reach MPI) only when asked; the probe's
# verdict and the shared-GPU note are read from it.
export COMMSWEEP_DESCRIBE=1
MPI_VERSION=$("$MPIEXEC" --version 2>&1 | head -n 1)
mpi_run() { # ARGS...: under the launcher, within each check's time limit
    # shellcheck disable=SC2086 # the launcher's flags are words
    timeout -k 5 "$CHECK_TIMEOUT" $MPIEXEC $MPIEXEC_FLAGS "$@"
}

# --- Does MPI read device memory? The first device run, before anything
# is timed, answers: a run without --staging passes (the program's own
# probe transfer from device memory arrived intact, and its header says so),
# or is refused (status 2, one line naming --staging: the library says it
# cannot, or its probe transfer faulted).
probe_out=$RESULTS/logs/probe.txt
mpi_run -n 2 "$BUILD/osu/osu_latency" -d "$OSU_D" \
    -m 1:8 -i 2 -x 1 D D > "$probe_out" 2>&1
probe_rc=$?
if [ "$probe_rc" = 0 ]; then
    MODES=(direct staged)
    DEVICE_DATA="direct: MPI reads device memory; the probe run osu_latency -d $OSU_D D D says: $(grep -m1 '^# device data:' "$probe_out" | sed 's/^# device data: //')"
    DIRECT_NOTE="each device mode runs direct and staged (--staging); direct/staged: the direct figure over the staged one (MB/s: above 1, direct is faster; us: below 1)"
elif [ "$probe_rc" = 2 ] && grep -q -- '--staging' "$probe_out"; then
    MODES=(staged)
    said=$(grep -m1 -- '--staging' "$probe_out" | sed 's/^[^:]*: //')
    DEVICE_DATA="staged: MPI does not read device memory: $said"
    DIRECT_NOTE="direct rows not run: the probe run (osu_latency -d $OSU_D D D, no --staging) was refused, as above, so no device pointer goes to this MPI; every device mode runs staged (--staging) only"
else
    cat "$probe_out" >&2
    die "the first device run failed with status $probe_rc (log: $probe_out)"
fi

# --- The checks. Each row: name, ranks, PASS/FAIL, seconds, and its
# headline figure (peak MB/s, or latency in us) for the table, with the
# device mode's name and whether it ran direct or staged, so that the table
# can set the two side by side.
ROWS=()
FAILED=0
ROW_MODE='' ROW_KEY=''
peak() { # column of a 'size value ...' table: the largest value
    awk -v c="$1" '!/^#/ && NF >= c && $1 ~ /^[0-9]+$/ { if ($c + 0 > m) m = $c + 0 } END { if (m) printf "%.2f", m }'
}
check() { # NAME NP KIND PROGRAM ARGS...  (KIND: osu_bw, osu_lat, a2a, always)
    local name np=$2 kind=$3 log t0 rc ok figure=
    name=$(echo "$1" | tr -s " " | sed "s/ $//")
    shift 3
    log="$RESULTS/logs/$(printf '%s' "$name" | tr -c 'A-Za-z0-9_.-' '_')-np$np.txt"
    t0=$(date +%s.%N)
    mpi_run -n "$np" "$@" > "$log" 2> "$log.err"
    rc=$?
    local secs
    secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
    local data
    data=$(grep -v '^#' "$log" | grep -c '[0-9]')
    ok=0
    case $kind in
    osu_*) [ "$rc" = 0 ] && [ "$data" -gt 0 ] && ! grep -v '^#' "$log" | grep '[0-9]' | grep -qv 'Pass$' && ok=1 ;;
    refused) # status 2 and one line, from the rank that refused, naming it and its host
        [ "$rc" = 2 ] && [ "$(grep -cE '^[a-z_]+: rank [0-9]+ on [^ ]+: ' "$log.err")" = 1 ] && ok=1 ;;
    *) [ "$rc" = 0 ] && [ "$data" -gt 0 ] && ok=1 ;;
    esac
    case $kind in
    osu_bw) figure="$(peak 2 < "$log") MB/s" ;;
    osu_lat) figure="$(awk '!/^#/ && $1 == 8 { print $2 }' "$log") us at 8 B" ;;
    a2a) # the best GiBps_avg
        figure="$(awk '!/^#/ && NF >= 9 { if ($8 + 0 > m) m = $8 + 0 } END { printf "%.2f", m * 1073.741824 }' "$log") MB/s" ;;
    always) figure="$(awk '!/^#/ && NF == 7 { if ($7 + 0 > m) m = $7 + 0 } END { printf "%.2f", m * 1073.741824 }' "$log") MB/s" ;;
    esac
    [ "$kind" = refused ] && figure="status $rc, $(grep -cE '^[a-z_]+: rank [0-9]+ on ' "$log.err") line"
    [ "$rc" = 124 ] || [ "$rc" = 137 ] && figure="timed out after ${CHECK_TIMEOUT} s"
    add_row "$ok" "$name" "$np" "$secs" "$figure" "$rc" "$log.err"
}
add_row() { # OK NAME NP SECONDS FIGURE STATUS STDERR_FILE (and ROW_MODE, ROW_KEY)
    local ok=$1 name=$2 np=$3 secs=$4 figure=$5 rc=$6
    if [ "$ok" = 1 ]; then
        ROWS+=("PASS|$name|$np|$secs|$figure|$ROW_MODE|$ROW_KEY")
    else
        ROWS+=("FAIL|$name|$np|$secs|status $rc: $(head -n 1 "$7" | cut -c1-70)|$ROW_MODE|$ROW_KEY")
        FAILED=$((FAILED + 1))
    fi
    printf '# %s %s (%s s)\n' "$([ "$ok" = 1 ] && echo PASS || echo FAIL)" "$name" "$secs"
}
# device_check KEY NAME_BEFORE NAME_AFTER NP KIND PROGRAM ARGS... -- ARGS...:
# one device mode, run direct and staged where MPI reads device memory,
# staged only where it does not; --staging goes in between the two
# argument lists (and the two parts of the name).
device_check() {
    local key=$1 before=$2 after=$3 np=$4 kind=$5 mode
    shift 5
    local head=() tail=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do head+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    tail=("$@")
    for mode in "${MODES[@]}"; do
        local st=()
        [ "$mode" = staged ] && st=(--staging)
        ROW_MODE=$mode ROW_KEY=$key
        check "$before ${st[*]} $after" "$np" "$kind" "${head[@]}" "${st[@]}" "${tail[@]}"
    done
    ROW_MODE='' ROW_KEY=''
}

B=$BUILD
if [ "$QUICK" = 1 ]; then
    LAT_SIZES=(-m 1:65536 -i 5 -x 1) BW_SIZES=(-m 1:65536 -i 5 -x 1) RED_SIZES=(-m 4:65536 -i 5 -x 1)
    A2A_ARGS=(contig 2 4096) ALLER_ARGS=(contig 2 512) ALWAYS_ARGS=(--time-limit=0.01 65536)
    COPY_MAX=1048576
else
    LAT_SIZES=(-m 1:4194304 -i 100 -x 10) BW_SIZES=(-m 1:16777216 -i 20 -x 5)
    RED_SIZES=(-m 4:16777216 -i 20 -x 5)
    A2A_ARGS=(contig 5 1048576) ALLER_ARGS=(contig 3 65536) ALWAYS_ARGS=(--time-limit=0.05 16777216)
    COPY_MAX=268435456
fi
echo "# validate.sh: checks (device data: $DEVICE_DATA)"
for prog in osu_latency osu_bw osu_bibw; do
    kind=osu_bw sizes=("${BW_SIZES[@]}")
    [ "$prog" = osu_latency ] && kind=osu_lat sizes=("${LAT_SIZES[@]}")
    for where in "D D" "H D"; do
        # shellcheck disable=SC2086 # the placement is two words
        device_check "$prog $where" "$prog -d $OSU_D" "$where" 2 "$kind" "$B/osu/$prog" -d "$OSU_D" -c \
            "${sizes[@]}" -- $where
    done
    # Managed memory is host-readable: MPI gets it as is, never staged.
    [ "${#MANAGED[@]}" -gt 0 ] && check "$prog -d $OSU_D MD MD" 2 "$kind" "$B/osu/$prog" -d "$OSU_D" -c "${sizes[@]}" MD MD
done
device_check osu_allreduce "osu_allreduce -d $OSU_D" "" 2 osu_lat "$B/osu/osu_allreduce" -d "$OSU_D" -c \
    "${RED_SIZES[@]}" --
for np in 1 2; do
    for prog in alltoall/all alltoall/aller always/all always/iall; do
        kind=a2a args=("${A2A_ARGS[@]}")
        [ "$prog" = alltoall/aller ] && args=("${ALLER_ARGS[@]}")
        [ "${prog%%/*}" = always ] && kind=always args=("${ALWAYS_ARGS[@]}")
        device_check "$prog" "$prog --memory=$VENDOR" "" "$np" "$kind" "$B/$prog" --memory="$VENDOR" -- "${args[@]}"
    done
done
for mem in "${MANAGED[@]}"; do
    for np in 1 2; do
        check "alltoall/all --memory=$mem" "$np" a2a "$B/alltoall/all" --memory="$mem" "${A2A_ARGS[@]}"
        check "alltoall/aller --memory=$mem" "$np" a2a "$B/alltoall/aller" --memory="$mem" "${ALLER_ARGS[@]}"
        check "always/all --memory=$mem" "$np" always "$B/always/all" --memory="$mem" "${ALWAYS_ARGS[@]}"
        check "always/iall --memory=$mem" "$np" always "$B/always/iall" --memory="$mem" "${ALWAYS_ARGS[@]}"
    done
done

# --- What the device layer promises, seen on the GPU.
# Worker threads select the rank's device before they copy.
device_check osu_latency_mt "osu_latency_mt -d $OSU_D" "-t 2:2" 2 osu_lat "$B/osu/osu_latency_mt" -d "$OSU_D" -c \
    -t 2:2 "${LAT_SIZES[@]}" --
# Rearrangements of device blocks (aller's 2d and 3d) land before MPI reads them.
device_check "aller 2d,3d" "alltoall/aller --algorithm=2d,3d --memory=$VENDOR" "" 4 a2a "$B/alltoall/aller" \
    --algorithm=2d,3d --memory="$VENDOR" -- "${ALLER_ARGS[@]}"
# --staging writes no host copy while a send from it is pending: a
# preloaded probe makes the pages of every pending MPI_Isend read-only.
check "osu_bw -d $OSU_D --staging, pending sends read-only" 2 osu_bw \
    env LD_PRELOAD="$B/tests/pmpi/pending_send_probe.so" "$B/osu/osu_bw" -d "$OSU_D" -c \
    -m 4096:1048576 -i 10 -x 2 --staging
# A refusal that only one rank reaches ends every rank, with one line.
check "one rank refuses device buffers (GPU_AWARE 1, 0)" 2 refused \
    env COMMSWEEP_GPU_AWARE=1 "$B/osu/osu_latency" -d "$OSU_D" D D -m 1:8 -i 2 -x 1 \
    : -n 1 env COMMSWEEP_GPU_AWARE=0 "$B/osu/osu_latency" -d "$OSU_D" D D -m 1:8 -i 2 -x 1
# A run on host buffers creates no GPU context: nvidia-smi lists no compute
# process while it runs (and does list the device run's, which shows it can).
contexts_seen() { # PROGRAM ARGS...: runs it, prints the most compute processes seen
    local most=0 k pid
    mpi_run -n 2 "$@" > /dev/null 2>&1 &
    pid=$!
    while kill -0 "$pid" 2> /dev/null; do
        k=$(nvidia-smi --query-compute-apps=pid --format=csv,noheader 2> /dev/null | grep -c '[0-9]')
        [ "$k" -gt "$most" ] && most=$k
        sleep 0.2
    done
    wait "$pid" && echo "$most"
}
if [ "$VENDOR" = cuda ] && [ "$MPS" = 0 ]; then
    t0=$(date +%s)
    host=$(contexts_seen "$B/osu/osu_latency" -m 1:1 -i 300000 -x 10)
    device=$(contexts_seen "$B/osu/osu_latency" -d cuda -m 1:1 -i 20000 -x 10 --staging D D)
    ok=0
    [ "$host" = 0 ] && [ "${device:-0}" -ge 1 ] && ok=1
    : > "$RESULTS/logs/contexts.err"
    [ "$ok" = 1 ] || echo "compute processes seen: host run ${host:-failed}, device run ${device:-failed}" > "$RESULTS/logs/contexts.err"
    add_row "$ok" "osu_latency on host buffers: no GPU context" 2 "$(( $(date +%s) - t0 ))" \
        "${host:-?} (device run: ${device:-?})" 1 "$RESULTS/logs/contexts.err"
fi

# --- NCCL or RCCL (osu_xccl_*, in CUDA=1 and HIP=1 builds), where the
# library loads: each program at 2 ranks with its data checked. A first
# short run says whether it loads and which version it is; where it does
# not (no libnccl.so.2 / librccl.so on the machine), the programs are
# left out and the table's header says why.
XCCL_NOTE="xccl: not in this build ($VENDOR)"
if [ -x "$B/osu/osu_xccl_allreduce" ]; then
    log=$RESULTS/logs/xccl-probe.txt
    mpi_run -n 2 "$B/osu/osu_xccl_allreduce" -m 4:8 -i 2 -x 1 > "$log" 2> "$log.err"
    rc=$?
    if [ "$rc" = 0 ]; then
        XCCL_NOTE=$(grep -m1 '^# xccl: ' "$log" | sed 's/^# //')
        [ -n "$XCCL_NOTE" ] || XCCL_NOTE="xccl: loaded (version not printed)"
        for p in latency bw bibw allreduce allgather alltoall bcast reduce reduce_scatter; do
            kind=osu_lat sizes=("${RED_SIZES[@]}")
            case $p in
            latency) sizes=("${LAT_SIZES[@]}") ;;
            bw | bibw) kind=osu_bw sizes=("${BW_SIZES[@]}") ;;
            esac
            check "osu_xccl_$p" 2 "$kind" "$B/osu/osu_xccl_$p" -c "${sizes[@]}"
        done
    else
        XCCL_NOTE="xccl: not run: $(grep -m1 -E '^[a-z_]+: ' "$log.err" | sed 's/^[^:]*: //' | cut -c1-160) (status $rc)"
    fi
fi

# --- The physical limits, in the same run.
declare -A LIMIT
for dir in d2d h2d d2h; do
    log=$RESULTS/logs/devcopy_bw_$dir.txt
    mpi_run -n 1 "$B/tests/bench/devcopy_bw" "$COPY_MAX" 20 "$dir" \
        > "$log" 2> "$log.err"
    LIMIT[$dir]=$(peak 2 < "$log")
done

# Ranks that share one GPU (the same PCI bus id in a run's header).
SHARED=
[ "$VENDOR" = openacc ] || SHARED=$(grep -h '^# rank [0-9]* device:' "$RESULTS"/logs/osu_latency*D_D*.txt 2> /dev/null |
         awk '{ print $NF }' | sort | uniq -d | head -n 1)

# --- The table.
ratio() { # FIGURE LIMIT
    awk -v f="$1" -v l="$2" 'BEGIN { if (f > 0 && l > 0) printf "%.3f", f / l; else printf "-" }'
}
number() { # FIGURE: its number, when it is MB/s or us
    case $1 in *" MB/s" | *" us at "*) echo "${1%% *}" ;; *) echo 0 ;; esac
}
# The staged figure of each device mode and rank count, for its direct row.
declare -A STAGED
for row in "${ROWS[@]}"; do
    IFS='|' read -r res name np secs figure mode key <<< "$row"
    [ "$mode" = staged ] && [ "$res" = PASS ] && STAGED["$key|$np"]=$(number "$figure")
done
{
    echo "# commsweep GPU validation, $(date -u +%Y-%m-%dT%H:%M:%SZ), $(hostname)"
    echo "# GPU: $GPU ($VENDOR, build ${MAKE_VENDOR[*]})"
    echo "# MPI: $MPI_VERSION; $MPI_FROM"
    echo "# device data: $DEVICE_DATA"
    echo "# $DIRECT_NOTE"
    echo "# $XCCL_NOTE"
    echo "# limits (peak MB/s, 10^6 B/s): device-to-device copy ${LIMIT[d2d]:-?}," \
         "pinned host-to-device ${LIMIT[h2d]:-?}, device-to-pinned host ${LIMIT[d2h]:-?}"
    if [ -n "$SHARED" ]; then
        if [ "$MPS" = 1 ]; then
            echo "# the 2-rank checks share one GPU ($SHARED), under MPS"
        else
            echo "# the 2-rank checks share one GPU ($SHARED): without MPS (--mps) their processes" \
                 "time-slice it, and each staged copy waits for a context switch"
        fi
    fi
    printf '%-6s %-60s %5s %8s %24s %8s %8s %13s\n' result check ranks seconds figure "/d2d" "/h2d" "direct/staged"
    for row in "${ROWS[@]}"; do
        IFS='|' read -r res name np secs figure mode key <<< "$row"
        r1=- r2=- r3=-
        case $figure in *" MB/s")
            v=${figure% MB/s}
            r1=$(ratio "$v" "${LIMIT[d2d]:-0}") r2=$(ratio "$v" "${LIMIT[h2d]:-0}") ;;
        esac
        [ "$mode" = direct ] && [ "$res" = PASS ] && r3=$(ratio "$(number "$figure")" "${STAGED["$key|$np"]:-0}")
        printf '%-6s %-60s %5s %8.2f %24s %8s %8s %13s\n' "$res" "$name" "$np" "$secs" "$figure" "$r1" "$r2" "$r3"
    done
    echo "# $(( ${#ROWS[@]} - FAILED )) passed, $FAILED failed, $(( $(date +%s) - started )) s in all"
} | tee "$RESULTS/table.txt"
[ "$FAILED" = 0 ]
