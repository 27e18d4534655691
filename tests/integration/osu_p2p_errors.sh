#!/usr/bin/env bash
# Integration tests of the point-to-point programs' refusals: wrong rank
# counts, every kind of bad option value, device buffers without a GPU.
# Each must end with status 2 and one line on stderr.
. "$(dirname "$0")/osu_p2p_lib.sh"

for prog in osu_latency osu_latency_mt osu_bw osu_bibw osu_latency_persistent \
    osu_bw_persistent osu_bibw_persistent; do
    run 3 "$P2P/$prog" -m 0:8 -i 2 -x 1
    expect_usage_error "$prog at 3 ranks refused" "$prog"
    expect 'grep -q "needs exactly 2 ranks, not 3" "$ERR"' "$prog at 3 ranks: says why"
done
run 1 "$P2P/osu_latency" -m 0:8 -i 2
expect_usage_error "osu_latency at 1 rank refused" osu_latency
for prog in osu_mbw_mr osu_multi_lat; do
    for np in 1 3; do
        run $np "$P2P/$prog" -m 1:8 -i 2 -x 1
        expect_usage_error "$prog at $np ranks refused" "$prog"
    done
    expect 'grep -q "needs an even number of ranks (2 or more), not 3" "$ERR"' \
        "$prog at 3 ranks: says why"
done

# Option values: parsing is the same on every rank, so one rank shows it;
# two runs under the launcher show every rank leaves with status 2.
# (The parser itself is unit tested; here each option and kind of mistake once.)
bad_bw=(
    "-i abc" "-i 12abc" "-i -5" "-i 0" "-i 99999999999999999999999"
    "-x 1.5" "-M 0" "-W 12abc" "-W 2000000"
    "-m 10:5" "-m 1:2:3" "-m 4:x" "-m 99999999999999999999999"
    "-d opencl" "-i" "--bogus" "X" "H Q"
)
# The runs side by side (lib.sh's in_parallel), each a process of its own.
for args in "${bad_bw[@]}"; do
    # shellcheck disable=SC2086
    in_parallel refused 0 osu_bw "osu_bw $args refused" "$P2P/osu_bw" $args
done
for args in "-t abc" "-t 0" "-t 1:0" "-t 1:2:3" "-t 129" "-t :2" "-t 12abc" "-t -1" \
    "-t 99999999999999999999999" "-W 4"; do
    # shellcheck disable=SC2086
    in_parallel refused 0 osu_latency_mt "osu_latency_mt $args refused" "$P2P/osu_latency_mt" $args
done
for args in "-p 0" "-p abc" "-p 99999999999999999999999" "-R 2" "-R" "-R x"; do
    # shellcheck disable=SC2086
    in_parallel refused 0 osu_mbw_mr "osu_mbw_mr $args refused" "$P2P/osu_mbw_mr" $args
done
for prog in osu_latency osu_multi_lat; do
    in_parallel refused 0 "$prog" "$prog takes no -W" "$P2P/$prog" -W 4
done
in_parallel refused 0 osu_bibw "osu_bibw --nonsense refused" "$P2P/osu_bibw" --nonsense
in_parallel_end
run 2 "$P2P/osu_bw" -i 12abc
expect_usage_error "osu_bw -i 12abc at 2 ranks: status 2 everywhere" osu_bw
run 4 "$P2P/osu_mbw_mr" -p 3 -m 1:8
expect_usage_error "osu_mbw_mr -p 3 at 4 ranks: more pairs than fit" osu_mbw_mr
run 2 "$P2P/osu_bw" -m 1048576:1048576 -M 1048576
expect_usage_error "osu_bw: minimum size does not fit -M" osu_bw

# --help and --version are no errors.
run1 "$P2P/osu_latency_mt" --help
expect '[ "$RC" = 0 ] && grep -q -- "--num-threads" "$OUT"' "osu_latency_mt --help lists -t"
run1 "$P2P/osu_bw" -v
expect '[ "$RC" = 0 ] && grep -q "[0-9]" "$OUT"' "osu_bw -v prints the version"

# Device buffers without CUDA: -d cuda is one line, status 2; a D placement
# is taken as OMB 7.4 built without GPU support takes it, on the host, and
# said on stderr and in the run description.
if cuda_build; then
    skip "device requests refused without CUDA" "this build has CUDA"
else
    run 2 "$P2P/osu_latency" -m 0:8 -i 2 -d cuda
    expect_usage_error "osu_latency -d cuda without CUDA refused" osu_latency
    run 2 "$P2P/osu_latency" -m 0:8 -i 2 H D
    expect '[ "$RC" = 0 ] && [ "$(grep -c "no device support" "$ERR")" = 1 ] && grep -q "^# buffers: rank 0 on host, rank 1 on host (D asked: this build has no device support" "$OUT" && [ "$(data_lines | wc -l)" = 4 ]' \
        "osu_latency H D without device support: host buffers, said on stderr and in the description"
    run 4 "$P2P/osu_mbw_mr" -m 1:8 -i 2 -d cuda
    expect_usage_error "osu_mbw_mr -d cuda without CUDA refused" osu_mbw_mr
fi
