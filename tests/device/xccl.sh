#!/bin/bash
# The NCCL and RCCL programs (osu_xccl_*, built by CUDA=1 and HIP=1 builds)
# without a GPU or NCCL: the CUDA build's programs run on the fake CUDA
# runtime (tests/device/fake_cudart.c, preloaded) and a fake NCCL
# (tests/device/fake_nccl.c, built here as libnccl.so.2 and found first
# through LD_LIBRARY_PATH), whose results land only when the stream is
# synchronised. Checked: -c passes in all nine at 2 ranks and in the
# collectives at 3; OMB 7.4's layout of the plain output; the JSON rows
# with nccl-tests' algorithm and bus bandwidth, valid by the schema;
# --stats and --timeout; a byte the library delivers wrong fails the check
# (status 1); a failing NCCL call ends the run with one line naming it
# (status 1); a missing library is refused with one line naming it
# (status 2), as are the options the library cannot honour; the fake's
# results are not there before the synchronisation (xccl_late_probe.c), so
# the programs' passing checks read them after it. The HIP build's
# programs, without a GPU, refuse for the missing device (status 2).
#   tests/device/xccl.sh [CUDA_BUILD [HIP_BUILD]]   (build-cuda, build-hip)
# tests/device/check.sh sources it at its end (its lines count there).
# Variables: CUDA_HOME (/usr/local/cuda), MPICC (mpicc).
if ! declare -F summary > /dev/null; then
    set -u
    . "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
    XCCL_ALONE=1
fi
cd "$TOP" || exit 1
unset COMMSWEEP_DEFAULTS COMMSWEEP_DESCRIBE # OMB 7.4's defaults: the programs' own
XB=${1:-build-cuda} XH=${2:-build-hip}
XCCL_P2P="latency bw bibw"
XCCL_COLL="allreduce allgather alltoall bcast reduce reduce_scatter"

xccl_all_pass() { # DESCRIPTION: every data line of the last run ends with Pass
    if [ "$RC" = 0 ] && [ "$(data_lines | wc -l)" -gt 0 ] && ! data_lines | grep -qv 'Pass$'; then
        ok "$1"
    else
        not_ok "$1" "status $RC
$(tail -n 6 "$OUT")
$(head -c 800 "$ERR")"
    fi
}

# OMB 7.4's title of an xccl program ("Allreduce Latency Test").
xccl_title() { # NAME
    case $1 in
    latency) echo "Latency Test" ;;
    bw) echo "Bandwidth Test" ;;
    bibw) echo "Bi-Directional Bandwidth Test" ;;
    allreduce) echo "Allreduce Latency Test" ;;
    allgather) echo "Allgather Latency Test" ;;
    alltoall) echo "All-to-All Personalized Exchange Latency Test" ;;
    bcast) echo "Broadcast Latency Test" ;;
    reduce) echo "Reduce Latency Test" ;;
    reduce_scatter) echo "Reduce_scatter Latency Test" ;;
    esac
}

# Why $OUT (the plain output of osu_xccl_NAME -m 1:64) is not OMB 7.4's
# xccl layout; empty when it is: "#Using NCCL", a blank line, the title,
# the point-to-point programs' buffer line, the heading, the rows, and
# nothing after them.
xccl_layout_problems() { # NAME
    local name=$1 head want sizes="1 2 4 8 16 32 64" column="Avg Latency(us)"
    case $name in latency) column="Latency (us)" ;; bw | bibw) column="Bandwidth (MB/s)" ;; esac
    case $name in allreduce | reduce | reduce_scatter) sizes="4 8 16 32 64" ;; esac
    head=$(awk '/^[0-9]/ { exit } { print }' "$OUT")
    want=$(printf '#Using NCCL\n\n# OSU NCCL-CUDA %s v7.4 (commsweep VERSION)\n' "$(xccl_title "$name")"
        case $name in latency | bw | bibw)
            echo "# Send Buffer on DEVICE (D) and Receive Buffer on DEVICE (D)" ;; esac
        osu_columns_line "$column")
    [ "$(sed 's/(commsweep [^)]*)$/(commsweep VERSION)/' <<< "$head")" = "$want" ] ||
        echo "the lines before the rows are not OMB's: $(diff <(echo "$want") <(echo "$head") | head -6 | tr '\n' '|')"
    osu_table_problems 0 "$sizes" "$column"
    tail -n 1 "$OUT" | grep -q '^[0-9]' || echo "a line after the table: $(tail -n 1 "$OUT")"
}

