#!/usr/bin/env bash
# One-sided programs: what they refuse (status 2, one line), what -c catches
# (status 1), and --help.
. "$(dirname "$0")/osu_rma_lib.sh"

# Exactly two ranks (one rank: started alone, without the launcher). The
# runs whose lines nothing after them reads go side by side (lib.sh's
# in_parallel), each with its own $OUT and $ERR.
for prog in $RMA_PROGRAMS; do
    in_parallel refused 0 "$prog" "$prog alone refused" "$RMA/$prog" -i 1 -x 0
done
in_parallel_end
for prog in osu_put_latency osu_passive_get_bw osu_fop_latency; do
    run 3 "$RMA/$prog" -i 1 -x 0
    expect_usage_error "$prog at 3 ranks refused" "$prog"
    expect 'grep -q "exactly 2 processes (got 3)" "$ERR"' "$prog names the rank count"
done

# Refusals are decided from the options alone, before the rank count, so
# most are checked on one process; a few at 2 ranks show every rank leaves.
refuse() { # DESCRIPTION PROGRAM ARGS...
    local desc=$1 prog=$2
    shift 2
    run1 "$RMA/$prog" "$@"
    expect_usage_error "$desc" "$prog"
    grep -q "exactly 2 processes" "$ERR" && not_ok "$desc: refused for the rank count only"
}
refuse2() { # DESCRIPTION PROGRAM ARGS...
    local desc=$1 prog=$2
    shift 2
    run 2 "$RMA/$prog" "$@"
    expect_usage_error "$desc (2 ranks)" "$prog"
}

# Synchronizations that do not apply: each program against one of them.
refuse2 "osu_passive_put_latency -s pscw refused" osu_passive_put_latency -s pscw
in_parallel refuse "osu_passive_get_latency -s fence refused" osu_passive_get_latency -s fence
in_parallel refuse "osu_passive_acc_latency -s pscw refused" osu_passive_acc_latency -s pscw
in_parallel refuse "osu_passive_put_bw -s fence refused" osu_passive_put_bw -s fence
in_parallel refuse "osu_passive_get_bw -s pscw refused" osu_passive_get_bw -s pscw
refuse2 "osu_put_bibw -s lock refused" osu_put_bibw -s lock
expect 'grep -q "use pscw, fence" "$ERR"' "the refusal lists what applies"
in_parallel refuse "--win-memory with an unknown source refused" osu_get_bw --win-memory heap
in_parallel refuse "osu_put_bibw -s lock_all refused" osu_put_bibw -s lock_all

# Bad option values.
in_parallel refuse "-s bogus" osu_put_latency -s bogus
in_parallel refuse "-w bogus" osu_put_latency -w bogus
in_parallel refuse "-w without a value" osu_put_latency -w
in_parallel refuse "-W 0" osu_put_bw -W 0
in_parallel refuse "-W on a latency program" osu_put_latency -W 4
in_parallel refuse "-W not a number" osu_get_bw -W 4x
in_parallel refuse "-i 0" osu_get_latency -i 0
in_parallel refuse "-x negative" osu_passive_put_latency -x -1
in_parallel refuse "-m with MIN above MAX" osu_put_latency -m 64:8
# -m on the one-element atomics: taken as OMB 7.4 takes it (it sizes only
# the memory), one row of one element and a note after the table.
run 2 "$RMA/osu_fop_latency" -m 16 -i 2 -x 1
expect '[ "$RC" = 0 ] && [ "$(grep -E "^[0-9]" "$OUT" | awk "{print \$1}")" = 1 ] && grep -q "^# -m: MPI_Fetch_and_op works on one element" "$OUT"' \
    "osu_fop_latency -m 16: one MPI_CHAR, one row, a note"
run 2 "$RMA/osu_cas_latency" -m 8:16 -T mpi_int -i 2 -x 1 -c
expect '[ "$RC" = 0 ] && [ "$(grep -E "^[0-9]" "$OUT" | awk "{print \$1, \$NF}")" = "4 Pass" ]' \
    "osu_cas_latency -m 8:16 -T mpi_int: one MPI_INT, validation passes"
in_parallel refuse "-m with MIN above MAX on fetch-and-op" osu_fop_latency -m 16:8
refuse2 "-T mpi_float on compare-and-swap" osu_cas_latency -T mpi_float
expect 'grep -q "MPI_Compare_and_swap takes integer types only" "$ERR"' "the refusal says why"
in_parallel refuse "-T with a type OMB 7.4 does not offer" osu_acc_latency -T mpi_double
in_parallel refuse "-T without a value" osu_fop_latency -T
in_parallel refuse "-T on put (bytes only)" osu_put_latency -T mpi_int
in_parallel refuse "-T on the seed's passive accumulate" osu_passive_acc_latency -T mpi_char
in_parallel refuse "-f on a bandwidth program" osu_put_bw -f
in_parallel refuse "stray argument" osu_fop_latency 12
in_parallel refuse "one placement letter only" osu_put_latency D
in_parallel refuse "bad placement letter" osu_get_bw X H
refuse2 "-M below the smallest message" osu_put_bw -m 64:128 -M 100
in_parallel_end

# Device buffers: without CUDA (or without a GPU) one line and status 2; with
# them, the put/get programs run and the others refuse.
run 2 "$RMA/osu_put_latency" -d cuda -m 1:8 -i 2 -x 0 -c
if gpu_usable; then
    # A window cannot be staged: an MPI that cannot read device memory refuses.
    expect '{ [ "$RC" = 0 ] && grep -q "^# buffers: rank 0 on device" "$OUT" && data_lines | grep -q "Pass$"; } ||
            { [ "$RC" = 2 ] && grep -q "cannot read cuda device memory" "$ERR"; }' \
        "osu_put_latency -d cuda runs on device buffers (or is refused by an MPI that cannot read them)"
