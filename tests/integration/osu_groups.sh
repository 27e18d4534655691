#!/usr/bin/env bash
# --groups=SPEC and --np-ladder in the OSU-style collectives: the groups
# each SPEC makes at 8 ranks (nodes faked with --nodes-by-block), the data
# checked in every group (-c), the worst group's row the largest of the
# groups' rows at each size, uneven groups, the ladder's blocks, a failed
# check in one group, the slowest rank of each group (--stats), JSON Lines,
# and bad input. Under MPICH (test_short) a part of
# the layouts and programs.
. "$(dirname "$0")/../lib.sh"
OSU="$BUILD/osu"
SWEEP=(-m 4:8 -i 10 -x 2)
NSIZES=2

# Problems of a --groups output with NGROUPS groups and NSIZES sizes:
# a block per group and the worst group's, every row Pass, and each row of
# the worst group's block equal to the largest first value of the groups'
# rows of its size (and the row of the group its '#' line names; the
# lowest for a rate).
groups_problems() { # NGROUPS NSIZES [lowest: the worst is the lowest value]
    awk -v ngroups="$1" -v nsizes="$2" -v lowest="${3:-}" '
        /^# group [0-9]+: [0-9]+ rank/ { g = $3; sub(":", "", g); block = "group"; next }
        /^# worst group:/ { block = "worst"; next }
        /^# worst: group / { named = $4; next }
        /^#/ || /^[[:space:]]*$/ { next }
        block == "group" {
            rows++
            if ($NF != "Pass") { print "not Pass: " $0; exit }
            v[g, $1] = $2
            if (!($1 in most) || (lowest ? $2 + 0 < most[$1] + 0 : $2 + 0 > most[$1] + 0)) most[$1] = $2
            next
        }
        block == "worst" {
            worst++
            if ($2 != most[$1]) { print "worst row " $0 " is not the largest, " most[$1]; exit }
            if (v[named, $1] != $2) { print "worst row " $0 " is not group " named "'"'"'s"; exit }
        }
        END {
            if (rows != ngroups * nsizes) print rows " group rows, want " ngroups * nsizes
            else if (worst != nsizes) print worst " worst rows, want " nsizes
        }' "$OUT"
}

slowest_of_group() { # G: the SlowestRank column of group G's block
    awk -v g="$1" '/^# group [0-9]+: [0-9]+ rank/ { in_g = ($3 == g ":") ; next }
                   /^# worst group:/ { in_g = 0 } !/^#/ && NF && in_g { print $(NF - 2) }' "$OUT" | sort -u | tr '\n' ' '
}

# The '# group G: ...' lines of the first description of each group.
group_lines() { grep -E '^# group [0-9]+: [0-9]+ rank' "$OUT" | awk '!seen[$0]++' | tr '\n' ';'; }

cases=("node 4 --nodes-by-block=2" "cross 2 --nodes-by-block=2" "4 2" "stride:4 4" "3 3")
test_short && cases=("node 4 --nodes-by-block=2" "stride:4 4")
for case in "${cases[@]}"; do
    read -r spec ngroups extra <<< "$case"
    # shellcheck disable=SC2086
    run 8 "$OSU/osu_allreduce" --groups="$spec" $extra "${SWEEP[@]}" -c
    expect '[ "$RC" = 0 ] && [ "$(count_blocks)" = $((ngroups + 1)) ]' \
        "osu_allreduce --groups=$spec at 8 ranks: status 0, $ngroups group blocks and the worst group's"
    expect_no_problems "osu_allreduce --groups=$spec -c: every row Pass, the worst row the largest of the groups'" \
        groups_problems "$ngroups" "$NSIZES"
    case $spec in
    node) want="# group 0: 2 ranks (world ranks 0-1);# group 1: 2 ranks (world ranks 2-3);# group 2: 2 ranks (world ranks 4-5);# group 3: 2 ranks (world ranks 6-7);" ;;
    cross) want="# group 0: 4 ranks (world ranks 0,2,4,6);# group 1: 4 ranks (world ranks 1,3,5,7);" ;;
    4) want="# group 0: 4 ranks (world ranks 0-3);# group 1: 4 ranks (world ranks 4-7);" ;;
    stride:4) want="# group 0: 2 ranks (world ranks 0,4);# group 1: 2 ranks (world ranks 1,5);# group 2: 2 ranks (world ranks 2,6);# group 3: 2 ranks (world ranks 3,7);" ;;
    3) want="# group 0: 3 ranks (world ranks 0-2);# group 1: 3 ranks (world ranks 3-5);# group 2: 2 ranks (world ranks 6-7);" ;;
    esac
    expect '[ "$(group_lines)" = "$want" ]' "osu_allreduce --groups=$spec: the groups' ranks"
    expect 'grep -q "^# group 0 hosts: $(hostname) (" "$OUT" && [ "$(grep -c "^# group [0-9] row: " "$OUT")" = $((ngroups * NSIZES)) ]' \
        "osu_allreduce --groups=$spec: the hosts named, a '# group G row:' line per group and size"