# --- the fakes: the CUDA runtime, NCCL, and the probe of late results
xccl_fakes=
if [ -x "$XB/osu/osu_xccl_allreduce" ]; then
    xccl_fakes="$TMPD/xccl"
    mkdir -p "$xccl_fakes"
    cuda_inc="${CUDA_HOME:-/usr/local/cuda}/include" cuda_lib="${CUDA_HOME:-/usr/local/cuda}/lib64"
    if ! ${CC:-cc} -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -shared -fPIC -Icommon \
            -I"$cuda_inc" -o "$xccl_fakes/fake_cudart.so" tests/device/fake_cudart.c \
            common/late_queue.c -lpthread 2> "$TMPD/xccl-build.log" ||
        ! ${MPICC:-mpicc} -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -shared -fPIC \
            -o "$xccl_fakes/libnccl.so.2" tests/device/fake_nccl.c 2>> "$TMPD/xccl-build.log" ||
        ! ${MPICC:-mpicc} -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -I"$cuda_inc" \
            -o "$xccl_fakes/late_probe" tests/device/xccl_late_probe.c -L"$xccl_fakes" \
            -l:libnccl.so.2 -Wl,-rpath,"$xccl_fakes" -L"$cuda_lib" -lcudart 2>> "$TMPD/xccl-build.log"; then
        not_ok "xccl: build the fake CUDA runtime, the fake NCCL and the probe" \
            "$(head -n 20 "$TMPD/xccl-build.log")"
        xccl_fakes=
    fi
else
    skip "xccl: the CUDA build's NCCL programs" "$XB/osu/osu_xccl_allreduce is not built (make CUDA=1 BUILD=$XB)"
fi

