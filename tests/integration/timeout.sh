#!/usr/bin/env bash
# --timeout: every MPI program names it in --help; in the OSU-style
# programs (common to all of them, as --defaults is) a rank that never
# reaches a size's first call (the COMMSWEEP_STALL_RANK test hook) ends the
# run with status 3 and lines naming it and the size, in each driver
# (point-to-point, collective, non-blocking collective, one-sided); a limit
# that is not reached changes nothing; bad values are refused like any
# option's. (The other families' stalls: alltoall_*, always_all, caf_bench,
# cpm_bench.)
. "$(dirname "$0")/../lib.sh"
OSU="$BUILD/osu"

stalled() { # NP PROGRAM STALLED_RANK STEP_TEXT
    COMMSWEEP_STALL_RANK=$3 run "$1" "$OSU/$2" --timeout=1 -m 8:8 -i 4 -x 1
    expect_stalled "$2 --timeout=1 at $1 ranks, rank $3 stalled: status 3 within seconds, a line naming rank $3 and the size" \
        "$2" "$3" 20 "$4"
}
in_parallel stalled 2 osu_latency 1 "size 8"
in_parallel stalled 4 osu_mbw_mr 3 "size 8"
in_parallel stalled 3 osu_allreduce 1 "size 8 (float)"
in_parallel stalled 3 osu_alltoall 2 "size 8 (byte)"
in_parallel stalled 3 osu_ibarrier 2 "size 0"
in_parallel stalled 2 osu_put_latency 0 "size 8"
in_parallel_end

# The limit not reached: the same rows as without it.
for prog in osu_latency osu_allreduce; do
    run 2 "$OSU/$prog" -m 1:64 -i 4 -x 1
    cp "$OUT" "$TMPD/plain"
    run 2 "$OSU/$prog" -m 1:64 -i 4 -x 1 --timeout=60
    expect '[ "$RC" = 0 ] && [ "$(data_lines | awk "{print \$1}")" = "$(data_lines "$TMPD/plain" | awk "{print \$1}")" ] &&
            [ "$(data_lines | wc -l)" -ge 5 ]' "$prog --timeout=60 not reached: status 0 and the sizes of a run without it"
done

for value in -1 abc 86401 1e23 ""; do
    run 2 "$OSU/osu_latency" -m 1:8 "--timeout=$value"
    expect_usage_error "osu_latency --timeout=$value: status 2 and one line" osu_latency
done
# (--help is the same text whatever the MPI: the short run, MPICH's,
# leaves this part to Open MPI's.)
helps() { # PROGRAM
    run1 "$1" --help
    expect '[ "$RC" = 0 ] && grep -q -- "--timeout=SECONDS" "$OUT"' "${1#"$BUILD"/} --help names --timeout"
}
for prog in "$OSU"/osu_* "$BUILD"/alltoall/all "$BUILD"/alltoall/aller "$BUILD"/always/all \
    "$BUILD"/always/iall "$BUILD"/caf/cafbench "$BUILD"/cpm/model "$BUILD"/cpm/p2p \
    "$BUILD"/cpm/collective "$BUILD"/cpm/hierarchical_model "$BUILD"/cpm/matmul \
    "$BUILD"/cpm/coll_test "$BUILD"/cpm/ranks2hosts "$BUILD"/cpm/generate_hierarchy_input_file; do
    case $prog in *.o | *.d) continue ;; esac
    test_short || in_parallel helps "$prog"
done
in_parallel_end
summary
