#!/usr/bin/env bash
# Every one-sided program at 2 ranks with every window creation and every
# synchronization it accepts, validated (-c): header, columns, sizes, Pass.
. "$(dirname "$0")/osu_rma_lib.sh"

# Window creation works at all here (Open MPI needs a transport with RDMA for
# MPI_Win_create); when it does not, only MPI_Win_allocate can be tested.
run 2 "$RMA/osu_put_latency" -m 1:1 -i 1 -x 0
KINDS="create allocate dynamic"
if [ "$RC" != 0 ] && grep -q "MPI_Win_create failed" "$ERR"; then
    skip "MPI_Win_create and MPI_Win_create_dynamic windows" \
        "the MPI library cannot create them here: $(grep -m1 'osu_put_latency:' "$ERR")"
    KINDS="allocate"
elif [ "$RC" != 0 ]; then
    not_ok "osu_put_latency -m 1:1 runs" "status $RC
$(head -c 1500 "$ERR")"
fi

# One validated run of PROGRAM with window KIND and synchronization MODE
# (NOTE after the description).
check_mode() { # PROGRAM KIND MODE [NOTE]
    # shellcheck disable=SC2046
    run 2 "$RMA/$1" $(rma_range "$1") $(rma_window_option "$1") -i 3 -x 1 -c -w "$2" -s "$3"
    expect_rma "$1 -w $2 -s $3 -c${4:+ $4}" "$1" "$2" "$3" "$(rma_sizes "$1")" "$(rma_column "$1")" \
        Validation
}

for prog in $RMA_PROGRAMS; do
    for mode in $(rma_syncs "$prog"); do
        for kind in $KINDS; do in_parallel check_mode "$prog" "$kind" "$mode"; done
    done
done
in_parallel_end

# Defaults: the seed's synchronization and window, alloc_shm hint, no -c.
run 2 "$RMA/osu_put_latency" -m 1:4 -i 3 -x 1
expect_rma "osu_put_latency defaults: create, pscw" osu_put_latency create pscw "1 2 4" "Latency (us)"
expect 'grep -q "^# window creation: .*info alloc_shm=true" "$OUT"' "alloc_shm hint by default"
run 2 "$RMA/osu_passive_get_bw" -m 2:4 -i 3 -x 1 -W 3 -w allocate
expect_rma "osu_passive_get_bw defaults: lock" osu_passive_get_bw allocate lock "2 4" "Bandwidth (MB/s)"
expect 'grep -qx "# window: 3" "$OUT"' "osu_passive_get_bw prints its -W"

# -n / --no-hints / the seed's -no-hints.
for opt in -n --no-hints -no-hints; do
    run 2 "$RMA/osu_get_latency" -m 1:1 -i 2 -x 0 -w allocate "$opt"
    expect '[ "$RC" = 0 ] && grep -q "^# window creation: allocate (MPI_Win_allocate, no info hints)" "$OUT"' \
        "osu_get_latency $opt leaves the hint out"
done

# -f: min, max and iterations; with -c the Validation column last.
run 2 "$RMA/osu_acc_latency" -m 4:8 -i 4 -x 1 -f -c
expect_rma "osu_acc_latency -f -c" osu_acc_latency create pscw "4 8" "Latency (us)" \
    "Min Latency(us)" "Max Latency(us)" "Iterations" Validation
expect '[ "$(data_lines | awk "{print \$5}" | sort -u)" = 4 ]' "-f reports 4 iterations"
expect 'data_lines | awk "{ if (!(\$3 <= \$2 && \$2 <= \$4)) exit 1 }"' "-f: min <= average <= max"

# -z: OMB 7.4's tail columns of rank 0's iterations, after Validation.
run 2 "$RMA/osu_get_latency" -m 4:8 -i 20 -x 1 -z -c
expect_rma "osu_get_latency -z -c" osu_get_latency create pscw "4 8" "Latency (us)" Validation \
    "P50 Tail Lat(us)" "P90 Tail Lat(us)" "P99 Tail Lat(us)"
expect 'data_lines | awk "{ if (!(\$4 > 0 && \$4 <= \$5 && \$5 <= \$6)) exit 1 }"' "-z: 0 < P50 <= P90 <= P99"
run 2 "$RMA/osu_put_bw" -m 64:128 -i 10 -x 1 -W 4 -z
expect_rma "osu_put_bw -z" osu_put_bw create pscw "64 128" "Bandwidth (MB/s)" \
    "P50 Tail BW(MB/s)" "P90 Tail BW(MB/s)" "P99 Tail BW(MB/s)"

# -T: OMB 7.4's element types, validated. all: one sweep per type, each
# after OMB's header lines (the later ones repeat the title, without the
# version, window creation, synchronization and Datatype) and the heading;
# sizes below one element are left out; fetch-and-op and compare-and-swap
# report the element's size; compare-and-swap takes no MPI_FLOAT.
kind=create
[ "$KINDS" = allocate ] && kind=allocate
while IFS='|' read -r prog mode args sizes types; do
    # shellcheck disable=SC2086
    run 2 "$RMA/$prog" -w "$kind" -s "$mode" $args -i 3 -x 1 -c < /dev/null
    expect_rma "$prog -s $mode $args -c" "$prog" "$kind" "$mode" "$sizes" "Latency (us)" Validation
    expect '[ "$(sed -n "s/^# Datatype: \(.*\)\.$/\1/p" "$OUT" | tr "\n" " ")" = "$types " ]' \
        "$prog $args: the Datatype line of each sweep ($types)"
    n=$(echo "$types" | wc -w)
    expect '[ "$(grep -c "^# Size " "$OUT")" = "$n" ] && [ "$(grep -c "^# OSU MPI_" "$OUT")" = "$n" ] && [ "$(grep -c "^# Window creation: " "$OUT")" = "$n" ]' \
        "$prog $args: OMB's header and the heading before each of the $n sweeps"
