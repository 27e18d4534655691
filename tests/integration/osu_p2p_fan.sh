#!/usr/bin/env bash
# Integration tests of the congestion programs osu_bw_fan_in and
# osu_bw_fan_out: at 2, 3, 4 and 8 ranks (nodes taken as blocks of ranks,
# --ranks-per-node, since the tests run on one machine) with -c, the roles
# and partners they report, validation failing on damaged data from a
# sender, -f and -z (the tail of a sender's iterations), and the refusals:
# one node, one rank, a count that does not split, bad values, device
# buffers without a GPU.
. "$(dirname "$0")/osu_p2p_lib.sh"
SMALL="-m 256:2048 -i 3 -x 1"
SIZES=$(doubling_sizes 256 2048)

# NP PER_NODE NODES for each run: 2, 3, 4 and 8 ranks, both programs, one
# and several ranks per node. (Sizes from 256 bytes, so that MB/s stays
# above 0.00 when ranks wait for a core: MPICH's ranks poll.)
for prog in osu_bw_fan_in osu_bw_fan_out; do
    for case in "2 1 2" "3 1 3" "4 2 2" "8 2 4"; do
        read -r np per nodes <<< "$case"
        # shellcheck disable=SC2086
        run "$np" "$P2P/$prog" $SMALL -c --ranks-per-node "$per"
        expect_p2p "$prog at $np ranks, $per per node: format, sizes, validation passes" \
            "OSU MPI Bandwidth Test" "$SIZES" "Bandwidth (MB/s)" "Validation"
        pairs=$(( per * (nodes - 1) ))
        expect "grep -qx '# nodes: $nodes, $per rank$([ "$per" = 1 ] || echo s) each, blocks of consecutive ranks (--ranks-per-node)' \"\$OUT\" && grep -q '^# bandwidth: the bytes of all $pairs pairs ' \"\$OUT\"" \
            "$prog at $np ranks: $nodes nodes, $pairs pairs"
    done
done
expect 'grep -qx "# fan-out: every rank of node 0 (rank 0.s) sends to the rank of its local index on nodes 1 to 3" "$OUT"' \
    "osu_bw_fan_out at 8 ranks: node 0 sends to nodes 1 to 3"

# -f and -z: min <= mean <= max, the percentiles in order; fan-in's are a
# sender's iterations (rank 0 receives).
run 4 "$P2P/osu_bw_fan_in" -m 1024:4096 -i 20 -x 2 -f -z --ranks-per-node 2 -W 8
expect_p2p "osu_bw_fan_in -f -z: statistics and tail columns" "OSU MPI Bandwidth Test" \
    "$(doubling_sizes 1024 4096)" "Bandwidth (MB/s)" "Min BW (MB/s)" "Max BW (MB/s)" \
    "Iterations" "P50 Tail BW(MB/s)" "P90 Tail BW(MB/s)" "P99 Tail BW(MB/s)"
expect 'data_lines | awk "{ if (!(\$3 <= \$2 + 0.01 && \$2 <= \$4 + 0.01 && \$6 <= \$7 && \$7 <= \$8)) exit 1 }"' \
    "osu_bw_fan_in -f -z: min <= mean <= max, P50 <= P90 <= P99"

# Damaged data from one sender: Fail at the first size, status 1, the
# receiver named. Fan-in: rank 3 (node 1) sends to rank 1; fan-out: rank 0
# sends to ranks 1 and 2, each checking its own.
export COMMSWEEP_CORRUPT=1
COMMSWEEP_CORRUPT_RANK=3 run 4 "$P2P/osu_bw_fan_in" -m 1:8 -i 3 -x 1 -c --ranks-per-node 2
expect '[ "$RC" = 1 ] && data_lines | tail -1 | grep -qE "^1 .* Fail$" && [ "$(program_lines osu_bw_fan_in)" = 1 ] && grep -q "^osu_bw_fan_in: validation failed at message size 1: rank 1 received a wrong byte" "$ERR"' \
    "osu_bw_fan_in, rank 3 damaging its messages: rank 1 fails the size, status 1"
run 3 "$P2P/osu_bw_fan_out" -m 1:8 -i 3 -x 1 -c --ranks-per-node 1
expect '[ "$RC" = 1 ] && data_lines | tail -1 | grep -qE "^1 .* Fail$" && [ "$(program_lines osu_bw_fan_out)" = 1 ]' \
    "osu_bw_fan_out, rank 0 damaging its messages: Fail, one message, status 1"
COMMSWEEP_CORRUPT_RANK=1 run 3 "$P2P/osu_bw_fan_out" -m 1:8 -i 3 -x 1 -c --ranks-per-node 1
expect '[ "$RC" = 0 ] && [ "$(data_lines | grep -c " Pass$")" = 4 ]' \
    "osu_bw_fan_out, a receiver's hook: it sends nothing, every size passes"
unset COMMSWEEP_CORRUPT

# Refusals: one node (host names, as on this machine), one rank, blocks
# that do not split, bad values, device buffers.
for prog in osu_bw_fan_in osu_bw_fan_out; do
    run 2 "$P2P/$prog" -m 1:8 -i 2 -x 1
    expect_usage_error "$prog at 2 ranks on one host refused" "$prog"
    expect 'grep -q "all ranks run on one node (host .*): the fan tests need 2 nodes or more" "$ERR"' \
        "$prog on one host: says why and names --ranks-per-node"
    run 1 "$P2P/$prog" -m 1:8 -i 2 -x 1 --ranks-per-node 1
    expect_usage_error "$prog at 1 rank refused" "$prog"
done
run 3 "$P2P/osu_bw_fan_in" --ranks-per-node 2
expect_usage_error "osu_bw_fan_in: 3 ranks in nodes of 2 refused" osu_bw_fan_in
expect 'grep -q "3 ranks do not split into nodes of 2" "$ERR"' "osu_bw_fan_in: says why"
for args in "--ranks-per-node 0" "--ranks-per-node x" "--ranks-per-node" "-W 0" "-c 1" "H"; do
    # shellcheck disable=SC2086
    run1 "$P2P/osu_bw_fan_out" $args
    expect_usage_error "osu_bw_fan_out $args refused" osu_bw_fan_out
done
if gpu_usable; then
    skip "device requests of the fan tests refused" "a GPU is usable here"
elif cuda_build; then
    run 2 "$P2P/osu_bw_fan_in" -m 1:8 -i 2 --ranks-per-node 1 H D
    expect_usage_error "osu_bw_fan_in H D without a usable GPU refused" osu_bw_fan_in
else # as OMB 7.4 built without GPU support: D is host memory, and said so
    run 2 "$P2P/osu_bw_fan_in" -m 1:8 -i 2 --ranks-per-node 1 H D
    expect '[ "$RC" = 0 ] && grep -q "no device support" "$ERR" && grep -q "^# buffers: senders on host, receivers on host (D asked" "$OUT"' \
        "osu_bw_fan_in H D without device support: host buffers, said so"
fi
