#!/usr/bin/env bash
# Integration tests of alltoall/aller: every algorithm at 1, 2, 3, 4, 6, 7
# and 8 ranks, contiguous and strided (short, under MPICH: at 1 to 4 ranks,
# one partition per rank count but 3, and the grid algorithms alone at 6, 7
# and 8), through all's sweep and data check; the fallbacks, the summary,
# --algorithm, the data check failing, bad input.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/alltoall_lib.sh"
ALLER="$BUILD/alltoall/aller"
EVERY="alltoall persistent isend rsend put get 2d 3d node2d"

# Open MPI 4.1's osc/rdma, its default for windows on one node, reads with
# vader's CMA and now and then gets EFAULT on a get and retries for ever
# ("Read -1, expected N, errno = 14"); osc/pt2pt runs put and get on every
# communicator size. MPICH needs nothing.
if "$MPIEXEC" --version 2>&1 | grep -qiE 'open mpi|openrte'; then
    MPIEXEC_FLAGS="$MPIEXEC_FLAGS --mca osc pt2pt"
fi

# The "# algorithm: NAME" lines, one per block, in order.
block_algorithms() { sed -n 's/^# algorithm: \([^ ]*\) .*/\1/p' "$OUT" | tr '\n' ' '; }

# Every block of each communicator size names the algorithms in the order
# given, once per size.
check_block_order() { # NP "NAMES"
    local want="" t
    for ((t = $1; t >= 1; t /= 2)); do want="$want$2 "; done
    [ "$(block_algorithms)" = "$want" ] || { echo "blocks name: $(block_algorithms); want: $want"; return 1; }
}

# Each summary line names, for its communicator size and count, the
# algorithm whose block has the smallest mean time (column 5) among those
# that did not fall back to MPI_Alltoall, and the counts are the smallest,
# middle and largest of the halving series.
check_summary() { # NP COUNTHI
    awk -v np="$1" -v hi="$2" '
    function fail(msg) { print "bad summary: " msg; bad = 1; exit 1 }
    /^# algorithm: / { alg = $3; fb = 0; next }
    /^# [a-z0-9]+: .*MPI_Alltoall instead$/ { fb = 1; next }
    /^# summary [0-9]/ {
        sz = $3; cls = $5; cnt = $7; sub(":", "", cnt); name = $9; nsum++
        if (!((sz, cnt) in best)) fail("no rows for " sz " ranks count " cnt ": " $0)
        if (!((sz, cnt, name) in mean)) fail(name " fell back or has no row: " $0)
        if (mean[sz, cnt, name] > best[sz, cnt]) fail(name " is not the fastest (" best[sz, cnt] "): " $0)
        want[sz, cls] = cnt; seen[sz]++; next }
    /^#/ || NF == 0 { next }
    fb { next }
    { k = $2 SUBSEP int($3 * 1073741824 / 16 / $2 + 0.5)
      mean[$2, int($3 * 1073741824 / 16 / $2 + 0.5), alg] = $5
      if (!(k in best) || $5 < best[k]) best[k] = $5 }
    END { if (bad) exit 1
          for (t = np; t >= 1; t = int(t / 2)) {
              c = int(hi * np / t); n = 0; for (x = c; x >= 1; x = int(x / 2)) cs[n++] = x
              if (want[t, "small"] != cs[n - 1]) { print t " ranks: small count " want[t, "small"] " want " cs[n - 1]; exit 1 }
              if (want[t, "large"] != cs[0]) { print t " ranks: large count " want[t, "large"] " want " cs[0]; exit 1 }
              if (n > 2 && want[t, "medium"] != cs[int((n - 1) / 2)]) { print t " ranks: medium count " want[t, "medium"] " want " cs[int((n - 1) / 2)]; exit 1 }
          }
          if (!nsum) { print "no summary lines"; exit 1 } }
    ' "$OUT"
}

# Short (MPICH): one partition per rank count but at 3, each in turn.
partitions() { # NP
    if ! test_short; then echo contig strided; return; fi
    case $1 in 3) echo contig strided ;; 1 | 4 | 7) echo contig ;; *) echo strided ;; esac
}
# The sweep's output at NP ranks (the fallbacks do not depend on the partition).
sweep_at() { ls "$TMPD"/sweep-"$1"-* | head -n 1; }

