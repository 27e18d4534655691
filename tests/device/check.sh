#!/bin/bash
# The device builds and what they can do on this machine. Each vendor whose
# headers are installed is built (warnings as errors) into its own folder:
# CUDA=1 (CUDA toolkit), HIP=1 (Debian's libamdhip64-dev), OPENACC=1 (gcc
# -fopenacc). Without a GPU, every CUDA and HIP device request must end with
# status 2 and one line, and a run on host buffers must not call the GPU
# runtime at all (a preloaded probe, tests/device/gpu_probe.c, watches).
# The CUDA build's device paths also run here on a fake CUDA runtime
# (tests/device/fake_cudart.c): late copies, per-thread devices, managed
# memory with and without concurrent access, a failing cudaSetDevice. OpenACC runs on the runtime's host device (or on an
# NVIDIA GPU where gcc-12-offload-nvptx finds one), so its programs run
# device buffers through the device layer here: validated, with a corrupted
# byte caught, refused when the MPI library is said not to read device
# memory, and staged through host copies with --staging (never writing a
# buffer that a pending send reads); a refusal that
# only one rank reaches (an MPMD launch with COMMSWEEP_GPU_AWARE differing)
# ends every rank with one line instead of a hang.
#   tests/device/check.sh     (make check-device does this)
# Variables: CUDA_HOME (/usr/local/cuda), HIP_HOME (/usr), JOBS (make -j, 2).
set -u
TAP_DETAIL_LINES=30
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
. "$(dirname "${BASH_SOURCE[0]}")/refusal_lib.sh"
cd "$TOP" || exit 1

built=()
build() { # NAME FLAG HEADER
    local log="$TMPD/build-$1.log"
    if [ ! -e "$3" ]; then
        skip "build with $2" "$3 is not installed"
        return
    fi
    if make -j"${JOBS:-2}" "$2" BUILD="build-$1" > "$log" 2>&1; then
        ok "build with $2 into build-$1, warnings as errors"
        built+=("$1")
    else
        not_ok "build with $2" "$(grep -E 'error|Error' "$log" | head -n 20)"
    fi
}
has() { local b; for b in "${built[@]}"; do [ "$b" = "$1" ] && return 0; done; return 1; }
gpu_present() { # vendor
    case $1 in
    cuda) command -v nvidia-smi > /dev/null && nvidia-smi -L > /dev/null 2>&1 ;;
    hip) command -v rocm-smi > /dev/null && rocm-smi > /dev/null 2>&1 ;;
    esac
}

build cuda CUDA=1 "${CUDA_HOME:-/usr/local/cuda}/include/cuda_runtime_api.h"
build hip HIP=1 "${HIP_HOME:-/usr}/include/hip/hip_runtime_api.h"
build openacc OPENACC=1 "$(gcc -print-file-name=include/openacc.h)"

# Every data line ends with Pass, and there is at least one.
all_pass() {
    [ "$RC" = 0 ] && [ "$(data_lines | wc -l)" -gt 0 ] && ! data_lines | grep -qv 'Pass$'
}
expect_pass() { # DESCRIPTION
    if all_pass; then ok "$1"; else not_ok "$1" "status $RC
$(tail -n 8 "$OUT")
$(head -c 800 "$ERR")"; fi
}
expect_status() { # STATUS DESCRIPTION
    if [ "$RC" = "$1" ]; then ok "$2"; else not_ok "$2" "status $RC (want $1)
$(head -c 800 "$ERR")"; fi
}

# --- CUDA and HIP without a GPU: one line and status 2, for each spelling
for v in cuda hip; do
    has "$v" || continue
    B="build-$v"
    if gpu_present "$v"; then
        skip "$v device requests refused" "a $v GPU is present"
        continue
    fi
    osu=$v; [ "$v" = hip ] && osu=rocm
    refused 2 all "$v: alltoall/all --memory=$v refused without a GPU" "$B/alltoall/all" --memory=$v
    refused 2 all "$v: always/all --memory=$v refused without a GPU" "$B/always/all" --memory=$v 4096
    refused 2 iall "$v: always/iall --memory=managed refused without a GPU" "$B/always/iall" --memory=managed 4096
    refused 2 osu_latency "$v: osu_latency -d $osu refused without a GPU" "$B/osu/osu_latency" -d $osu
    refused 2 osu_bw "$v: osu_bw -d managed MD MD refused without a GPU" "$B/osu/osu_bw" -d managed MD MD
    refused 2 osu_allreduce "$v: osu_allreduce -d $osu --staging refused without a GPU" "$B/osu/osu_allreduce" -d $osu --staging
    refused 2 osu_put_latency "$v: osu_put_latency H D refused without a GPU" "$B/osu/osu_put_latency" H D
