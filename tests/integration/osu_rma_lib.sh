#!/usr/bin/env bash
# Helpers of the osu_rma_* tests, sourced by them; run on its own it tests
# nothing and prints nothing.
#
# Open MPI selects osc/rdma for every window kind on one node, and osc/rdma
# needs a transport that can put and get: vader with its single-copy
# mechanism (CMA). With that mechanism turned off, MPI_Win_allocate windows
# come from osc/sm instead, a second component with its own synchronization
# code: RMA_SM_FLAGS is the launcher's flags for that second pass.
TEST_TIMEOUT=${TEST_TIMEOUT:-40}
RMA_CALLER_FLAGS=${MPIEXEC_FLAGS:-}
[ "${MPIEXEC_FLAGS_CHOSEN:-0}" = 1 ] && RMA_CALLER_FLAGS=""
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
RMA="$BUILD/osu"
RMA_OPEN_MPI=0
"$MPIEXEC" --version 2>&1 | grep -qiE 'open mpi|openrte' && RMA_OPEN_MPI=1
RMA_LIB_FLAGS="$MPIEXEC_FLAGS --mca btl_vader_single_copy_mechanism none"

# Program, its accepted -s values (the default first), and its -m range.
rma_syncs() {
    case $1 in
    osu_passive_*) echo "lock lock_all flush flush_local" ;;
    osu_get_acc_latency | osu_fop_latency | osu_cas_latency)
        echo "flush pscw fence lock lock_all flush_local" ;;
    osu_put_bibw) echo "pscw fence" ;;
    *) echo "pscw fence lock lock_all flush flush_local" ;;
    esac
}
rma_range() {
    case $1 in
    osu_fop_latency | osu_cas_latency) echo "" ;;
    *acc_latency) echo "-m 4:16" ;;
    *) echo "-m 1:8" ;;
    esac
}
rma_sizes() {
    case $1 in
    osu_fop_latency | osu_cas_latency) echo "1" ;; # one MPI_CHAR, OMB 7.4's default type
    *acc_latency) echo "4 8 16" ;;
    *) echo "1 2 4 8" ;;
    esac
}
rma_column() { case $1 in *bw) echo "Bandwidth (MB/s)" ;; *) echo "Latency (us)" ;; esac; }
rma_window_option() { case $1 in *bw) echo "-W 2" ;; esac; }

RMA_PROGRAMS="osu_put_latency osu_get_latency osu_acc_latency osu_put_bw osu_get_bw
osu_put_bibw osu_passive_put_latency osu_passive_get_latency osu_passive_acc_latency
osu_passive_put_bw osu_passive_get_bw osu_get_acc_latency osu_fop_latency osu_cas_latency"

# Why $OUT is not a good run of PROGRAM with window KIND and sync MODE over
# SIZES with COLUMN...; empty when it is.
rma_problems() { # PROGRAM KIND MODE "SIZES" COLUMN...
    local prog=$1 kind=$2 mode=$3 sizes=$4
    shift 4
    [ "$RC" = 0 ] || echo "status $RC: $(grep -v '^\[' "$ERR" | head -c 400)"
    head -1 "$OUT" | grep -q '^# OSU .*(commsweep ' || echo "first line: $(head -1 "$OUT")"
    grep -q "^# window creation: $kind (" "$OUT" || echo "no '# window creation: $kind' line"
    grep -q "^# synchronization: $mode (" "$OUT" || echo "no '# synchronization: $mode' line"
    osu_table_problems 0 "$sizes" "$@"
}

expect_rma() { # DESCRIPTION PROGRAM KIND MODE "SIZES" COLUMN...
    expect_no_problems "$1" rma_problems "${@:2}"
}
