#!/usr/bin/env bash
# CPM p2p and collective benchmarks: MPIBlib-style output (preamble, then
# "msg time wtick reps ci" lines), all pairs serial and parallel, every
# timing method, adaptive message sets, and bad arguments refused.
. "$(dirname "$0")/../lib.sh"
P2P="$BUILD/cpm/p2p"
COLL="$BUILD/cpm/collective"
SMALL="-m 0 -M 2048 -S 1024 -r 2 -R 4"

# At least one data line, and every one: 5 numbers, reps within [2, 4],
# wtick flag 0/1, ci >= 0, time >= 0 (except for the root method, which
# subtracts a mean barrier).
well_formed() {
    data_lines | awk -v signed="${1:-0}" '{n++} NF != 5 || $3 !~ /^[01]$/ || $4 < 2 || $4 > 4 || (!signed && $2 < 0) || $5 < 0 {bad=1} END{exit bad || !n}'
}
preamble() {
    grep -q '^# processors: ' "$OUT" && grep -q '^# message set: ' "$OUT" &&
        grep -q '^# precision: min_reps 2, max_reps 4' "$OUT" && grep -q '^#msg time wtick reps ci$' "$OUT"
}

run 2 "$P2P" $SMALL
expect '[ "$RC" = 0 ] && preamble && well_formed && [ "$(data_lines | wc -l)" = 3 ]' "p2p at 2 ranks: 3 sizes, well formed"
expect '[ "$(data_lines | awk "{print \$1}" | tr "\n" " ")" = "0 1024 2048 " ]' "p2p sizes follow the message set"
run 3 "$P2P" $SMALL
expect '[ "$RC" = 0 ] && [ "$(count_blocks)" = 3 ] && well_formed' "p2p at 3 ranks: one block per pair"
run 4 "$P2P" -p $SMALL
expect '[ "$RC" = 0 ] && [ "$(count_blocks)" = 6 ] && [ "$(data_lines | wc -l)" = 18 ] && well_formed' \
    "p2p -p at 4 ranks: 6 pairs in 3 rounds"
expect '[ "$(grep -c "^# pair " "$OUT")" = 6 ]' "p2p -p names every pair"
run 2 "$P2P" -m 0 -M 65536 -S 0 -s 1024 -d 0.05 -n 12 -r 2 -R 4
expect '[ "$RC" = 0 ] && well_formed && [ "$(data_lines | head -1 | cut -d" " -f1)" = 0 ] && [ "$(data_lines | wc -l)" -le 12 ]' \
    "p2p adaptive set starts at min and keeps to max_num"
# A stride that at most doubles per size needs 8 sizes to get from 0 to
# 64 KiB (0 1024 2048 ... 65536), so the set has 8 to 12 sizes.
expect '[ "$(data_lines | wc -l)" -ge 8 ] && data_lines | awk "NR>1 && \$1 <= prev {bad=1} {prev=\$1} END{exit bad}"' \
    "p2p adaptive sizes increase, at least 8 of them"
run 2 "$P2P" -m 8 -M 8 -r 3 -R 3
expect '[ "$RC" = 0 ] && [ "$(data_lines | awk "{print \$4}")" = 3 ]' "p2p -r 3 -R 3 repeats exactly 3 times"

for op in MPI_Bcast MPI_Scatter MPI_Gather MPI_Reduce MPI_Allreduce MPI_Alltoall MPI_Allgather MPI_Barrier; do
    run 3 "$COLL" -O "$op" $SMALL
    expect '[ "$RC" = 0 ] && preamble && well_formed && [ "$(data_lines | wc -l)" = 3 ]' "collective -O $op at 3 ranks"
done
for t in root global; do
    run 4 "$COLL" -O MPI_Bcast -t "$t" --root 2 $SMALL
    expect '[ "$RC" = 0 ] && well_formed 1 && [ "$(data_lines | wc -l)" = 3 ] && grep -q "timing method: $t" "$OUT"' "collective -t $t at 4 ranks, root 2"
done

refused 1 p2p "p2p at 1 rank refused" "$P2P" $SMALL
refused 2 p2p "p2p with -R below -r refused" "$P2P" -r 5 -R 4
refused 2 p2p "p2p -e 0 refused" "$P2P" -e 0
refused 2 p2p "p2p -m abc refused" "$P2P" -m abc
refused 2 p2p "p2p adaptive with -s 0 refused" "$P2P" -S 0 -s 0
refused 2 p2p "p2p with a stray argument refused" "$P2P" extra
refused 2 collective "collective without -O refused" "$COLL" $SMALL
refused 2 collective "collective with an unknown operation refused" "$COLL" -O MPI_Bogus
refused 2 collective "collective with an unknown timing method refused" "$COLL" -O MPI_Bcast -t slowest
refused 2 collective "collective with a root outside the ranks refused" "$COLL" -O MPI_Bcast --root 2

# --timeout: a message size that a rank never reaches (the test hook) ends
# the run with status 3 and lines naming it and the size, in every tool the
# message set drives (model builds its models through the same runner).
for tool in "p2p" "collective -O MPI_Bcast" "model -C Hockney -o $TMPD/stalled.model"; do
    COMMSWEEP_STALL_RANK=1 run 3 $BUILD/cpm/$tool $SMALL --timeout=1
    expect_stalled "${tool%% *} --timeout=1, rank 1 stalled: status 3 within seconds, a line naming rank 1 and the size" \
        "${tool%% *}" 1 20 "message size 0"
done
run 2 "$P2P" $SMALL --timeout=60
expect '[ "$RC" = 0 ] && [ "$(data_lines | wc -l)" = 3 ]' "p2p --timeout=60 not reached: the same 3 sizes"
for value in -1 x 86401; do
    refused 2 p2p "p2p --timeout=$value refused" "$P2P" $SMALL --timeout=$value
done

# --timeout in the other MPI tools: a product of matmul, a checked call of
# coll_test, the gathering of host names of ranks2hosts and
# generate_hierarchy_input_file, each one step.
run 3 "$BUILD/cpm/model" -C Hockney -o "$TMPD/three.model" $SMALL
for tool in "matmul -N 32 -t 0.01:set native, N 32" \
    "coll_test -i $TMPD/three.model:Hockney_Bcast_ucs_binomial_min, root 0, 1024 elements" \
    "ranks2hosts:gathering the host names" "generate_hierarchy_input_file:gathering the host names"; do
    args=${tool%%:*}
    # shellcheck disable=SC2086
    COMMSWEEP_STALL_RANK=1 run 3 $BUILD/cpm/$args --timeout=1
    expect_stalled "${args%% *} --timeout=1, rank 1 stalled: status 3 within seconds, a line naming rank 1 and the step" \
        "${args%% *}" 1 20 "${tool#*:}"
    refused 3 "${args%% *}" "${args%% *} --timeout=-1 refused" $BUILD/cpm/${args%% *} --timeout=-1
done