if [ -n "$xccl_fakes" ]; then
    X="$XB/osu"
    fake=(env LD_PRELOAD="$xccl_fakes/fake_cudart.so"
          LD_LIBRARY_PATH="$xccl_fakes${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}")
    small=(-m 1:4096 -i 3 -x 1)

    # -c in every program, the collectives at an odd count too; roots,
    # element types and message buffers of their own.
    for p in $XCCL_P2P $XCCL_COLL; do
        run 2 "${fake[@]}" "$X/osu_xccl_$p" -c "${small[@]}"
        xccl_all_pass "osu_xccl_$p -c at 2 ranks on the fakes: every size passes"
    done
    for p in $XCCL_COLL; do
        run 3 "${fake[@]}" "$X/osu_xccl_$p" -c "${small[@]}"
        xccl_all_pass "osu_xccl_$p -c at 3 ranks on the fakes: every size passes"
    done
    for p in bcast reduce; do
        run 3 "${fake[@]}" "$X/osu_xccl_$p" -c -k rotate "${small[@]}"
        xccl_all_pass "osu_xccl_$p -c -k rotate at 3 ranks: every root's data checked"
    done
    run 3 "${fake[@]}" "$X/osu_xccl_allreduce" -c -T all -m 1:256 -i 3 -x 1
    expect '[ "$RC" = 0 ] && [ "$(data_lines | grep -c "Pass$")" = 23 ] && ! data_lines | grep -qv "Pass$"' \
        "osu_xccl_allreduce -T all: sums of char, int and float sweeps checked"
    run 2 "${fake[@]}" "$X/osu_xccl_bibw" -c -b multiple -W 4 "${small[@]}"
    xccl_all_pass "osu_xccl_bibw -b multiple -W 4: each message of a window in a buffer of its own"

    # The results land late, and nothing catches the programs reading them.
    run 2 env LD_PRELOAD="$xccl_fakes/fake_cudart.so" "$xccl_fakes/late_probe"
    expect '[ "$RC" = 0 ] && [ "$(grep -c "before the stream.s synchronisation 0, after 2$" "$OUT")" = 2 ]' \
        "fake NCCL: an allreduce's sum is not in the buffer before the stream's synchronisation, and is after (the programs check after it)"

    # OMB 7.4's layout when run plainly.
    for p in $XCCL_P2P $XCCL_COLL; do
        run 2 "${fake[@]}" "$X/osu_xccl_$p" -m 1:64 -i 3 -x 1
        if [ "$RC" = 0 ]; then
            expect_no_problems "osu_xccl_$p: OMB 7.4's xccl layout (#Using NCCL, title, heading, rows, nothing after)" \
                xccl_layout_problems "$p"
        else
            not_ok "osu_xccl_$p: OMB 7.4's xccl layout" "status $RC: $(head -c 600 "$ERR")"
        fi
    done
    run 2 "${fake[@]}" "$X/osu_xccl_allreduce" -m 4:8 -i 3 -x 1 --describe
    expect '[ "$RC" = 0 ] && grep -q "^# xccl: NCCL 2\.99\.99 (libnccl\.so\.2: .*/libnccl\.so\.2)$" "$OUT" && grep -q "^# rank 1 device: cuda:0 " "$OUT"' \
        "--describe: the library's version and file, and each rank's device"

    # JSON Lines: nccl-tests' algorithm and bus bandwidth in every
    # collective's rows (allreduce at 3 ranks: busbw = algbw * 4/3), the
    # library in the header, all valid by the schema.
    busbw_ratio() { # FIELD VALUE: every row's busbw / algbw is VALUE
        python3 -c 'import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if "\"row\"" in l]
ok = rows and all(abs(r["busbw_mb_s"] / r["algbw_mb_s"] - float(sys.argv[2])) < 1e-9 for r in rows)
sys.exit(0 if ok else 1)' "$OUT" "$1"
    }
    run 3 "${fake[@]}" "$X/osu_xccl_allreduce" -c -m 4:64 -i 3 -x 1 --format=jsonl
    expect '[ "$RC" = 0 ] && busbw_ratio 1.3333333333333333 && grep -q "\"xccl\":\"NCCL 2.99.99 (libnccl.so.2" "$OUT"' \
        "osu_xccl_allreduce --format=jsonl at 3 ranks: algbw_mb_s and busbw_mb_s (2(n-1)/n) in every row, the library in the header"
    run 3 "${fake[@]}" "$X/osu_xccl_alltoall" -c -m 1:64 -i 3 -x 1 --format=jsonl
    expect '[ "$RC" = 0 ] && busbw_ratio 0.6666666666666666' \
        "osu_xccl_alltoall --format=jsonl at 3 ranks: busbw = algbw * (n-1)/n in every row"
    if python3 -c 'import jsonschema' 2> /dev/null; then
        for p in $XCCL_P2P $XCCL_COLL; do
            np=3
            case $p in latency | bw | bibw) np=2 ;; esac
            run "$np" "${fake[@]}" "$X/osu_xccl_$p" -c -m 1:64 -i 3 -x 1 --format=jsonl --stats
            expect '[ "$RC" = 0 ] && python3 tests/integration/jsonl_check.py doc/jsonl.schema.json "$OUT" --program "osu/osu_xccl_$p" --validation passed' \
                "osu_xccl_$p --format=jsonl --stats: valid by the schema, validation passed"
        done
    else
        skip "xccl: JSON Lines against the schema" "python3-jsonschema is not installed"
    fi

    # --stats and --timeout, as in every OSU program.
    run 3 "${fake[@]}" "$X/osu_xccl_reduce_scatter" -c --stats -m 4:64 -i 5 -x 1
    expect '[ "$RC" = 0 ] && grep -q "^# Size .*Validation *Median(us) *P5(us) *P95(us) *CV(%)" "$OUT" && [ "$(data_lines | awk "{print NF}" | sort -u)" = 11 ]' \
        "osu_xccl_reduce_scatter --stats: the spread columns and the slowest rank after Validation"
    run 2 "${fake[@]}" "$X/osu_xccl_latency" --stats -m 1:8 -i 5 -x 1
    expect '[ "$RC" = 0 ] && grep -q "^# Size .*Median(us)" "$OUT" && [ "$(data_lines | wc -l)" = 4 ]' \
        "osu_xccl_latency --stats"
    COMMSWEEP_STALL_RANK=1 run 3 "${fake[@]}" "$X/osu_xccl_allreduce" --timeout=1 -m 8:8 -i 4 -x 1
    expect_stalled "osu_xccl_allreduce --timeout=1, rank 1 stalled: status 3, a line naming it and the size" \
        osu_xccl_allreduce 1 20 "size 8"
    COMMSWEEP_STALL_RANK=1 run 2 "${fake[@]}" "$X/osu_xccl_bw" --timeout=1 -m 8:8 -i 4 -x 1
    expect_stalled "osu_xccl_bw --timeout=1, rank 1 stalled: status 3, a line naming it and the size" \
        osu_xccl_bw 1 20 "size 8"

    # Wrong data, failing calls, a missing library.
    for p in allreduce bw; do
        run 2 env FAKE_NCCL_CORRUPT=1 "${fake[@]}" "$X/osu_xccl_$p" -c "${small[@]}"
        expect '[ "$RC" = 1 ] && data_lines | tail -n 1 | grep -q "Fail$" && [ "$(program_lines "osu_xccl_$p")" = 1 ] && grep -q "^osu_xccl_$p: validation failed at" "$ERR"' \
            "osu_xccl_$p: one byte the library delivers wrong fails the check (status 1, one line)"
    done
    for f in "allreduce ncclAllReduce 0" "allreduce ncclCommInitRank 1" "alltoall ncclGroupEnd 0" \
             "latency ncclRecv 1" "bibw ncclSend 0" "bcast ncclGetUniqueId 0"; do
        read -r p call on <<< "$f"
        run 2 env FAKE_NCCL_FAIL="$call" FAKE_NCCL_FAIL_RANK="$on" "${fake[@]}" "$X/osu_xccl_$p" \
            "${small[@]}"
        expect '[ "$RC" = 1 ] && [ "$(program_lines "osu_xccl_$p")" = 1 ] && grep -q "^osu_xccl_$p: $call failed: internal error (fake NCCL" "$ERR"' \
            "osu_xccl_$p: $call failing on rank $on ends the run, one line naming it and NCCL's error string (status 1)"
    done
    run 2 env COMMSWEEP_XCCL_LIB="$TMPD/none/libnccl.so.2" "${fake[@]}" "$X/osu_xccl_allreduce" \
        "${small[@]}"
    expect '[ "$RC" = 2 ] && [ "$(program_lines osu_xccl_allreduce)" = 1 ] && grep -q "^osu_xccl_allreduce: rank 0 on .*: cannot load NCCL (.*libnccl.so.2)" "$ERR"' \
        "no NCCL library: refused on every rank, one line naming libnccl.so.2 (status 2)"
    if ldconfig -p 2> /dev/null | grep -q 'libnccl\.so\.2 '; then
        skip "no NCCL installed: libnccl.so.2 refused" "a libnccl.so.2 is installed here (COMMSWEEP_XCCL_LIB stood in above)"
    else
        run 2 env LD_PRELOAD="$xccl_fakes/fake_cudart.so" "$X/osu_xccl_latency" "${small[@]}"
        expect '[ "$RC" = 2 ] && [ "$(program_lines osu_xccl_latency)" = 1 ] && grep -q "cannot load NCCL (libnccl.so.2)" "$ERR"' \
            "no NCCL installed: refused on every rank, one line naming libnccl.so.2 (status 2)"
    fi

    # What the library cannot honour is refused, as bad input.
    for a in "allreduce -d managed" "bw --staging" "latency H D" "allgather -D cont" \
             "bibw -D cont" "allreduce -l" "alltoall --groups=2"; do
        read -r p args <<< "$a"
        # shellcheck disable=SC2086 # args are words
        run 2 "${fake[@]}" "$X/osu_xccl_$p" $args -m 1:8
        expect_usage_error "osu_xccl_$p $args: refused, one line (status 2)" "osu_xccl_$p"
    done