# Short (MPICH): its ranks poll, and a whole sweep at 6 to 8 ranks on 2
# cores takes most of a minute; there the grid algorithms alone, at count 1,
# which is where the grids and their fallbacks depend on the rank count.
nps="1 2 3 4 6 7 8"
test_short && nps="1 2 3 4"
for np in $nps; do
    for part in $(partitions "$np"); do
        run "$np" "$ALLER" "$part" 1 8
        expect_success "aller $part 1 8 at $np ranks: every algorithm passes its data check, blocks follow the arguments" \
            check_sweep_output "$np" 8 1 9
        expect 'check_block_order '"$np"' "$EVERY" >/dev/null && grep -q "^# algorithms: alltoall, persistent, isend, rsend, put, get, 2d, 3d, node2d$" "$OUT"' \
            "aller $part at $np ranks: one block per algorithm and communicator size, in order"
        expect_success "aller $part at $np ranks: the summary names the fastest algorithm of each size" \
            check_summary "$np" 8
        expect '! grep -qE "^# (put|get): .*instead" "$OUT"' "aller $part at $np ranks: put and get get a window on every communicator"
        cp "$OUT" "$TMPD/sweep-$np-$part"
    done
done
if test_short; then
    for np in 6 7 8; do
        algs="2d 3d"
        [ "$np" = 8 ] && algs="2d 3d node2d"
        run "$np" "$ALLER" --algorithm="${algs// /,}" contig 1 1
        expect_success "aller --algorithm=${algs// /,} contig 1 1 at $np ranks: the data checks pass" \
            check_sweep_output "$np" 1 1 "$(wc -w <<< "$algs")"
        expect 'check_block_order '"$np"' "$algs" >/dev/null' "aller --algorithm=${algs// /,} at $np ranks: one block per algorithm and size, in order"
        cp "$OUT" "$TMPD/sweep-$np-grids"
    done
fi

# The fallbacks say what ran instead (in the sweeps above).
expect 'grep -q "^# 2d: 7 ranks: no 2-D grid with every side above 1, MPI_Alltoall instead$" "$(sweep_at 7)" &&
        grep -q "^# 3d: 7 ranks: no 3-D or 2-D grid with every side above 1, MPI_Alltoall instead$" "$(sweep_at 7)"' \
    "a prime communicator size: 2d and 3d fall back to MPI_Alltoall and say so"
expect 'grep -q "^# 2d: 3 x 2 grid of ranks$" "$(sweep_at 6)" &&
        grep -q "^# 3d: 6 ranks: no 3-D grid with every side above 1, a 3 x 2 grid of ranks instead$" "$(sweep_at 6)"' \
    "6 ranks: 2d is 3 x 2; 3d falls back to the same 2-D grid"
expect 'grep -q "^# 3d: 2 x 2 x 2 grid of ranks$" "$(sweep_at 8)" && grep -q "^# 2d: 4 x 2 grid of ranks$" "$(sweep_at 8)" &&
        grep -q "^# node2d: one node of 8 ranks: no exchange between nodes, MPI_Alltoall instead$" "$(sweep_at 8)"' \
    "8 ranks: 3d is 2 x 2 x 2, 2d 4 x 2, node2d on one node falls back"

# --algorithm picks and orders the blocks (short, MPICH: 4 ranks, counts up
# to 4).
np=8 hi=16
test_short && np=4 hi=4
run $np "$ALLER" --algorithm=get,2d,isend s 2 $hi
expect '[ "$RC" = 0 ] && check_sweep_output '$np' '$hi' 2 3 >/dev/null && check_block_order '$np' "get 2d isend" >/dev/null' \
    "--algorithm=get,2d,isend runs those three in that order"
expect 'grep -q "^# summary '$np' ranks large count '$hi': fastest \(get\|2d\|isend\) [0-9.e+-]* s$" "$OUT"' \
    "without alltoall in the list the summary names no ratio to it"
run 4 "$ALLER" --algorithm=3d c 1 1
expect '[ "$RC" = 0 ] && check_sweep_output 4 1 1 1 >/dev/null' "one algorithm, one long per peer"
run 3 "$ALLER" --algorithm persistent s 3 4
expect '[ "$RC" = 0 ] && check_sweep_output 3 4 3 1 >/dev/null && grep -q "^# algorithm: persistent (MPI_Alltoall_init" "$OUT"' \
    "--algorithm NAME as two words; persistent with 3 iterations"

