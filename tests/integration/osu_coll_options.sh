#!/usr/bin/env bash
# Collective benchmarks: options and failure paths. Bad input (status 2, one
# line), -M capping, a corrupted receive buffer caught by -c (the row with
# Fail, one message, status 1), -T, -z tail columns, -u warm-up calls,
# -k rotate, --per-iteration-max, -t, size 0, the barrier's layout, device
# buffers without a GPU, and sizes the int-count MPI calls cannot express.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/osu_coll_lib.sh"
P=$BUILD/osu

# --- bad input: one line from the program, status 2 on every rank
bad "non-numeric -i" osu_allgather -i abc
bad "trailing garbage in -i" osu_alltoall -i 5x
bad "negative -x" osu_bcast -x -1
bad "overflowing -M" osu_gather -M 99999999999999999999999
bad "-i 0" osu_scatter -i 0
bad "non-numeric -m" osu_allreduce -m 1:lots
bad "an unknown option" osu_reduce -Q
bad "a stray argument" osu_barrier extra
bad "-T long" osu_allreduce -T long
bad "-T on the barrier, which moves no data" osu_barrier -T int
bad "-k middle" osu_bcast -k middle
bad "-k on a collective without a root" osu_alltoall -k rotate
bad "-t abc" osu_iallreduce -t abc
bad "-t -2" osu_ibcast -t -2
bad "-t on a blocking collective" osu_allreduce -t 2
bad "a float sweep without a whole element (-m 1:2)" osu_reduce -m 1:2
bad "a -M limit below the smallest size" osu_alltoall -m 64:128 -M 100
bad "v-counts beyond the int range" osu_allgatherv -m 1073741824:1073741824 -M 100000000000
bad "byte displacements beyond the int range" osu_alltoallw -m 1073741824:1073741824 -M 100000000000
bad "a reduction count beyond the int range" osu_allreduce -T char -m 4294967296:4294967296 -M 100000000000
# An empty range is no range (not the default one); "-m :" would be the
# launcher's program separator, hence the long form. Every OSU program but
# osu_hello and osu_init, which take OMB's options and use none.
for p in "$BUILD"/osu/osu_*; do
    case ${p##*/} in *.* | osu_hello | osu_init) continue ;; esac
    in_parallel bad "an empty size range (--message-size=:)" "${p##*/}" --message-size=:
done
in_parallel_end

# --- device buffers: with CUDA and a GPU they run; otherwise one line and 2
if gpu_usable; then
    # --staging: Debian's MPI libraries cannot read device memory themselves.
    run 2 "$P/osu_allreduce" -d cuda --staging -m 4:64 -i 2 -x 1 -c -f
    msg=$( [ $RC = 0 ] || { echo "status $RC"; exit 1; }; coll_check_full allreduce 2 "4 8 16 32 64") \
        && ok "device buffers: Pass" || not_ok "device buffers" "$msg"
else
    run 2 "$P/osu_alltoall" -d cuda
    expect_usage_error "-d cuda without a GPU refused" osu_alltoall
    run 2 "$P/osu_iscatter" -d cuda -c
    expect_usage_error "-d cuda without a GPU refused (non-blocking)" osu_iscatter
fi

# --- -M capping: alltoall at 4 ranks holds 8 blocks, so 4096 bytes allow 512
run 4 "$P/osu_alltoall" -m 1:1024 -M 4096 -i 2 -x 1 -c
expect '[ $RC = 0 ]' "-M capped run succeeds"
expect 'grep -qE "^# warning: maximum message size lowered from 1024 to 512 bytes" "$OUT"' \
    "-M prints the '#' warning naming the new maximum"
expect '[ "$(data_lines | tail -1 | awk "{print \$1}")" = 512 ]' "-M: the last size is 512"
# reduce_scatter at 3 ranks holds 2 blocks: 100 bytes allow 32 (whole floats)
run 3 "$P/osu_ireduce_scatter" -m 1:1024 -M 100 -i 2 -x 1 -c
expect '[ $RC = 0 ] && [ "$(data_lines | awk "{print \$1}" | tr "\n" " ")" = "4 8 16 32 " ]' \
    "-M caps a reduction to whole elements (4 8 16 32)"

# --- a corrupted receive buffer fails validation (corrupt, osu_coll_lib.sh)
corrupt "a wrong element on rank 2 of 3" 3 osu_allgather 2 "1 \(iteration 0\): rank 2 " -m 1:64 -i 3 -x 1 -c
corrupt "a wrong sum" 3 osu_allreduce 1 "4 \(iteration 0\): rank 1 " -m 1:64 -i 3 -x 1 -c
corrupt "a wrong element at the root" 4 osu_igather 0 "1 .*rank 0 " -m 1:64 -i 3 -x 1 -c
corrupt "a wrong element at 1 rank" 1 osu_bcast 0 "1 " -m 1:64 -i 3 -x 1 -c
corrupt "a wrong part of the vector" 3 osu_ireduce_scatter 2 "[0-9]+ .*rank 2 " -m 1:64 -i 3 -x 1 -c
corrupt "a wrong block of the vector" 3 osu_reduce_scatter_block 1 "16 .*rank 1 " -m 1:64 -i 3 -x 1 -c
corrupt "a wrong block (byte displacements)" 3 osu_alltoallw 1 "1 \(iteration 0\): rank 1 " -m 1:64 -i 3 -x 1 -c
corrupt "a wrong block (byte displacements, non-blocking)" 4 osu_ialltoallw 3 "1 .*rank 3 " -m 1:64 -i 3 -x 1 -c
COMMSWEEP_CORRUPT=1 run 2 "$P/osu_allgather" -m 1:64 -i 3 -x 1
expect '[ $RC = 0 ]' "COMMSWEEP_CORRUPT has no effect without -c"

# --- element types: exact sums in every type, char sizes from 1 byte
for t in char int float double; do
    case $t in char) sz=1 ;; int|float) sz=4 ;; double) sz=8 ;; esac
    want=$(doubling_sizes $sz 64)
    run 3 "$P/osu_allreduce" -T $t -m 1:64 -i 3 -x 1 -c -f
    msg=$( [ $RC = 0 ] || { echo "status $RC"; exit 1; }; coll_check_full allreduce 3 "$want") \
        && ok "osu_allreduce -T $t: sizes from $sz bytes, Pass" || not_ok "osu_allreduce -T $t" "$msg"