done <<'CASES'
osu_acc_latency|fence|-m 1:8 -T all|1 2 4 8 4 8 4 8|MPI_CHAR MPI_INT MPI_FLOAT
osu_acc_latency|pscw|-m 2:8|2 4 8|MPI_CHAR
osu_acc_latency|flush|-m 1:16 -T mpi_float|4 8 16|MPI_FLOAT
osu_get_acc_latency|lock|-m 2:4 -T all|2 4 4 4|MPI_CHAR MPI_INT MPI_FLOAT
osu_get_acc_latency|pscw|-m 6:12 -T mpi_int|6 12|MPI_INT
osu_fop_latency|pscw|-T all|1 4 4|MPI_CHAR MPI_INT MPI_FLOAT
osu_fop_latency|lock_all|-T mpi_float|4|MPI_FLOAT
osu_cas_latency|flush|-T all|1 4|MPI_CHAR MPI_INT
osu_cas_latency|fence|-T mpi_int|4|MPI_INT
osu_cas_latency|lock|--type mpi_char|1|MPI_CHAR
CASES
run 2 "$RMA/osu_cas_latency" -T all -i 2 -x 1
expect 'grep -q "^# -T all: no MPI_FLOAT sweep, MPI_Compare_and_swap takes integer types only" "$OUT"' \
    "osu_cas_latency -T all says why MPI_FLOAT is left out"
run 2 "$RMA/osu_acc_latency" -m 1:1 -i 2 -x 1
expect 'grep -q "^# operation: MPI_Accumulate (MPI_SUM) on MPI_SIGNED_CHAR elements" "$OUT"' \
    "OMB's MPI_CHAR moves as MPI_SIGNED_CHAR, a type MPI_SUM takes"
run 2 "$RMA/osu_passive_acc_latency" -m 4:4 -i 2 -x 1 -c
expect '[ "$RC" = 0 ] && grep -qx "# Datatype: MPI_UINT32_T." "$OUT" && [ "$(data_lines | awk "{print \$1, \$NF}")" = "4 Pass" ]' \
    "osu_passive_acc_latency keeps the seed's 32-bit unsigned sums"

# --win-per-size: a window of size x window bytes for every size, as OMB 7.4.
while IFS='|' read -r prog kind mode args sizes; do
    # shellcheck disable=SC2086
    run 2 "$RMA/$prog" --win-per-size -w "$kind" -s "$mode" $args -i 3 -x 1 -c < /dev/null
    expect_rma "$prog --win-per-size -w $kind -s $mode -c" "$prog" "$kind" "$mode" "$sizes" \
        "$(rma_column "$prog")" Validation
    expect 'grep -q "^# window creation: .*a window of size x window bytes for every size" "$OUT"' \
        "$prog --win-per-size says so in its header"
done <<'CASES'
osu_put_latency|create|fence|-m 0:8|0 1 2 4 8
osu_get_bw|allocate|flush|-m 1:8 -W 4|1 2 4 8
osu_acc_latency|dynamic|lock|-m 4:16|4 8 16
osu_put_bibw|create|pscw|-m 1:8 -W 3|1 2 4 8
osu_passive_get_latency|allocate|lock_all|-m 1:8|1 2 4 8
osu_fop_latency|create|flush_local||1
CASES

# --win-memory malloc: create and dynamic windows over page-aligned memory
# of the program's own, as OMB 7.4 makes them; the data still checks.
while IFS='|' read -r prog kind mode args sizes; do
    # shellcheck disable=SC2086
    run 2 "$RMA/$prog" --win-memory malloc -w "$kind" -s "$mode" $args -i 3 -x 1 -c < /dev/null
    expect_rma "$prog --win-memory malloc -w $kind -s $mode -c" "$prog" "$kind" "$mode" "$sizes" \
        "$(rma_column "$prog")" Validation
    expect 'grep -q "^# window creation: .*page-aligned memory (posix_memalign)" "$OUT"' \
        "$prog --win-memory malloc says so in its header"
done <<'CASES'
osu_put_latency|create|flush|-m 1024:4096|1024 2048 4096
osu_get_bw|dynamic|lock|-m 1:8 -W 4|1 2 4 8
osu_acc_latency|create|fence|-m 4:16|4 8 16
CASES

# Zero-byte operations (sync cost alone) and a size that is no power of two.
run 2 "$RMA/osu_put_latency" -m 0:3 -i 2 -x 0 -c
expect_rma "osu_put_latency -m 0:3" osu_put_latency create pscw "0 1 2" "Latency (us)" Validation
run 2 "$RMA/osu_put_bibw" -m 12:24 -i 2 -x 0 -W 5 -c -s fence
expect_rma "osu_put_bibw -m 12:24 -W 5 -s fence" osu_put_bibw create fence "12 24" "Bandwidth (MB/s)" Validation

# Open MPI without its single-copy transport: its
# MPI_Win_allocate windows come from osc/sm, a second component with its own
# synchronization code, so every program and mode runs there too.
if [ "$RMA_OPEN_MPI" = 1 ] && [ -z "$RMA_CALLER_FLAGS" ]; then
    MPIEXEC_FLAGS=$RMA_LIB_FLAGS
    for prog in $RMA_PROGRAMS; do
        for mode in $(rma_syncs "$prog"); do in_parallel check_mode "$prog" allocate "$mode" "(osc/sm)"; done
    done
    in_parallel_end
fi