# The data check can fail, and names the algorithm.
damaged() { # ALGORITHM
    COMMSWEEP_CORRUPT=1 run 4 "$ALLER" --algorithm="$1" contig 1 8
    expect '[ "$RC" = 1 ] && grep -q "^aller: data check failed, algorithm '"$1"':" "$ERR"' \
        "a damaged receive buffer fails the data check of $1 with status 1"
}
for alg in $EVERY; do in_parallel damaged "$alg"; done
in_parallel_end

# Bad input: one line from the program, status 2, no hang.
for args in "--algorithm=bogus" "--algorithm=isend,isend" "--algorithm=" "--algorithm=isend," \
            "--algorithm=,2d" "--algorithm" "--algorithm=ISEND" "s abc" "s 1 12abc" "--bogus" \
            "s 1 2 3" "--memory=tpu" "s 1 99999999999999999999999"; do
    # shellcheck disable=SC2086
    in_parallel refused 3 aller "aller $args: status 2 and one message" "$ALLER" $args
done
in_parallel_end
# --timeout stops every algorithm's stuck count the same way; put and get
# add the remedy where Open MPI 4 may pick osc/rdma (its hang): here, on one
# node, without this script's --mca osc pt2pt.
for alg in isend get; do
    COMMSWEEP_STALL_RANK=2 run 3 "$ALLER" --algorithm=$alg --timeout=1 contig 1 8
    expect_stalled "aller --algorithm=$alg --timeout=1, rank 2 stalled: status 3, a line naming rank 2, the algorithm and the count" \
        aller 2 20 "algorithm $alg, count 8 in communicators of 3 ranks"
done
if "$MPIEXEC" --version 2>&1 | grep -qiE 'open mpi|openrte'; then
    flags=$MPIEXEC_FLAGS
    MPIEXEC_FLAGS=${MPIEXEC_FLAGS/--mca osc pt2pt/}
    for alg in put get; do
        COMMSWEEP_STALL_RANK=1 run 3 "$ALLER" --algorithm=$alg --timeout=1 contig 1 8
        expect '[ "$RC" = 3 ] && grep -q "^aller: algorithm '$alg', .* rank 1 (host .*) has not reached .*: run with --mca osc pt2pt$" "$ERR"' \
            "aller --algorithm=$alg under Open MPI's own choice of component, rank 1 stalled: status 3 and the line names the remedy"
        # Not stalled it ends (status 0), or, if osc/rdma hangs here, with
        # status 3 within the limit: never a hang. Either way the note says so.
        run 2 "$ALLER" --algorithm=$alg --timeout=30 contig 1 8
        expect '{ [ "$RC" = 0 ] || { [ "$RC" = 3 ] && grep -q "run with --mca osc pt2pt$" "$ERR"; }; } &&
                grep -q "^# '$alg': Open MPI 4 with ranks sharing a node: osc/rdma, where it is chosen, can hang; a count over 600 s ends the run" "$OUT"' \
            "aller --algorithm=$alg on one node under Open MPI's own choice: a # line says osc/rdma may hang and what ends it"
    done
    MPIEXEC_FLAGS=$flags
    run 2 "$ALLER" --algorithm=put,get contig 1 8
    expect '[ "$RC" = 0 ] && ! grep -q "osc/rdma" "$OUT"' "aller put and get with --mca osc pt2pt: no word of osc/rdma"
else
    skip "aller put and get under Open MPI's own choice of one-sided component" "not Open MPI"
fi

run 2 "$ALLER" --algorithm=bogus
expect 'grep -q "unknown algorithm .bogus. (one of alltoall, persistent, isend, rsend, put, get, 2d, 3d, node2d)" "$ERR"' \
    "an unknown algorithm is named with the list of known ones"
run 2 "$ALLER" --memory=cuda contig 1 4
expect_usage_error "aller --memory=cuda without CUDA support: status 2 and one message" aller

run 2 "$ALLER" --help
expect '[ "$RC" = 0 ] && grep -q "^Usage: aller" "$OUT" && grep -q -- "--algorithm=NAME\[,NAME...\]" "$OUT"' "--help prints usage with --algorithm"
run 2 "$ALLER" --version
expect '[ "$RC" = 0 ] && grep -q "^aller (commsweep) [0-9]" "$OUT"' "--version"