done

# Without --nodes-by-block the nodes are the ranks that share memory: one
# node here, so one group of 8 (node) or 8 groups of 1 (cross).
run 8 "$OSU/osu_allreduce" --groups=node "${SWEEP[@]}" -c
expect '[ "$RC" = 0 ] && [ "$(group_lines)" = "# group 0: 8 ranks (world ranks 0-7);" ]' \
    "osu_allreduce --groups=node at 8 ranks on one machine: one group of all"

# Non-blocking and persistent collectives, rooted with a rotating root,
# groups of unequal size (9 ranks in groups of 4: the last of 1 rank).
progs=(osu_ialltoall osu_bcast_persistent osu_gather)
test_short && progs=(osu_ialltoall)
for prog in "${progs[@]}"; do
    [ -x "$OSU/$prog" ] || { skip "$prog --groups" "not built (no persistent collectives)"; continue; }
    args=()
    [ "$prog" != osu_ialltoall ] && args=(-k rotate)
    run 9 "$OSU/$prog" --groups=4 "${SWEEP[@]}" -c "${args[@]}"
    expect '[ "$RC" = 0 ] && [ "$(count_blocks)" = 4 ] &&
            grep -q "^# group 2: 1 rank (world rank 8)$" "$OUT" && grep -q "^# a group of 1 rank" "$OUT"' \
        "$prog --groups=4 -c at 9 ranks: groups of 4, 4 and 1, said, and the worst group's block"
    expect_no_problems "$prog --groups=4 at 9 ranks: every row Pass, the worst row the largest" \
        groups_problems 3 "$NSIZES"
done

# A failed check in one group: its row Fail, the others Pass, status 1 and
# the message names the world rank and the group.
COMMSWEEP_CORRUPT=1 COMMSWEEP_CORRUPT_RANK=5 run 8 "$OSU/osu_allgather" --groups=stride:2 "${SWEEP[@]}" -c
expect '[ "$RC" = 1 ] && grep -q "^# group 1 row: 4 .*Fail$" "$OUT" && grep -q "^# group 0 row: 4 .*Pass$" "$OUT" &&
        grep -q "validation failed at size 4.*(world rank 5, group 1)" "$ERR"' \
    "osu_allgather --groups=stride:2 with rank 5's data spoilt: group 1 Fail, group 0 Pass, status 1"