done
run 8 "$P/osu_iallreduce" -T char -m 1:16 -i 2 -x 1 -c
expect '[ $RC = 0 ] && grep -q "send values 0 to 15 keep every sum exact" "$OUT"' \
    "-T char at 8 ranks keeps sums within a signed char"

# --- rotating roots
for p in gather scatterv bcast ireduce; do
    run 3 "$P/osu_$p" -k rotate -m 1:64 -i 4 -x 1 -c -f
    msg=$( [ $RC = 0 ] || { echo "status $RC"; exit 1; }; coll_check_full $p 4 "$(coll_sizes $p 1 64)") \
        && grep -q "^# root: rotating" "$OUT" \
        && ok "osu_$p -k rotate: Pass at every root" || not_ok "osu_$p -k rotate" "$msg"
done

# --- statistics over the slowest rank per iteration
run 3 "$P/osu_alltoall" --per-iteration-max -m 1:64 -i 4 -x 1 -c -f
msg=$( [ $RC = 0 ] || { echo "status $RC"; exit 1; }; coll_check_full alltoall 4 "1 2 4 8 16 32 64") \
    && grep -q "^# statistics: each iteration lasts until its slowest rank" "$OUT" \
    && ok "--per-iteration-max: min <= avg <= max, Pass" || not_ok "--per-iteration-max" "$msg"

# --- non-blocking: MPI_Test calls, compute within overall, overlap in [0, 100]
run 3 "$P/osu_iallreduce" -t 4 -m 4:256 -i 4 -x 1 -c
expect '[ $RC = 0 ] && grep -q "with 4 MPI_Test calls" "$OUT"' "-t 4 is used and reported"
expect 'data_lines | awk "{ n++; if (!(\$3 <= \$2 + 0.01 && \$5 >= 0 && \$5 <= 100)) bad = 1 } END { exit bad || n == 0 }"' \
    "compute <= overall and 0 <= overlap <= 100 on every row"

