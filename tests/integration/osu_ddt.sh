#!/usr/bin/env bash
# -D derived datatypes on the point-to-point and data-moving collective
# programs: the Transmit Size column (after Validation and the tail columns)
# holds the bytes the type carries at each size, -c passes with each kind of
# type and fails on a corrupted carried byte, bad -D arguments and indx files
# are refused with one line and status 2.
. "$(dirname "$0")/../lib.sh"
P=$BUILD/osu
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

# transmit_problems "SIZES" "TRANSMITS": the sizes and the last column of
# the data lines, as expected.
transmit_problems() {
    local sizes transmits
    sizes=$(data_lines | awk '{print $1}' | tr '\n' ' ')
    transmits=$(data_lines | awk '{print $NF}' | tr '\n' ' ')
    [ "$sizes" = "$1 " ] || echo "sizes '$sizes', want '$1 '"
    [ "$transmits" = "$2 " ] || echo "Transmit Size '$transmits', want '$2 '"
    data_lines | grep -v ' Pass ' | sed 's/^/no Pass: /'
}

# --- point to point: each type kind, with -c
run 2 "$P/osu_latency" -m 1:64 -i 4 -x 1 -D vect:8:4 -c
expect_success "osu_latency -D vect:8:4: count / 8 blocks of 4 bytes, Pass" \
    eval '[ -z "$(transmit_problems "1 2 4 8 16 32 64" "0 0 0 4 8 16 32")" ]'
expect 'grep -qxF "$(osu_columns_line "Avg Latency(us)" Validation "Transmit Size")" "$OUT"' \
    "osu_latency -D: Transmit Size is the last column, after Validation"
run 2 "$P/osu_bw" -m 1:16 -i 2 -x 1 -D cont -c -z
expect_success "osu_bw -D cont -z: every byte carried, after the tail columns" \
    eval '[ -z "$(transmit_problems "1 2 4 8 16" "1 2 4 8 16")" ] &&
          grep -q "P99 Tail BW(MB/s)     Transmit Size$" "$OUT"'
printf '# displacement, block length\n10, 2\n0, 4\n' > "$W/ix.txt"
run 2 "$P/osu_bibw" -m 1:64 -i 2 -x 1 -W 4 -D "indx:$W/ix.txt" -c
expect_success "osu_bibw -D indx: the same 6 bytes from the type's span (12) on" \
    eval '[ -z "$(transmit_problems "16 32 64" "6 6 6")" ]'
run 2 "$P/osu_latency" -m 4:64 -i 2 -x 1 -T mpi_int -D vect:4:1 -c
expect_success "osu_latency -T mpi_int -D vect:4:1: strides in elements, Transmit Size in bytes" \
    eval '[ -z "$(transmit_problems "4 8 16 32 64" "0 0 4 8 16")" ]'
run 2 "$P/osu_latency_mt" -m 8:32 -i 2 -x 1 -t 2:2 -D vect:2:1 -c
expect_success "osu_latency_mt -D vect:2:1: every thread's echo checked" \
    eval '[ -z "$(transmit_problems "8 16 32" "4 8 16")" ]'
run 4 "$P/osu_mbw_mr" -m 1:8 -i 2 -x 1 -W 2 -D cont -c
expect_success "osu_mbw_mr -D cont at 4 ranks" \
    eval '[ -z "$(transmit_problems "1 2 4 8" "1 2 4 8")" ]'
run 4 "$P/osu_multi_lat" -m 8:16 -i 2 -x 1 -D vect:8:8 -c
expect_success "osu_multi_lat -D vect:8:8 (a stride of whole blocks) at 4 ranks" \
    eval '[ -z "$(transmit_problems "8 16" "8 16")" ]'

# --- collectives that move data, each at 3 ranks (a rotating root where
# there is one), and the v-variants' one-type-per-block counts at 1 and 4
for prog in allgather allgatherv alltoall alltoallv alltoallw bcast gather gatherv scatter \
    scatterv iallgather iallgatherv ialltoall ialltoallv ialltoallw ibcast igather igatherv \
    iscatter iscatterv; do
    root=()
    case $prog in *bcast | ?gather | ?gatherv | gather* | *scatter*) root=(-k rotate) ;; esac
    run 3 "$P/osu_$prog" -m 1:32 -i 3 -x 1 -D vect:4:3 -c "${root[@]}"
    expect_success "osu_$prog -D vect:4:3 at 3 ranks: Pass, 3 of every 4 bytes" \
        eval '[ -z "$(transmit_problems "1 2 4 8 16 32" "0 0 3 6 12 24")" ]'
done
for np in 1 4; do
    run $np "$P/osu_alltoallv" -m 16:64 -i 2 -x 1 -D "indx:$W/ix.txt" -c
    expect_success "osu_alltoallv -D indx at $np ranks" \
        eval '[ -z "$(transmit_problems "16 32 64" "6 6 6")" ]'
done

# --- -c catches a wrong carried byte
COMMSWEEP_CORRUPT=1 run 2 "$P/osu_latency" -m 64:64 -i 2 -x 1 -D vect:8:4 -c
expect '[ $RC = 1 ] && data_lines | grep -q " Fail " && [ "$(program_lines osu_latency)" = 1 ]' \
    "osu_latency -D -c: a corrupted carried byte fails (status 1, one message)"
COMMSWEEP_CORRUPT=1 run 3 "$P/osu_alltoall" -m 16:16 -i 2 -x 1 -D vect:4:2 -c
expect '[ $RC = 1 ] && data_lines | grep -q " Fail "' \
    "osu_alltoall -D -c: a corrupted carried element fails (status 1)"

# --- bad input
printf '0, 4\n2, 4\n' > "$W/overlap.txt"
printf '0, 4\n8 4\n' > "$W/nocomma.txt"
printf '# nothing\n' > "$W/empty.txt"
refused 2 osu_latency "-D with an unknown kind refused" "$P/osu_latency" -D strided
refused 2 osu_latency "-D vect without a block length refused" "$P/osu_latency" -D vect:8
refused 2 osu_bw "-D vect with a block longer than the stride refused" "$P/osu_bw" -D vect:4:5
refused 2 osu_bw "-D vect:0:0 refused" "$P/osu_bw" -D vect:0:0
refused 2 osu_latency "-D indx with a missing file refused" "$P/osu_latency" -D "indx:$W/none"
refused 2 osu_latency "-D indx with overlapping blocks refused" "$P/osu_latency" \
    -D "indx:$W/overlap.txt"
refused 2 osu_alltoall "-D indx with a line without a comma refused" "$P/osu_alltoall" \
    -D "indx:$W/nocomma.txt"
refused 2 osu_gather "-D indx without blocks refused" "$P/osu_gather" -D "indx:$W/empty.txt"
refused 2 osu_latency "-D indx wider than every size refused" "$P/osu_latency" -m 8 \
    -D "indx:$W/ix.txt"
refused 2 osu_allreduce "-D on a reduction refused" "$P/osu_allreduce" -D cont
refused 2 osu_barrier "-D on the barrier refused" "$P/osu_barrier" -D cont
refused 4 osu_mbw_mr "-D with -V refused" "$P/osu_mbw_mr" -V -D cont
summary
