#!/usr/bin/env bash
# Integration tests of alltoall/all: structure and values of the output at
# 1, 2, 3, 4, 6 and 8 ranks, contiguous and strided, the data check, bad input.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/alltoall_lib.sh"
ALL="$BUILD/alltoall/all"

for np in 1 2 3 4 6 8; do
    for part in contig strided; do
        run "$np" "$ALL" "$part" 2 16
        expect_success "all $part 2 16 at $np ranks: blocks, lines and columns follow the arguments" \
            check_sweep_output "$np" 16 2
    done
done

# The done-when case: 8 ranks strided 2 256 gives blocks of 8, 4, 2, 1 ranks.
run 8 "$ALL" strided 2 256
expect '[ "$RC" = 0 ] && check_sweep_output 8 256 2 >/dev/null' "all strided 2 256 at 8 ranks passes its data check"
expect '[ "$(grep -c "concurrent communicator" "$OUT")" = 4 ]' "all strided at 8 ranks prints 4 blocks"
# Strided pairing: with 4 communicators of 2, partners differ by half the world.
expect 'grep -q "^# communicator 0: world ranks 0 4$" "$OUT" && grep -q "^# communicator 3: world ranks 3 7$" "$OUT"' \
    "strided pairs differ by half the world size"
expect 'grep -q "^# communicator 1: world ranks 1 3 5 7$" "$OUT"' "strided halves are odd and even ranks"
run 8 "$ALL" contig 1 8
expect 'grep -q "^# communicator 1: world ranks 4 5 6 7$" "$OUT" && grep -q "^# communicator 2: world ranks 4 5$" "$OUT"' \
    "contiguous blocks are consecutive ranks"
run 6 "$ALL" S 1 8
expect '[ "$RC" = 0 ] && grep -q "^# communicator 1: world ranks 1 3 5$" "$OUT" && grep -q "^# 6 concurrent communicators of 1 rank" "$OUT"' \
    "6 ranks strided: communicators of 6, 3 and 1"
run 7 "$ALL" contig 1 8
expect '[ "$RC" = 0 ] && check_sweep_output 7 8 1 >/dev/null && grep -q "^# communicator 2: world ranks 6$" "$OUT" &&
        grep -q "^# fewer than 3 ranks: communicator 2 has 1 rank$" "$OUT"' \
    "7 ranks contiguous: the last communicator is smaller, a # line says so, and the data check passes"
# The ranks column is the target size, as the seed prints it, even where no
# communicator has that many: 9 ranks strided in 4s are 3 communicators of 3.
run 9 "$ALL" strided 1 2
expect_success "9 ranks strided: ranks column 9, 4, 2, 1 (the target sizes), GiB of rank 0's communicator" \
    check_sweep_output 9 2 1 1 strided