# --- -z: OMB 7.4's tail columns after Validation; P50 <= P90 <= P99
tail_cols() { # the heading's last four names, as one line
    grep -E '^# (Size|Avg)' "$OUT" | sed -e 's/^# //' -e 's/   */\n/g' | tail -n "$1" | tr '\n' '|'
}
run 3 "$P/osu_allreduce" -z -c -m 4:64 -i 20 -x 2
expect '[ $RC = 0 ] && [ "$(tail_cols 4)" = "Validation|P50 Tail Lat(us)|P90 Tail Lat(us)|P99 Tail Lat(us)|" ]' \
    "osu_allreduce -z -c: the tail columns follow Validation"
expect 'data_lines | awk "{ n++; if (!(NF == 6 && \$3 == \"Pass\" && \$4 > 0 && \$4 <= \$5 && \$5 <= \$6)) bad = 1 } END { exit bad || n != 5 }"' \
    "osu_allreduce -z: every row Pass, 0 < P50 <= P90 <= P99"
run 3 "$P/osu_ibcast" -z -f -m 1:4 -i 10 -x 1
expect '[ $RC = 0 ] && [ "$(tail_cols 4)" = "Overlap(%)|P50 Tail Lat(us)|P90 Tail Lat(us)|P99 Tail Lat(us)|" ] && data_lines | awk "NF != 13 { exit 1 }"' \
    "osu_ibcast -z -f: the tail columns end the non-blocking row"
run 3 "$P/osu_barrier" -z -i 10 -x 1
expect '[ $RC = 0 ] && grep -qE "^# Avg Latency\(us\) +P50 Tail Lat\(us\) +P90 Tail Lat\(us\) +P99 Tail Lat\(us\)$" "$OUT" && data_lines | awk "NF != 4 { exit 1 }"' \
    "osu_barrier -z: four values, no size column"
bad "-z with a percentile list" osu_allreduce -z50,90

# --- -u: untimed calls before each validated one; the check stays strict
run 3 "$P/osu_bcast" -u 3 -c -m 1:64 -i 4 -x 1
expect '[ $RC = 0 ] && grep -q "^# validation warm-up (-u): 3 untimed calls before each timed one" "$OUT" && ! data_lines | grep -qv " Pass$"' \
    "osu_bcast -u 3 -c: every row Pass"
corrupt "a wrong element after -u warm-up calls" 3 osu_bcast 2 "1 \(iteration 0\): rank 2 " -u 2 -m 1:64 -i 3 -x 1 -c
corrupt "a wrong sum after -u warm-up calls (non-blocking)" 3 osu_iallreduce 1 "4 \(iteration 0\): rank 1 " -u 2 -m 4:64 -i 3 -x 1 -c
bad "-u abc" osu_alltoall -u abc -c

# --- size 0 and the barrier's layout
run 2 "$P/osu_allgather" -m 0:8 -i 2 -x 1 -c
expect '[ $RC = 0 ] && [ "$(data_lines | awk "{print \$1}" | tr "\n" " ")" = "0 1 2 4 8 " ]' \
    "-m 0:8 measures 0 1 2 4 8"
run 3 "$P/osu_barrier" -i 3 -x 1
expect '[ $RC = 0 ] && grep -qE "^# Avg Latency\(us\)$" "$OUT" && [ $(data_lines | wc -l) = 1 ]' \
    "osu_barrier prints '# Avg Latency(us)' and one row, no size column"
expect 'data_lines | awk "{ exit !(NF == 1 && \$1 ~ /^[0-9]+\\.[0-9][0-9]\$/ && length(\$0) == 17) }"' \
    "barrier row is one value, 2 decimals, as wide as its heading (17)"

# --- defaults: 1 B to 1 MiB, iterations by size (kept short with -m)
run 1 "$P/osu_scatter" -m 8192:16384 -x 0 -f
expect '[ $RC = 0 ] && data_lines | awk "\$1 == 8192 { a = \$5 == 1000 } \$1 == 16384 { b = \$5 == 100 } END { exit !(a && b) }"' \
    "default iterations: 1000 up to 8192 bytes, 100 above"
run 1 "$P/osu_gather" --help
expect '[ $RC = 0 ] && grep -q -- "--root" "$OUT" && grep -q -- "--per-iteration-max" "$OUT"' \
    "--help lists -k and --per-iteration-max"