done
# --- CUDA and HIP: a run on host buffers never calls the GPU runtime (on a
# GPU, cudaSetDevice would create a context on every rank); one on device
# buffers selects its device. tests/device/gpu_probe.c, preloaded, stands in
# for the device-count and set-device calls, pretends one device is there
# and names each call on stderr.
probe="$TMPD/gpu_probe.so"
if { has cuda || has hip; } &&
    ! ${CC:-cc} -std=c11 -shared -fPIC -o "$probe" tests/device/gpu_probe.c 2> "$TMPD/probe.log"; then
    not_ok "build the GPU runtime probe" "$(head -n 20 "$TMPD/probe.log")"
    probe=
fi
for v in cuda hip; do
    has "$v" && [ -n "$probe" ] || continue
    osu=$v; [ "$v" = hip ] && osu=rocm
    run 2 env LD_PRELOAD="$probe" "build-$v/osu/osu_latency" -m 1:4 -i 10 -x 1
    expect '[ "$RC" = 0 ] && ! grep -q "^gpu probe:" "$ERR"' \
        "$v: osu_latency on host buffers makes no GPU runtime call"
    run 2 env LD_PRELOAD="$probe" "build-$v/alltoall/all" contig 2 64
    expect '[ "$RC" = 0 ] && ! grep -q "^gpu probe:" "$ERR"' \
        "$v: alltoall/all on host buffers makes no GPU runtime call"
    run 2 env LD_PRELOAD="$probe" "build-$v/osu/osu_latency" -d "$osu" --staging -m 1:4 -i 10 -x 1
    expect '[ "$(grep -c "^gpu probe: ${v}SetDevice" "$ERR")" = 2 ]' \
        "$v: osu_latency -d $osu selects a device on each rank"
done

# --- The CUDA build's device paths on a fake CUDA runtime
# (tests/device/fake_cudart.c, preloaded): host memory posing as device
# memory that MPI can read (COMMSWEEP_GPU_AWARE=1), copies that land late
# as a real GPU's may, a current device per thread, managed memory with or
# without concurrent access, a cudaSetDevice that fails on request.
fake_cudart="$TMPD/fake_cudart.so"
if has cuda && ! ${CC:-cc} -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -shared -fPIC -Icommon \
    -I"${CUDA_HOME:-/usr/local/cuda}/include" -o "$fake_cudart" tests/device/fake_cudart.c \
    common/late_queue.c -lpthread 2> "$TMPD/fake_cudart.log"; then
    not_ok "build the fake CUDA runtime" "$(head -n 20 "$TMPD/fake_cudart.log")"
    fake_cudart=
