#!/usr/bin/env bash
# validate.sh: the GPU proof in one command, on one GPU node. It builds the
# suite for the vendor it finds (CUDA=1, or HIP=1 where ROCm is found), runs
# every device mode with its data checked (-c), times the physical limits
# (a bare device-to-device copy loop and pinned host-device copy loops) in
# the same run, and prints a pass/fail table with each device bandwidth's
# ratio to those limits. Exit status 0 when every check passed, 1 when one
# failed, 2 when it cannot start (no GPU, no toolkit, no MPI).
#
#   tests/device/validate.sh [--debs DIR] [--build DIR] [--timeout SECONDS]
#                            [--vendor cuda|hip|openacc] [--mps] [--quick]
#
# The GPU machine needs the vendor toolkit, gcc and make. MPI, hwloc and
# GSL may be missing: fetch Debian's packages on a machine with a registry
# (tests/device/fetch-debs.sh DIR), carry DIR beside the sources, and give
# --debs DIR (default: .debs when it exists and mpicc does not). They are
# unpacked with dpkg -x into BUILD/prefix and used from there (Open MPI
# relocated through OPAL_PREFIX). Device pointers go to MPI when the library
# says it reads them; otherwise every run of device buffers is staged
# (--staging) and the table says so.
#
# Checks (each with -c, each under its own time limit):
#   osu_latency, osu_bw, osu_bibw with D D, H D and MD MD (2 ranks)
#   osu_allreduce on device buffers (2 ranks)
#   alltoall/all, alltoall/aller, always/all, always/iall with
#   --memory=VENDOR and --memory=managed at 1 and 2 ranks
# --vendor openacc runs the same on gcc's OpenACC (on its host device where
# nothing offloads: a dry run of this script on any machine); managed memory
# is then left out, as OpenACC has none.
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
CHECK_TIMEOUT=120
VENDOR=
MPS=0
QUICK=0
while [ $# -gt 0 ]; do
    case $1 in
    --debs) DEBS=${2:?--debs DIR}; shift 2 ;;
    --debs=*) DEBS=${1#*=}; shift ;;
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
case $CHECK_TIMEOUT in '' | *[!0-9]* | 0) echo "validate.sh: --timeout takes whole seconds" >&2; exit 2 ;; esac
case $BUILD in /*) ;; *) BUILD=$TOP/$BUILD ;; esac
RESULTS=$BUILD/validate
mkdir -p "$RESULTS/logs" || exit 2
started=$(date +%s)
die() { echo "validate.sh: $*" >&2; exit 2; }

# --- MPI, hwloc and GSL: installed, or unpacked from carried packages.
if [ -z "$DEBS" ] && ! command -v mpicc > /dev/null && [ -d .debs ]; then
    DEBS=.debs
fi
if [ -n "$DEBS" ]; then
    [ -d "$DEBS" ] || die "--debs $DEBS: no such folder"
    P=$BUILD/prefix
    rm -rf "$P"
    mkdir -p "$P/bin"
    n=0
    for deb in "$DEBS"/*.deb; do
        [ -e "$deb" ] || break
        dpkg-deb -x "$deb" "$P" || die "cannot unpack $deb"
        n=$((n + 1))
    done
    [ "$n" -gt 0 ] || die "--debs $DEBS holds no .deb files (tests/device/fetch-debs.sh makes them)"
    [ -x "$P/usr/bin/opal_wrapper" ] || die "$DEBS has no Open MPI (openmpi-bin, libopenmpi-dev)"
    arch=$(ls "$P/usr/lib" | grep -m1 -- '-linux-gnu$')
    L=$P/usr/lib/$arch
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
    export CPATH=$P/usr/include${CPATH:+:$CPATH}
    export LIBRARY_PATH=$L${LIBRARY_PATH:+:$LIBRARY_PATH}
    export LD_LIBRARY_PATH=$L:$L/openmpi/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    MPI_FROM="Debian packages from $DEBS ($n), unpacked into $P"
else
    MPI_FROM="installed ($(command -v mpicc || echo 'no mpicc'))"
fi
command -v mpicc > /dev/null || die "no mpicc: install MPI, or carry Debian's packages (--debs)"
command -v mpirun > /dev/null || die "no mpirun: install MPI, or carry Debian's packages (--debs)"

# --- The vendor and its GPU.
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
[ -n "$GPU" ] || die "no $VENDOR GPU answers (nvidia-smi / rocm-smi)"

if [ "$MPS" = 1 ]; then
    [ "$VENDOR" = cuda ] || die "--mps is CUDA's Multi-Process Service: not for $VENDOR"
    command -v nvidia-cuda-mps-control > /dev/null || die "--mps: no nvidia-cuda-mps-control here"
    export CUDA_MPS_PIPE_DIRECTORY=$RESULTS/mps-pipe CUDA_MPS_LOG_DIRECTORY=$RESULTS/mps-log
    mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
    nvidia-cuda-mps-control -d || die "--mps: nvidia-cuda-mps-control -d failed"
    trap 'echo quit | nvidia-cuda-mps-control' EXIT
fi

# --- Build: every program, warnings as errors, no cmocka needed.
echo "# validate.sh: building with ${MAKE_VENDOR[*]} into $BUILD"
if ! make -j"$(nproc)" "${MAKE_VENDOR[@]}" BUILD="$BUILD" > "$RESULTS/logs/build.log" 2>&1; then
    tail -n 20 "$RESULTS/logs/build.log" >&2
    die "the build failed (log: $RESULTS/logs/build.log)"
fi

. "$TOP/machines/launcher.sh"
launcher_defaults mpirun
MPI_VERSION=$("$MPIEXEC" --version 2>&1 | head -n 1)

# --- Does MPI read device memory? A run without --staging answers: refused
# (status 2, naming --staging) means no.
probe_out=$RESULTS/logs/probe.txt
timeout -k 5 "$CHECK_TIMEOUT" $MPIEXEC $MPIEXEC_FLAGS -n 2 "$BUILD/osu/osu_latency" -d "$OSU_D" \
    -m 1:8 -i 2 -x 1 D D > "$probe_out" 2>&1
probe_rc=$?
if [ "$probe_rc" = 0 ]; then
    STAGING=() DEVICE_DATA="MPI reads device memory itself ($(grep -m1 '^# device data:' "$probe_out" | sed 's/^# device data: //'))"
elif [ "$probe_rc" = 2 ] && grep -q -- '--staging' "$probe_out"; then
    STAGING=(--staging) DEVICE_DATA="staged: MPI does not read device memory ($(grep -m1 -- '--staging' "$probe_out" | sed 's/^[^:]*: //'))"
else
    cat "$probe_out" >&2
    die "the first device run failed with status $probe_rc (log: $probe_out)"
fi

# --- The checks. Each row: name, ranks, PASS/FAIL, seconds, and its
# headline figure (peak MB/s, or latency in us) for the table.
ROWS=()
FAILED=0
peak() { # column of a 'size value ...' table: the largest value
    awk -v c="$1" '!/^#/ && NF >= c && $1 ~ /^[0-9]+$/ { if ($c + 0 > m) m = $c + 0 } END { if (m) printf "%.2f", m }'
}
check() { # NAME NP KIND PROGRAM ARGS...  (KIND: osu_bw, osu_lat, a2a, always)
    local name np=$2 kind=$3 log t0 rc ok figure=
    name=$(echo "$1" | tr -s " " | sed "s/ $//")
    shift 3
    log="$RESULTS/logs/$(printf '%s' "$name" | tr -c 'A-Za-z0-9_.-' '_').txt"
    t0=$(date +%s.%N)
    timeout -k 5 "$CHECK_TIMEOUT" $MPIEXEC $MPIEXEC_FLAGS -n "$np" "$@" > "$log" 2> "$log.err"
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
add_row() { # OK NAME NP SECONDS FIGURE STATUS STDERR_FILE
    local ok=$1 name=$2 np=$3 secs=$4 figure=$5 rc=$6
    if [ "$ok" = 1 ]; then
        ROWS+=("PASS|$name|$np|$secs|$figure")
    else
        ROWS+=("FAIL|$name|$np|$secs|status $rc: $(head -n 1 "$7" | cut -c1-70)")
        FAILED=$((FAILED + 1))
    fi
    printf '# %s %s (%s s)\n' "$([ "$ok" = 1 ] && echo PASS || echo FAIL)" "$name" "$secs"
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
    places=("D D" "H D")
    [ "${#MANAGED[@]}" -gt 0 ] && places+=("MD MD")
    for where in "${places[@]}"; do
        st=("${STAGING[@]}")
        [ "$where" = "MD MD" ] && st=() # managed memory is host-readable: MPI gets it as is
        # shellcheck disable=SC2086 # the placement is two words
        check "$prog -d $OSU_D ${st[*]} $where" 2 "$kind" "$B/osu/$prog" -d "$OSU_D" -c "${sizes[@]}" "${st[@]}" $where
    done
done
check "osu_allreduce -d $OSU_D ${STAGING[*]}" 2 osu_lat "$B/osu/osu_allreduce" -d "$OSU_D" -c \
    "${RED_SIZES[@]}" "${STAGING[@]}"
for mem in "$VENDOR" "${MANAGED[@]}"; do
    st=()
    [ "$mem" = "$VENDOR" ] && st=("${STAGING[@]}")
    for np in 1 2; do
        check "alltoall/all --memory=$mem ${st[*]}" "$np" a2a "$B/alltoall/all" --memory="$mem" "${st[@]}" "${A2A_ARGS[@]}"
        check "alltoall/aller --memory=$mem ${st[*]}" "$np" a2a "$B/alltoall/aller" --memory="$mem" "${st[@]}" "${ALLER_ARGS[@]}"
        check "always/all --memory=$mem ${st[*]}" "$np" always "$B/always/all" --memory="$mem" "${st[@]}" "${ALWAYS_ARGS[@]}"
        check "always/iall --memory=$mem ${st[*]}" "$np" always "$B/always/iall" --memory="$mem" "${st[@]}" "${ALWAYS_ARGS[@]}"
    done
done

# --- What the device layer promises, seen on the GPU.
# Worker threads select the rank's device before they copy.
check "osu_latency_mt -d $OSU_D ${STAGING[*]} -t 2:2" 2 osu_lat "$B/osu/osu_latency_mt" -d "$OSU_D" -c \
    -t 2:2 "${LAT_SIZES[@]}" "${STAGING[@]}"
# Rearrangements of device blocks (aller's 2d and 3d) land before MPI reads them.
check "alltoall/aller --algorithm=2d,3d --memory=$VENDOR ${STAGING[*]}" 4 a2a "$B/alltoall/aller" \
    --algorithm=2d,3d --memory="$VENDOR" "${STAGING[@]}" "${ALLER_ARGS[@]}"
if [ "${#STAGING[@]}" -gt 0 ]; then
    # --staging writes no host copy while a send from it is pending: a
    # preloaded probe makes the pages of every pending MPI_Isend read-only.
    check "osu_bw -d $OSU_D --staging, pending sends read-only" 2 osu_bw \
        env LD_PRELOAD="$B/tests/pmpi/pending_send_probe.so" "$B/osu/osu_bw" -d "$OSU_D" -c \
        -m 4096:1048576 -i 10 -x 2 --staging
fi
# A refusal that only one rank reaches ends every rank, with one line.
check "one rank refuses device buffers (GPU_AWARE 1, 0)" 2 refused \
    env COMMSWEEP_GPU_AWARE=1 "$B/osu/osu_latency" -d "$OSU_D" D D -m 1:8 -i 2 -x 1 \
    : -n 1 env COMMSWEEP_GPU_AWARE=0 "$B/osu/osu_latency" -d "$OSU_D" D D -m 1:8 -i 2 -x 1
# A run on host buffers creates no GPU context: nvidia-smi lists no compute
# process while it runs (and does list the device run's, which shows it can).
contexts_seen() { # PROGRAM ARGS...: runs it, prints the most compute processes seen
    local most=0 k pid
    timeout -k 5 "$CHECK_TIMEOUT" $MPIEXEC $MPIEXEC_FLAGS -n 2 "$@" > /dev/null 2>&1 &
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
    device=$(contexts_seen "$B/osu/osu_latency" -d cuda -m 1:1 -i 20000 -x 10 "${STAGING[@]}" D D)
    ok=0
    [ "$host" = 0 ] && [ "${device:-0}" -ge 1 ] && ok=1
    : > "$RESULTS/logs/contexts.err"
    [ "$ok" = 1 ] || echo "compute processes seen: host run ${host:-failed}, device run ${device:-failed}" > "$RESULTS/logs/contexts.err"
    add_row "$ok" "osu_latency on host buffers: no GPU context" 2 "$(( $(date +%s) - t0 ))" \
        "${host:-?} (device run: ${device:-?})" 1 "$RESULTS/logs/contexts.err"
fi

# --- The physical limits, in the same run.
declare -A LIMIT
for dir in d2d h2d d2h; do
    log=$RESULTS/logs/devcopy_bw_$dir.txt
    timeout -k 5 "$CHECK_TIMEOUT" $MPIEXEC $MPIEXEC_FLAGS -n 1 "$B/tests/bench/devcopy_bw" "$COPY_MAX" 20 "$dir" \
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
{
    echo "# commsweep GPU validation, $(date -u +%Y-%m-%dT%H:%M:%SZ), $(hostname)"
    echo "# GPU: $GPU ($VENDOR, build ${MAKE_VENDOR[*]})"
    echo "# MPI: $MPI_VERSION; $MPI_FROM"
    echo "# device data: $DEVICE_DATA"
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
    printf '%-6s %-58s %5s %8s %24s %8s %8s\n' result check ranks seconds figure "/d2d" "/h2d"
    for row in "${ROWS[@]}"; do
        IFS='|' read -r res name np secs figure <<< "$row"
        r1=- r2=-
        case $figure in *" MB/s")
            v=${figure% MB/s}
            r1=$(ratio "$v" "${LIMIT[d2d]:-0}") r2=$(ratio "$v" "${LIMIT[h2d]:-0}") ;;
        esac
        printf '%-6s %-58s %5s %8.2f %24s %8s %8s\n' "$res" "$name" "$np" "$secs" "$figure" "$r1" "$r2"
    done
    echo "# $(( ${#ROWS[@]} - FAILED )) passed, $FAILED failed, $(( $(date +%s) - started )) s in all"
} | tee "$RESULTS/table.txt"
[ "$FAILED" = 0 ]
