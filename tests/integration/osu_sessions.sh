#!/usr/bin/env bash
# Integration tests of -I (MPI sessions): where the build's MPI library has
# sessions (MPICH 4: make check-mpich), the point-to-point, collective,
# one-sided and start-up programs run with MPI started by MPI_Session_init
# and a communicator from mpi://WORLD, validate, refuse bad input and fail
# on damaged data as without it; where it has none (Open MPI 4.1), -I is
# one line on stderr and status 2 on every rank.
. "$(dirname "$0")/osu_p2p_lib.sh"

run1 "$P2P/osu_latency" --help
if grep -q -- "--session.*not in this MPI library" "$OUT"; then
    for cmd in "osu_init -I" "osu_latency -I -m 1:8" "osu_put_latency -m 1:8 -I" \
        "osu_bw_fan_in -I --ranks-per-node 1" "osu_latency_mp -c -I" "osu_allreduce -I"; do
        prog=${cmd%% *}
        # shellcheck disable=SC2086
        run 2 "$P2P/"$cmd
        expect_usage_error "$cmd without MPI sessions refused" "$prog"
        expect 'grep -q "^'"$prog"': -I: this MPI library has no MPI sessions" "$ERR"' \
            "$prog -I without MPI sessions: says why"
    done
    run1 "$P2P/osu_latency_mt" --session -m 1:8
    expect_usage_error "osu_latency_mt --session without MPI sessions refused" osu_latency_mt
else
    session_line="# MPI start: MPI_Session_init, communicator from the process set mpi://WORLD (-I)"
    run 3 "$P2P/osu_init" -I
    expect '[ "$RC" = 0 ] && data_lines | grep -qxE "nprocs: 3, min: [0-9]+ ms, max: [0-9]+ ms, avg: [0-9]+ ms" && grep -q "^# timed on each rank (CLOCK_MONOTONIC): MPI_Session_init" "$OUT"' \
        "osu_init -I at 3 ranks: the session's start timed"
    run 2 "$P2P/osu_latency" -I -m 1:64 -i 5 -x 1 -c
    expect_p2p "osu_latency -I -c: validation passes in a session" "OSU MPI Latency Test" \
        "$(doubling_sizes 1 64)" "Avg Latency(us)" "Validation"
    expect 'grep -qxF "$session_line" "$OUT"' "osu_latency -I: says MPI runs in a session"
    run 2 "$P2P/osu_latency_mt" -I -m 1:16 -i 5 -x 1 -c -t 2:2
    expect_p2p "osu_latency_mt -I: MPI_THREAD_MULTIPLE from the session" \
        "OSU MPI Multi-threaded Latency Test" "$(doubling_sizes 1 16)" "Avg Latency(us)" "Validation"
    # (From 256 bytes: MPICH's polling ranks can make a 1-byte MB/s 0.00.)
    run 4 "$P2P/osu_bw_fan_in" -I -m 256:2048 -i 3 -x 1 -c --ranks-per-node 2
    expect_p2p "osu_bw_fan_in -I at 4 ranks" "OSU MPI Bandwidth Test" "$(doubling_sizes 256 2048)" \
        "Bandwidth (MB/s)" "Validation"
    run 2 "$P2P/osu_latency_mp" -I -m 1:16 -i 5 -x 1 -c -t 1:1
    expect_p2p "osu_latency_mp -I: forked beside a session" "OSU MPI Multi-process Latency Test" \
        "$(doubling_sizes 1 16)" "Avg Latency(us)" "Validation"
    run 2 "$P2P/osu_put_latency" -I -m 1:16 -i 5 -x 1 -c -s fence
    expect '[ "$RC" = 0 ] && grep -qxF "$session_line" "$OUT" && [ "$(data_lines | grep -c " Pass$")" = 5 ]' \
        "osu_put_latency -I -s fence: windows of the session's communicator, validation passes"
    # The collective driver: blocking, non-blocking, persistent, neighborhood.
    for prog in osu_allreduce osu_ialltoall osu_bcast_persistent osu_neighbor_alltoall; do
        run 4 "$P2P/$prog" -I -m 1:16 -i 3 -x 1 -c
        # (osu_allreduce sums floats: sizes 4, 8, 16.)
        expect '[ "$RC" = 0 ] && grep -qxF "$session_line" "$OUT" && [ "$(data_lines | grep -c " Pass$")" -ge 3 ] && [ "$(data_lines | grep -vc " Pass$")" = 0 ]' \
            "$prog -I at 4 ranks: a session's communicator, validation passes"
    done
    run 3 "$P2P/osu_latency" -I
    expect_usage_error "osu_latency -I at 3 ranks refused, the session ended" osu_latency
    run 2 "$P2P/osu_bw" -I -i abc
    expect_usage_error "osu_bw -I -i abc refused" osu_bw
    COMMSWEEP_CORRUPT=1 run 2 "$P2P/osu_bw" -I -m 1:8 -i 3 -x 1 -c
    expect '[ "$RC" = 1 ] && data_lines | tail -1 | grep -qE "^1 .* Fail$" && [ "$(program_lines osu_bw)" = 1 ]' \
        "osu_bw -I with damaged data: Fail, one message, status 1"
fi