fi
if has cuda && [ -n "$fake_cudart" ]; then
    B=build-cuda
    small=(-m 1:4096 -i 3 -x 1)
    fake=(env LD_PRELOAD="$fake_cudart")
    # Fills and rearrangements reach MPI only after they landed.
    COMMSWEEP_GPU_AWARE=1 run 2 "${fake[@]}" "$B/osu/osu_latency" -d cuda D D -c "${small[@]}"
    expect_pass "cuda, fake runtime: osu_latency -d cuda D D -c: the fills land before MPI reads them"
    COMMSWEEP_GPU_AWARE=1 run 4 "${fake[@]}" "$B/alltoall/aller" --memory=cuda \
        --algorithm=2d,isend contig 2 64
    expect_status 0 "cuda, fake runtime: aller 2d: the rearrangements land before MPI reads them"
    COMMSWEEP_GPU_AWARE=1 run 8 "${fake[@]}" "$B/alltoall/aller" --memory=cuda --algorithm=3d \
        contig 2 16
    expect_status 0 "cuda, fake runtime: aller 3d at 8 ranks checks its data"
    COMMSWEEP_GPU_AWARE=1 run 3 "${fake[@]}" "$B/always/iall" --memory=cuda --time-limit=0.05 3072
    expect_status 0 "cuda, fake runtime: always/iall --memory=cuda checks its data"
    COMMSWEEP_GPU_AWARE=1 run 3 "${fake[@]}" "$B/osu/osu_allreduce" -d cuda -c "${small[@]}"
    expect_pass "cuda, fake runtime: osu_allreduce -d cuda -c"
    COMMSWEEP_GPU_AWARE=0 run 2 "${fake[@]}" "$B/osu/osu_bibw" -d cuda --staging -c "${small[@]}"
    expect_pass "cuda, fake runtime: osu_bibw --staging -c"
    # Rank 1 on device 1 of 2: worker threads that did not select it fail.
    FAKE_CUDART_DEVICES=2 COMMSWEEP_GPU_AWARE=0 run 2 "${fake[@]}" "$B/osu/osu_latency_mt" \
        -d cuda --staging -c -t 2:2 "${small[@]}"
    expect_pass "cuda, fake runtime, 2 devices: osu_latency_mt --staging: every worker selects the rank's device"
    expect 'grep -q "^# rank 1 device: cuda:1 " "$OUT"' "cuda, fake runtime: rank 1 on device 1"
    FAKE_CUDART_DEVICES=2 FAKE_CUDART_FAIL_SET_DEVICE=1 COMMSWEEP_GPU_AWARE=1 \
        run 2 "${fake[@]}" "$B/osu/osu_latency" -d cuda "${small[@]}"
    expect '[ "$RC" = 1 ] && [ "$(program_lines osu_latency)" = 1 ] && grep -q "^osu_latency: rank 1 on $(hostname): cudaSetDevice(1) failed" "$ERR"' \
        "cuda, fake runtime: a failed cudaSetDevice ends every rank, one line naming rank, host and device"
    # Managed memory: where it lives, refused where it cannot be kept,
    # advised and then prefetched.
    FAKE_CUDART_LOG=1 run 2 "${fake[@]}" "$B/osu/osu_latency" -d managed -c "${small[@]}" MH MD
    expect_pass "cuda, fake runtime: osu_latency -d managed MH MD -c"
    # Each process: every advice is followed by the prefetch to the same
    # place; send and receive buffers, host on rank 0, device on rank 1.
    advised_then_prefetched() {
        awk '$1 == "fake" && $2 ~ /^cudart\[/ && $3 ~ /^cudaMem/ {
                 if ($3 ~ /^cudaMemAdvise/) { want[$2] = $3; sub(/Advise/, "PrefetchAsync", want[$2]) }
                 else if ($3 == want[$2]) { pairs[$3]++; want[$2] = "" }
                 else bad++ }
             END { exit !(bad == 0 && pairs["cudaMemPrefetchAsync(host,0)"] == 2 &&
                          pairs["cudaMemPrefetchAsync(device,0)"] == 2) }' "$ERR"
    }
    expect 'grep -q "^# rank 1 managed memory: cuda:0: pages migrate on demand" "$OUT" &&
            advised_then_prefetched' \
        "cuda, fake runtime: the header says where managed memory lives; each area is advised, then prefetched there"
    if python3 -c 'import jsonschema' 2> /dev/null; then
        run 2 "${fake[@]}" "$B/osu/osu_latency" -d managed -c "${small[@]}" MH MD --format=jsonl
        expect '[ "$RC" = 0 ] && python3 tests/integration/jsonl_check.py doc/jsonl.schema.json "$OUT" --program osu/osu_latency && grep -q "\"managed_memory\":\[\"cuda:0: pages migrate" "$OUT"' \
            "cuda, fake runtime: --format=jsonl names where managed memory lives (managed_memory), valid by the schema"
    else
        skip "cuda, fake runtime: managed_memory in JSON Lines" "python3-jsonschema is not installed"
    fi
    export FAKE_CUDART_CONCURRENT_MANAGED=0
    refused 2 osu_latency "cuda, fake runtime without concurrent managed access: -d managed refused" \
        "${fake[@]}" "$B/osu/osu_latency" -d managed
    expect 'grep -q "preferred on the device cannot be kept there: .*cudaDevAttrConcurrentManagedAccess=0" "$ERR"' \
        "cuda, fake runtime: the refusal says why"
    refused 2 osu_bw "cuda, fake runtime without concurrent managed access: MH refused" \
        "${fake[@]}" "$B/osu/osu_bw" -d managed MH H
    refused 2 all "cuda, fake runtime without concurrent managed access: --memory=managed refused" \
        "${fake[@]}" "$B/alltoall/all" --memory=managed
    unset FAKE_CUDART_CONCURRENT_MANAGED

    # Direct device buffers are proven before anything is timed: a probe
    # transfer to the rank itself (common/devprobe.c) says so in the header;
    # where MPI is said to read device memory and cannot (device pages
    # without host access, as on a GPU), the probe's fault is caught: status
    # 2 and one line on every rank, never a segmentation fault.
    COMMSWEEP_GPU_AWARE=1 run 2 "${fake[@]}" "$B/osu/osu_latency" -d cuda D D -c "${small[@]}" --format=jsonl
    expect '[ "$RC" = 0 ] && grep -q "device data: passed to MPI directly (device-aware MPI: COMMSWEEP_GPU_AWARE; a probe transfer from device memory arrived intact)" "$OUT"' \
        "cuda, fake runtime: direct device buffers: the header says the probe transfer arrived intact"
    export FAKE_CUDART_UNREADABLE=1 COMMSWEEP_GPU_AWARE=1
    for p in "2 osu_latency osu/osu_latency -d cuda D D" "3 osu_allreduce osu/osu_allreduce -d cuda" \
             "2 osu_bw osu/osu_bw -d cuda H D" "3 all alltoall/all --memory=cuda contig 2 64" \
             "2 iall always/iall --memory=cuda --time-limit=0.05 2048"; do
        read -r np name prog args <<< "$p"
        # shellcheck disable=SC2086 # args are words
        refused "$np" "$name" "cuda, fake runtime, MPI said to read device memory that it cannot: $prog refused" \
            "${fake[@]}" "$B/$prog" $args
        expect 'grep -q "^$name: rank [0-9]* on [^ ]*: device buffers: the MPI library says it reads cuda device memory (COMMSWEEP_GPU_AWARE), but a probe transfer of 262144 bytes from device memory faulted (SIGSEGV); use --staging$" "$ERR"' \
            "cuda, fake runtime: $prog: the refusal names the probe's fault and --staging"
    done
    run 2 "${fake[@]}" "$B/osu/osu_bibw" -d cuda --staging -c "${small[@]}"
    expect_pass "cuda, fake runtime, device pages without host access: osu_bibw --staging -c (only the runtime touches them)"
    unset FAKE_CUDART_UNREADABLE COMMSWEEP_GPU_AWARE