fi

# --- without a GPU the device is refused first, in either build
if [ -x "$XB/osu/osu_xccl_allreduce" ] && ! { command -v nvidia-smi > /dev/null && nvidia-smi -L > /dev/null 2>&1; }; then
    refused 2 osu_xccl_allreduce "cuda: osu_xccl_allreduce without a GPU: refused, one line (status 2)" \
        "$XB/osu/osu_xccl_allreduce" -m 1:8
fi
if [ -x "$XH/osu/osu_xccl_allreduce" ]; then
    if command -v rocm-smi > /dev/null && rocm-smi > /dev/null 2>&1; then
        skip "hip: osu_xccl_* without a GPU refused" "an AMD GPU is present"
    else
        for p in allreduce latency; do
            refused 2 "osu_xccl_$p" "hip: osu_xccl_$p without a GPU: refused for the device before RCCL is loaded, one line (status 2)" \
                "$XH/osu/osu_xccl_$p" -m 1:8
        done
    fi
    run1 "$XH/osu/osu_xccl_bcast" --help
    expect '[ "$RC" = 0 ] && grep -q "ncclBroadcast in place on device buffers (RCCL in a HIP build)" "$OUT"' \
        "hip: osu_xccl_bcast --help without a GPU"
else
    skip "hip: the RCCL programs" "$XH/osu/osu_xccl_allreduce is not built (make HIP=1 BUILD=$XH)"
fi

if [ -n "${XCCL_ALONE:-}" ]; then
    summary
fi