# The ladder: a block per rank count, each after its ranks and hosts.
ladder_lines() { grep -E '^# np-ladder: [0-9]+ rank' "$OUT" | tr '\n' ';'; }
# The ladder's JSON rows: "RANKS:ROWS " per step.
steps() { grep '^{"type":"row"' "$OUT" | grep -o '"ladder_ranks":[0-9]*' | cut -d: -f2 | uniq -c | awk '{ printf "%s:%s ", $2, $1 }'; }
run 8 "$OSU/osu_allreduce" --np-ladder "${SWEEP[@]}" -c
expect '[ "$RC" = 0 ] && [ "$(count_blocks)" = 3 ] && [ "$(data_lines | grep -c "Pass$")" = $((3 * NSIZES)) ] &&
        [ "$(ladder_lines)" = "# np-ladder: 2 ranks (world ranks 0-1);# np-ladder: 4 ranks (world ranks 0-3);# np-ladder: 8 ranks (world ranks 0-7);" ] &&
        [ "$(grep -c "^# np-ladder hosts: $(hostname) (" "$OUT")" = 3 ]' \
    "osu_allreduce --np-ladder -c at 8 ranks: blocks for 2, 4 and 8 ranks, each with its hosts, every row Pass"
run 6 "$OSU/osu_iallgather" --np-ladder "${SWEEP[@]}" -c
expect '[ "$RC" = 0 ] && [ "$(count_blocks)" = 3 ] &&
        [ "$(ladder_lines)" = "# np-ladder: 2 ranks (world ranks 0-1);# np-ladder: 4 ranks (world ranks 0-3);# np-ladder: 6 ranks (world ranks 0-5);" ]' \
    "osu_iallgather --np-ladder at 6 ranks: blocks for 2, 4 and 6 ranks"
run 4 "$OSU/osu_barrier" --np-ladder -i 10 -x 2
expect '[ "$RC" = 0 ] && [ "$(count_blocks)" = 2 ]' "osu_barrier --np-ladder at 4 ranks: blocks for 2 and 4 ranks"
COMMSWEEP_CORRUPT=1 COMMSWEEP_CORRUPT_RANK=3 run 4 "$OSU/osu_alltoall" --np-ladder "${SWEEP[@]}" -c
expect '[ "$RC" = 1 ] && [ "$(data_lines | grep -c Pass$)" = "$NSIZES" ] && grep -q "world rank 3, in the step of 4 ranks" "$ERR"' \
    "osu_alltoall --np-ladder with rank 3's data spoilt: the 2-rank block Pass, then Fail and status 1"

# The programs of many pairs: the ranks pair up within each group.
run 8 "$OSU/osu_mbw_mr" --groups=4 "${SWEEP[@]}" -c
expect '[ "$RC" = 0 ] && [ "$(count_blocks)" = 3 ] && grep -q "^# pairs in each group: .*2 pairs" "$OUT"' \
    "osu_mbw_mr --groups=4 -c at 8 ranks: 2 pairs in each of 2 groups, their blocks and the worst group's"
expect_no_problems "osu_mbw_mr --groups=4: every row Pass, the worst row the lowest MB/s" \
    groups_problems 2 "$NSIZES" lowest
run 8 "$OSU/osu_multi_lat" --groups=stride:2 "${SWEEP[@]}" -c
expect '[ "$RC" = 0 ] && [ "$(group_lines)" = "# group 0: 4 ranks (world ranks 0,2,4,6);# group 1: 4 ranks (world ranks 1,3,5,7);" ]' \
    "osu_multi_lat --groups=stride:2 -c at 8 ranks: groups of ranks 2 apart"
expect_no_problems "osu_multi_lat --groups=stride:2: every row Pass, the worst row the largest latency" \
    groups_problems 2 "$NSIZES"
COMMSWEEP_CORRUPT=1 COMMSWEEP_CORRUPT_RANK=6 run 8 "$OSU/osu_multi_lat" --groups=4 "${SWEEP[@]}" -c
expect '[ "$RC" = 1 ] && grep -q "^# group 1 row: 4 .*Fail$" "$OUT" && grep -q "^# group 0 row: 4 .*Pass$" "$OUT" &&
        grep -q "validation failed at message size 4.*(world rank [0-9], group 1)" "$ERR"' \
    "osu_multi_lat --groups=4 with rank 6's data spoilt: group 1 Fail, group 0 Pass, status 1"
# (The slowed-rank runs are at 4 ranks, and the slowed rank sleeps 30 ms
# rather than 10: under MPICH, whose ranks poll without yielding, 8 ranks
# on 2 cores made a waiting rank's calls longer than 10 ms now and then.)
COMMSWEEP_SLOW_MS=30 COMMSWEEP_SLOW_RANK=2 run 4 "$OSU/osu_mbw_mr" --groups=2 "${SWEEP[@]}" --stats
expect '[ "$RC" = 0 ] && [ "$(slowest_of_group 1)" = "2 " ]' \
    "osu_mbw_mr --groups=2 --stats at 4 ranks with sender 2 slowed: group 1's rows name world rank 2"
for bad in "osu_multi_lat --groups=3" "osu_mbw_mr --groups=2 -V" "osu_mbw_mr --groups=stride:4" \
    "osu_multi_lat --groups=2 --samples" "osu_latency --groups=2" "osu_bw_fan_in --groups=2"; do
    read -r prog opts <<< "$bad"
    # shellcheck disable=SC2086
    run 6 "$OSU/$prog" $opts -m 4:4 -i 2 -x 1
    expect_usage_error "$bad at 6 ranks: refused" "$prog"
done
run 8 "$OSU/osu_mbw_mr" -p 2 --groups=6 -m 4:4 -i 2 -x 1
expect_usage_error "osu_mbw_mr -p 2 --groups=6 at 8 ranks: the group of 2 has 1 pair, refused on every rank" osu_mbw_mr

# The ladder of the programs of pairs: each step's ranks pair up among
# themselves (its rank i with its rank i + half the step).
pairs_lines() { grep -E '^# pairs: ' "$OUT" | tr '\n' ';'; }
run 8 "$OSU/osu_mbw_mr" --np-ladder "${SWEEP[@]}" -c
expect '[ "$RC" = 0 ] && [ "$(count_blocks)" = 3 ] && [ "$(data_lines | grep -c "Pass$")" = $((3 * NSIZES)) ] &&
        [ "$(ladder_lines)" = "# np-ladder: 2 ranks (world ranks 0-1);# np-ladder: 4 ranks (world ranks 0-3);# np-ladder: 8 ranks (world ranks 0-7);" ] &&
        [ "$(pairs_lines)" = "# pairs: 1 (rank i with rank i + 1);# pairs: 2 (rank i with rank i + 2);# pairs: 4 (rank i with rank i + 4);" ]' \
    "osu_mbw_mr --np-ladder -c at 8 ranks: blocks for 2, 4 and 8 ranks with 1, 2 and 4 pairs, every row Pass"
run 6 "$OSU/osu_multi_lat" --np-ladder "${SWEEP[@]}" --stats --format=jsonl
expect '[ "$RC" = 0 ] && [ -z "$(python3 "$TOP/tests/integration/jsonl_check.py" "$TOP/doc/jsonl.schema.json" "$OUT" --program osu/osu_multi_lat)" ] &&
        [ "$(steps)" = "2:$NSIZES 4:$NSIZES 6:$NSIZES " ] && [ "$(grep -c "\"slowest_rank\":[0-5]," "$OUT")" = $((3 * NSIZES)) ]' \
    "osu_multi_lat --np-ladder --stats --format=jsonl at 6 ranks: valid, rows of the steps of 2, 4 and 6 ranks, each naming a slowest rank"
COMMSWEEP_CORRUPT=1 COMMSWEEP_CORRUPT_RANK=3 run 4 "$OSU/osu_multi_lat" --np-ladder "${SWEEP[@]}" -c
expect '[ "$RC" = 1 ] && [ "$(data_lines | grep -c Pass$)" = "$NSIZES" ] && grep -q "in the step of 4 ranks)$" "$ERR"' \
    "osu_multi_lat --np-ladder with rank 3's data spoilt: the 2-rank block Pass, then Fail and status 1"
for bad in "-p 2" "--groups=2" "-V" "-T all"; do
    # shellcheck disable=SC2086
    run 4 "$OSU/osu_mbw_mr" --np-ladder $bad -m 4:4 -i 2 -x 1
    expect_usage_error "osu_mbw_mr --np-ladder $bad: refused" osu_mbw_mr
done

# --stats: each group's rows name the slowest rank of that group, as a
# world rank (rank 3, slowed on purpose, in group 1 of 0-1 and 2-3).
COMMSWEEP_SLOW_MS=30 COMMSWEEP_SLOW_RANK=3 run 4 "$OSU/osu_allreduce" --groups=2 "${SWEEP[@]}" --stats
expect '[ "$RC" = 0 ] && [ "$(slowest_of_group 1)" = "3 " ] && ! slowest_of_group 0 | grep -qw 3 &&
        grep -q "SlowestRank" "$OUT"' \
    "osu_allreduce --groups=2 --stats at 4 ranks with rank 3 slowed: group 1's rows name world rank 3, group 0's do not"

# JSON Lines: every group's row with its group, then the worst group's
# rows flagged, each the largest latency of its size; --stats' slowest
# rank per group; the ladder's rows with their step's ranks.
json_groups_problems() { # NGROUPS SLOW GROUP_OF_SLOW
    python3 - "$OUT" "$@" << 'PY'
import json, sys
path, ngroups, slow, slow_group = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rows = [r for r in map(json.loads, open(path)) if r["type"] == "row"]
groups = [r for r in rows if r.get("worst_group") is False]
worst = [r for r in rows if r.get("worst_group") is True]
sizes = sorted({r["size_bytes"] for r in groups})
if len(groups) + len(worst) != len(rows):
    print(len(rows) - len(groups) - len(worst), "rows without worst_group")
if len(groups) != ngroups * len(sizes):
    print(len(groups), "group rows, want", ngroups * len(sizes))
for size in sizes:
    these = [r for r in groups if r["size_bytes"] == size]
    if sorted(r["group"] for r in these) != list(range(ngroups)):
        print("size", size, "groups", [r["group"] for r in these])
    w = [r for r in worst if r["size_bytes"] == size]
    top = max(r["latency_us"] for r in these)
    if len(w) != 1 or w[0]["latency_us"] != top:
        print("size", size, "worst rows", w, "largest", top)
    for r in these:
        named = r["slowest_rank"] == slow
        if named != (r["group"] == slow_group):
            print("size", size, "group", r["group"], "names rank", r["slowest_rank"])
PY
}
COMMSWEEP_SLOW_MS=30 COMMSWEEP_SLOW_RANK=3 run 4 "$OSU/osu_allreduce" --groups=stride:2 "${SWEEP[@]}" --stats --format=jsonl -c
expect '[ "$RC" = 0 ] && [ -z "$(python3 "$TOP/tests/integration/jsonl_check.py" "$TOP/doc/jsonl.schema.json" "$OUT" --program osu/osu_allreduce --validation passed)" ]' \
    "osu_allreduce --groups=stride:2 --stats --format=jsonl -c at 4 ranks: valid JSON Lines, validation passed"
expect_no_problems "osu_allreduce --groups=stride:2 --format=jsonl: a row per group and size, the worst flagged and the largest, rank 3 named in group 1 only" \
    json_groups_problems 2 3 1
cp "$OUT" "$TMPD/groups-a.jsonl"
run 4 "$OSU/osu_allreduce" --groups=stride:2 "${SWEEP[@]}" --stats --format=jsonl -c
"$BUILD/tools/compare" "$TMPD/groups-a.jsonl" "$OUT" > "$TMPD/compare.out" 2> "$TMPD/compare.err"
cmp_rc=$?
expect '[ "$cmp_rc" = 0 ] && [ "$(grep -c "^# datatype .*worst_group true" "$TMPD/compare.out")" = "$NSIZES" ]' \
    "tools/compare of two --groups runs in JSON Lines: each group's rows and the worst group's matched apart"
run 8 "$OSU/osu_allreduce" --np-ladder "${SWEEP[@]}" --stats --format=jsonl
expect '[ "$RC" = 0 ] && [ -z "$(python3 "$TOP/tests/integration/jsonl_check.py" "$TOP/doc/jsonl.schema.json" "$OUT" --program osu/osu_allreduce)" ] &&
        [ "$(steps)" = "2:$NSIZES 4:$NSIZES 8:$NSIZES " ]' \
    "osu_allreduce --np-ladder --format=jsonl: valid, rows of the steps of 2, 4 and 8 ranks"

# Bad input: one line, status 2.
for bad in "--groups=" "--groups=foo" "--groups=0" "--groups=-2" "--groups=2x" "--groups=stride:" \
    "--groups=stride:0" "--groups=stride:x" "--nodes-by-block=2" "--groups=2 --nodes-by-block=2" \
    "--groups=node --nodes-by-block=0" "--groups=2 --np-ladder" "--groups=2 --samples" \
    "--np-ladder --samples --format=jsonl" "--groups=2 --timing=window" \
    "--groups=2 -T all" "--np-ladder=3"; do
    # shellcheck disable=SC2086
    run 2 "$OSU/osu_allreduce" $bad -m 4:4 -i 2 -x 1
    expect_usage_error "osu_allreduce $bad: refused" osu_allreduce
done
run 4 "$OSU/osu_bcast" --groups=2 -k 2 -m 4:4 -i 2 -x 1
expect_usage_error "osu_bcast --groups=2 -k 2: the root is not in a group of 2, refused" osu_bcast
run 4 "$OSU/osu_reduce" --np-ladder -k 3 -m 4:4 -i 2 -x 1
expect_usage_error "osu_reduce --np-ladder -k 3: the root is not in the 2-rank step, refused" osu_reduce
run 2 "$OSU/osu_neighbor_allgather" --groups=2 -m 4:4 -i 2 -x 1
expect_usage_error "osu_neighbor_allgather --groups=2: not taken (the topology spans the world)" osu_neighbor_allgather