else
    expect_usage_error "osu_put_latency -d cuda without a usable GPU refused (2 ranks)" osu_put_latency
fi
in_parallel refuse "device buffers on an accumulate program" osu_acc_latency -d cuda
in_parallel refuse "device buffers on fetch-and-op" osu_fop_latency -d cuda
in_parallel_end
if cuda_build; then
    refuse "device window from MPI_Win_allocate" osu_put_latency -w allocate D D
else # D is host memory without device support (as OMB 7.4 built so): allowed
    run 2 "$RMA/osu_put_latency" -w allocate -m 1:4 -i 2 -x 1 -c D D
    expect '[ "$RC" = 0 ] && grep -q "no device support" "$ERR" && [ "$(data_lines | grep -c "Pass$")" = 3 ]' \
        "osu_put_latency -w allocate D D without device support: host windows, validation passes"
fi

# -c fails when the data is wrong: COMMSWEEP_CORRUPT=1 damages what rank
# 0's transfers carry (a byte, a bit of an integer, a float's sign). The
# failing size is the last row, with Fail, one message on stderr names it,
# status 1. Each -T type of the accumulates and atomics is caught.
caught() { # PROGRAM ARGS...
    local prog=$1
    shift
    run 2 "$RMA/$prog" "$@" -i 3 -x 1 -c
    expect '[ "$RC" = 1 ] && [ "$(data_lines | wc -l)" = 1 ] && data_lines | grep -q " Fail$" && [ "$(program_lines $prog)" = 1 ] && grep -q "^$prog: validation failed at message size [0-9]*: rank [01] found " "$ERR"' \
        "$prog $* -c: the first size fails, one message, status 1"
}
export COMMSWEEP_CORRUPT=1
for case in "osu_put_latency -m 1:8" "osu_get_latency -m 1:8 -s fence" "osu_acc_latency -m 4:8" \
    "osu_put_bibw -m 4:8 -W 2" "osu_passive_put_latency -m 1:8 -s flush_local" \
    "osu_passive_get_bw -m 4:8 -W 2" "osu_passive_acc_latency -m 4:8 -s lock_all" \
    "osu_get_acc_latency -m 4:8" "osu_fop_latency -s pscw" "osu_cas_latency -s lock" \
    "osu_acc_latency -m 4:8 -T mpi_int" "osu_acc_latency -m 4:8 -T mpi_float -s flush" \
    "osu_get_acc_latency -m 4:8 -T mpi_int -s fence" "osu_get_acc_latency -m 4:8 -T mpi_float" \
    "osu_fop_latency -T mpi_int -s lock_all" "osu_fop_latency -T mpi_float" \
    "osu_cas_latency -T mpi_int -s pscw" "osu_acc_latency -m 1:2 -T all -s lock"; do
    # shellcheck disable=SC2086
    in_parallel caught $case
done
in_parallel_end
# COMMSWEEP_CORRUPT_RANK=1: rank 1 damages what its transfers carry, so the
# passive programs (rank 0 the only origin) pass, the ping-pongs fail.
COMMSWEEP_CORRUPT_RANK=1 run 2 "$RMA/osu_passive_put_latency" -m 1:8 -i 3 -x 1 -c
expect '[ "$RC" = 0 ] && [ "$(data_lines | grep -c " Pass$")" = 4 ]' \
    "COMMSWEEP_CORRUPT_RANK=1: a passive put from rank 0 passes"
COMMSWEEP_CORRUPT_RANK=1 run 2 "$RMA/osu_put_latency" -m 1:8 -i 3 -x 1 -c
expect '[ "$RC" = 1 ] && data_lines | grep -q " Fail$" && grep -q "^osu_put_latency: validation failed at message size 1: rank 0 found its window wrong" "$ERR"' \
    "COMMSWEEP_CORRUPT_RANK=1: rank 1's put fails at rank 0"
unset COMMSWEEP_CORRUPT
run 2 "$RMA/osu_acc_latency" -m 4:8 -i 3 -x 1
expect '[ "$RC" = 0 ] && ! data_lines | grep -q "Fail"' "without -c nothing is checked"

# --help lists the one-sided options and the accepted synchronizations.
run1 "$RMA/osu_passive_put_bw" --help
expect '[ "$RC" = 0 ] && grep -q -- "--window-creation" "$OUT" && grep -q "lock, lock_all, flush, flush_local (default lock)" "$OUT"' \
    "--help names -w, -s and the default"

# Without the single-copy transport Open MPI may have no component for
# MPI_Win_create: then the program says so in one line with status 1, while
# MPI_Win_allocate (osc/sm) still works.
if [ "$RMA_OPEN_MPI" = 1 ] && [ -z "$RMA_CALLER_FLAGS" ]; then
    MPIEXEC_FLAGS=$RMA_LIB_FLAGS
    run 2 "$RMA/osu_put_latency" -m 1:2 -i 2 -x 0 -w create
    expect '[ "$RC" = 0 ] || { [ "$RC" = 1 ] && [ "$(program_lines osu_put_latency)" = 1 ] && grep -q "MPI_Win_create failed" "$ERR"; }' \
        "no usable window component: one line, status 1"
    run 2 "$RMA/osu_put_latency" -m 1:2 -i 2 -x 0 -w allocate -c
    expect_rma "MPI_Win_allocate without single-copy transport" osu_put_latency allocate pscw "1 2" "Latency (us)" Validation
fi