expect 'grep -q "^# 3 concurrent communicators of 4 ranks (strided)$" "$OUT" &&
        grep -q "^# fewer than 4 ranks: communicators 0-2 have 3 ranks$" "$OUT" &&
        grep -q "^# fewer than 2 ranks: communicator 4 has 1 rank$" "$OUT" &&
        [ "$(grep -c "^# fewer than" "$OUT")" = 2 ]' \
    "9 ranks strided: a # line names the communicators smaller than the target, in those blocks only"

# Defaults: absent, zero and negative values mean the seed defaults.
run 2 "$ALL"
expect '[ "$RC" = 0 ] && grep -q "partition: contiguous, iterations: 3, countHi: 40960 longs" "$OUT"' "no arguments: contiguous, 3 iterations, countHi 40960"
run 2 "$ALL" s 0 -5
expect '[ "$RC" = 0 ] && grep -q "partition: strided, iterations: 3, countHi: 40960 longs" "$OUT"' "zero and negative arguments mean the defaults"
run 2 "$ALL" x -1 4
expect '[ "$RC" = 0 ] && grep -q "partition: contiguous, iterations: 3, countHi: 4 longs" "$OUT" && check_sweep_output 2 4 3 >/dev/null' \
    "a partition not starting with s is contiguous; -1 iterations is the default"

# The data check can fail: the test hook damages one received element.
COMMSWEEP_CORRUPT=1 run 4 "$ALL" contig 1 8
expect '[ "$RC" = 1 ] && grep -q "^all: data check failed" "$ERR"' "a damaged receive buffer fails the data check with status 1"
# Each ### line is printed as its iteration ends, as the seed does: those of
# the count whose check fails are out before the failure, ...
COMMSWEEP_CORRUPT=1 run 2 "$ALL" contig 3 8
expect '[ "$RC" = 1 ] && grep -q "^### count 8 warm-up time " "$OUT" &&
        [ "$(grep -c "^### count 8 iteration [1-3] time " "$OUT")" = 3 ] && [ "$(data_lines | wc -l)" = 0 ]' \
    "the ### lines of a count are printed before its data check (warm-up and 3 iterations, then the failure)"
# ... and while a count runs: 10^6 calls of 1 MiB per rank take minutes,
# yet the lines of its first iterations come out within seconds (a minute
# at most here), and the job, stopped then, keeps them.
timeout -k 5 60 $MPIEXEC $MPIEXEC_FLAGS -n 2 "$ALL" contig 1000000 65536 > "$OUT" 2> "$ERR" &
job=$!
for _ in $(seq 600); do
    grep -q "^### count 65536 iteration 2 time " "$OUT" && break
    sleep 0.1
done
kill "$job" 2> /dev/null
wait "$job"
RC=$?
# (No row, a line of numbers: the count was cut short. Stopped, MPICH's
# launcher may end with status 0 and adds its own words on stdout.)
expect '[ "$(grep -c "^### count 65536 iteration [0-9]* time " "$OUT")" -ge 2 ] && ! grep -qE "^ *[0-9]+ +[0-9]+ " "$OUT"' \
    "the ### lines of a count's first iterations come out while it runs, and stay when the job is stopped"
# The ### lines and the rows: one per iteration, in order, each count's
# before its row, whose min, mean and max time they are.
run 3 "$ALL" strided 4 8
expect_success "### lines: a warm-up and one per iteration before each row, which summarises them" \
    check_iteration_lines 4

# Bad input: one line from the program, status 2, no hang.
for args in "s abc" "s 12abc" "s 2 12abc" "s 1 99999999999999999999999" "s 99999999999999999999999" \
            "--bogus" "-q" "s 1 2 3" "--memory=tpu" "--memory" "--topology=1" "s 1 1e3" \
            "--timeout=-1" "--timeout=abc" "--timeout=86401" "--timeout=1e23"; do
    run 3 "$ALL" $args
    expect_usage_error "all $args: status 2 and one message" all
done
# --timeout: a rank that never reaches its call (the test hook) ends the
# run with status 3 and a line naming it and the count, instead of a hang.
COMMSWEEP_STALL_RANK=1 run 3 "$ALL" --timeout=1 contig 1 8
expect_stalled "all --timeout=1, rank 1 stalled: status 3 within seconds, a line naming rank 1 and the count" \
    all 1 20 "count 8 in communicators of 3 ranks"
run 2 "$ALL" --timeout=60 contig 2 8
expect '[ "$RC" = 0 ] && grep -q "^# timeout: a count that takes longer than 60 s ends the run with status 3$" "$OUT" &&
        check_sweep_output 2 8 2 > /dev/null' "all --timeout=60 not reached: the sweep as without it, and a # line saying the limit"
run 2 "$ALL" --memory=cuda contig 1 4
expect_usage_error "all --memory=cuda without CUDA support: status 2 and one message" all
run 2 "$ALL" s 1 2305843009213693951
expect '[ "$RC" = 2 ] && [ "$(program_lines all)" = 1 ] && grep -q "cannot allocate\|too large" "$ERR"' "a countHi too large to allocate: status 2 naming the size"

run 2 "$ALL" --help
expect '[ "$RC" = 0 ] && grep -q "^Usage: all" "$OUT" && [ "$(grep -c "^Usage" "$OUT")" = 1 ]' "--help prints usage once and exits 0"
run 2 "$ALL" --version
expect '[ "$RC" = 0 ] && grep -q "^all (commsweep) [0-9]" "$OUT"' "--version"
run 2 "$ALL" --topology contig 1 2
expect '[ "$RC" = 0 ] && grep -q "^# rank 1: host=.* cores=.* numa=.* gpu=" "$OUT"' "--topology prints every rank's placement"