fi

if has cuda && has hip; then
    refused 2 osu_latency "a CUDA build refuses -d rocm" build-cuda/osu/osu_latency -d rocm
    refused 2 all "a HIP build refuses --memory=cuda" build-hip/alltoall/all --memory=cuda
fi

# --- OpenACC: device buffers through the whole device layer
if has openacc; then
    B=build-openacc
    small=(-m 1:4096 -i 3 -x 1)
    run 2 "$B/osu/osu_latency" -d openacc D D -c "${small[@]}"
    expect_pass "openacc: osu_latency -d openacc D D -c"
    expect 'grep -q "^# rank 1 device: openacc " "$OUT" && grep -q "^# buffers: rank 0 on device (openacc), rank 1 on device (openacc)$" "$OUT"' \
        "openacc: the header names each rank's device and the buffers"
    run 2 "$B/osu/osu_allreduce" -d openacc -c "${small[@]}"
    expect_pass "openacc: osu_allreduce -d openacc -c"
    run 2 "$B/osu/osu_bw" -d openacc H D -c "${small[@]}"
    expect_pass "openacc: osu_bw -d openacc H D -c"
    run 3 "$B/osu/osu_bcast" -d openacc -c "${small[@]}"
    expect_pass "openacc: osu_bcast -d openacc -c at 3 ranks"
    run 4 "$B/alltoall/all" --memory=openacc contig 2 64
    expect_status 0 "openacc: alltoall/all --memory=openacc checks its data"
    run 8 "$B/alltoall/aller" --memory=openacc --algorithm=2d,3d contig 2 16
    expect_status 0 "openacc: aller 2d and 3d: rearrangements copied device to device check their data"
    run 1 "$B/tests/bench/devcopy_bw" 65536 10
    expect '[ "$RC" = 0 ] && [ "$(data_lines | wc -l)" = 17 ]' \
        "openacc: devcopy_bw copies device to device"
    run 3 "$B/always/iall" --memory=openacc --time-limit=0.05 3072
    expect_status 0 "openacc: always/iall --memory=openacc checks its data"
    COMMSWEEP_CORRUPT=1 run 2 "$B/osu/osu_latency" -d openacc D D -c "${small[@]}"
    expect '[ "$RC" = 1 ] && data_lines | tail -n 1 | grep -q "Fail$"' \
        "openacc: a corrupted byte in device memory fails the check (status 1)"
    refused 2 osu_latency "openacc: -d managed refused (no managed memory)" "$B/osu/osu_latency" -d managed
    refused 2 osu_latency "openacc: -d cuda refused (another vendor)" "$B/osu/osu_latency" -d cuda

    # An MPI library that cannot read device memory: refused, or staged.
    export COMMSWEEP_GPU_AWARE=0
    refused 2 osu_latency "openacc: device buffers refused when MPI cannot read them" \
        "$B/osu/osu_latency" -d openacc D D -c
    refused 2 all "openacc: alltoall/all refused when MPI cannot read device memory" \
        "$B/alltoall/all" --memory=openacc
    run 2 "$B/osu/osu_latency" -d openacc D D -c --staging "${small[@]}"
    expect_pass "openacc: osu_latency --staging -c"
    expect 'grep -q "^# buffers: rank 0 on device (openacc), staged through page-aligned (not page-locked) host buffers, rank 1 on" "$OUT" && grep -q "^# device data: staged through page-aligned (not page-locked) host buffers" "$OUT" && grep -q "^# device data: staged" "$OUT"' \
        "openacc: the header says the data is staged, through host buffers that are not page-locked"
    run 2 "$B/osu/osu_bibw" -d openacc -c --staging "${small[@]}"
    expect_pass "openacc: osu_bibw --staging -c"
    run 3 "$B/osu/osu_iallgather" -d openacc -c --staging "${small[@]}"
    expect_pass "openacc: osu_iallgather --staging -c"
    run 2 "$B/osu/osu_latency_mt" -d openacc -c --staging -t 2:2 "${small[@]}"
    expect_pass "openacc: osu_latency_mt --staging -c (device copies from threads)"
    run 4 "$B/alltoall/all" --memory=openacc --staging contig 2 64
    expect_status 0 "openacc: alltoall/all --staging checks its data"
    run 2 "$B/always/all" --memory=openacc --staging --time-limit=0.05 2048
    expect_status 0 "openacc: always/all --staging checks its data"
    COMMSWEEP_CORRUPT=1 run 2 "$B/osu/osu_bw" -d openacc -c --staging "${small[@]}"
    expect '[ "$RC" = 1 ] && data_lines | tail -n 1 | grep -q "Fail$"' \
        "openacc: a corrupted byte is caught through staging too"
    refused 2 osu_put_latency "openacc: one-sided programs refuse --staging" \
        "$B/osu/osu_put_latency" -d openacc --staging
    # --staging writes no send buffer while a send from it is pending: a
    # preloaded probe (tests/pmpi/pending_send_probe.c) makes the pages of
    # every pending MPI_Isend read-only. Messages of a page or more.
    probe_so="$TOP/$B/tests/pmpi/pending_send_probe.so"
    for p in "2 osu_bw" "2 osu_bibw" "2 osu_mbw_mr" "2 osu_bw_persistent" \
             "2 osu_bibw_persistent" "3 osu_bw_fan_out --ranks-per-node=1" \
             "3 osu_bw_fan_in --ranks-per-node=1"; do
        read -r np prog extra <<< "$p"
        # shellcheck disable=SC2086 # extra is words
        run "$np" env LD_PRELOAD="$probe_so" "$B/osu/$prog" $extra -d openacc --staging -c \
            -m 4096:16384 -i 3 -x 1
        expect_pass "openacc: $prog --staging -c writes no buffer of a pending send"
    done
    unset COMMSWEEP_GPU_AWARE

    one_rank_refuses "$B" openacc

    # The GPU proof's script, dry-run on the OpenACC host device: where MPI
    # reads that memory, each device mode direct and staged side by side;
    # where it is said not to, staged only, and the header says why; there
    # a damaged byte fails each data row and the script.
    tests/device/validate.sh --vendor openacc --quick --build "$B" > "$OUT" 2> "$ERR"
    RC=$?
    expect '[ "$RC" = 0 ] && [ "$(grep -c "^PASS " "$OUT")" = 36 ] && grep -q "^# device data: direct: " "$OUT" &&
            [ "$(awk '\''$1 == "PASS" && $NF ~ /^[0-9]+\.[0-9]+$/'\'' "$OUT" | wc -l)" = 17 ] &&
            grep -q "^# xccl: not in this build (openacc)" "$OUT"' \
        "validate.sh --vendor openacc --quick: each device mode direct and staged, 36 checks, direct/staged on the 17 direct rows"
    COMMSWEEP_GPU_AWARE=0 COMMSWEEP_CORRUPT=1 tests/device/validate.sh --vendor openacc --quick --build "$B" > "$OUT" 2> "$ERR"
    RC=$?
    expect '[ "$RC" = 1 ] && [ "$(grep -c "^FAIL .* status 1: .*\(validation\|data check\) failed" "$OUT")" = 18 ] &&
            grep -q "^PASS .*one rank refuses" "$OUT" && [ "$(grep -c "^PASS " "$OUT")" = 1 ] &&
            grep -q "^# device data: staged" "$OUT" && grep -q "^# direct rows not run: " "$OUT"' \
        "validate.sh, MPI said not to read device memory: staged rows only, the header says why; a damaged byte fails each (status 1)"
fi
. tests/device/xccl.sh build-cuda build-hip # the NCCL/RCCL programs on the fakes
summary
