#!/usr/bin/env bash
# Compatibility with OMB 7.4's output: every program that exists in both
# runs the command lines of omb74/cases.txt, and its layout (omb74/layout.awk:
# lines before the column heading, the heading, the sizes, every field's
# width and alignment, numbers masked) is compared with the fixture recorded
# from OMB 7.4 (omb74/NAME.N.layout, omb74/record.sh), under OMB 7.4's
# defaults (the programs' own). The output must be OMB's line for line: the
# lines before the heading OMB's and only OMB's (the title compared without
# its version and ours; the title itself must carry " v7.4 (commsweep V)"),
# the heading and every row the same, and nothing after the table (our run
# description only with --describe, checked below).
# omb74/known.txt lists the differences kept on purpose.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/osu_coll_lib.sh"
unset COMMSWEEP_DEFAULTS COMMSWEEP_DESCRIBE
here=$(cd "$(dirname "$0")/omb74" && pwd)

# Why the layout in file MINE does not match fixture FIX; empty when it does.
layout_problems() { # FIX MINE
    local fix=$1 mine=$2
    diff <(grep '^P' "$fix") <(grep '^P' "$mine") > /dev/null ||
        echo "the lines before the heading are not OMB's: $(diff <(grep '^P' "$fix") <(grep '^P' "$mine") | head -4 | tr '\n' '|')"
    diff <(grep -v '^P' "$fix") <(grep -v '^P' "$mine") > /dev/null ||
        echo "heading, rows or lines after them differ: $(diff <(grep -v '^P' "$fix") <(grep -v '^P' "$mine") | head -6 | tr '\n' '|')"
}

# Our name where a version pattern still reads OMB's: " v7.4 (commsweep V)".
title_problems() { # PROGRAM OUTPUT
    local title
    title=$(grep -m1 '^# OSU ' "$2")
    case $1 in osu_passive_*) return ;; esac
    [[ $title == *" v7.4 (commsweep "*")" ]] || echo "title '$title' does not end in ' v7.4 (commsweep V)'"
}

# Case N of PROGRAM (its fixture PROGRAM.N.layout) at NP ranks.
check_case() { # N NP PROGRAM ARGS...
    local n=$1 np=$2 prog=$3 args="${*:4}" known fix="$OUT.fix" mine="$OUT.mine"
    known=$(awk -v p="$prog" '$1 == p { sub(/^[^ ]+ /, ""); print }' "$here/known.txt")
    if [ -n "$known" ]; then sed -e "$known" "$here/$prog.$n.layout"; else cat "$here/$prog.$n.layout"; fi > "$fix"
    run "$np" "$BUILD/osu/$prog" "${@:4}"
    awk -f "$here/layout.awk" "$OUT" > "$mine"
    if [ "$RC" != 0 ]; then
        not_ok "$prog $args at $np ranks: OMB 7.4 layout" "status $RC: $(head -c 400 "$ERR")"
    else
        expect_no_problems "$prog $args at $np ranks: OMB 7.4 layout" layout_problems "$fix" "$mine"
        expect_no_problems "$prog $args at $np ranks: title with v7.4 and ours" \
            title_problems "$prog" "$OUT"
    fi
}

declare -A seen=()
# The persistent collectives exist where the MPI library has them (MPICH 4,
# Open MPI 4.1 through MPIX_); elsewhere their cases are skipped.
pcoll=$(coll_persistent_built && echo 1)
while read -r np prog args; do
    n=$(( ${seen[$prog]:-0} + 1 )); seen[$prog]=$n
    name=${prog#osu_}
    if [ -z "$pcoll" ] && [[ $prog == *_persistent && " $(echo $COLL_PERSISTENT_NAMES) " == *" ${name%_persistent} "* ]]; then
        in_parallel skip "$prog $args: OMB 7.4 layout" "this MPI library has no persistent collectives"
        continue
    fi
    # shellcheck disable=SC2086
    in_parallel check_case "$n" "$np" "$prog" $args
done < <(grep -v '^#' "$here/cases.txt")
in_parallel_end

# The comparison itself must be able to fail: a wider column, a missing
# OMB line, a changed title and a missing size are each caught.
src="$here/osu_latency.1.layout"
sed 's/^D 2 28$/D 2 30/' "$src" > "$TMPD/bad"
expect '[ -n "$(layout_problems "$src" "$TMPD/bad")" ]' "layout check catches a wider column"
grep -v Datatype "$src" > "$TMPD/bad"
expect '[ -n "$(layout_problems "$src" "$TMPD/bad")" ]' "layout check catches a missing OMB line"
sed 's/Latency Test/latency Test/' "$src" > "$TMPD/bad"
expect '[ -n "$(layout_problems "$src" "$TMPD/bad")" ]' "layout check catches another title"
grep -v '^D 4 ' "$src" > "$TMPD/bad"
expect '[ -n "$(layout_problems "$src" "$TMPD/bad")" ]' "layout check catches a missing size"
sed '3a P # one of ours' "$src" > "$TMPD/bad"
expect '[ -n "$(layout_problems "$src" "$TMPD/bad")" ]' "layout check catches a line of ours before the heading"
{ cat "$src"; echo "B # command: osu_latency"; } > "$TMPD/bad"
expect '[ -n "$(layout_problems "$src" "$TMPD/bad")" ]' "layout check catches a line of ours after the table"
printf '# OSU MPI Latency Test (commsweep 0.1.0)\n' > "$TMPD/bad"
expect '[ -n "$(title_problems osu_latency "$TMPD/bad")" ]' "title check catches a title without v7.4"

# --describe: the run description, after the table and only there.
run 2 "$BUILD/osu/osu_latency" -m 1:8 -i 2 -x 1 --describe
awk -f "$here/layout.awk" "$OUT" | grep -v "^B #" > "$TMPD/mine"
expect '[ "$RC" = 0 ] && [ "$(awk "/^# command: /{c=NR} /^[0-9]/{d=NR} END{print (c > d)}" "$OUT")" = 1 ] && [ -z "$(layout_problems "$here/osu_latency.1.layout" "$TMPD/mine")" ]' \
    "osu_latency --describe: OMB's output, then the run description"

# OMB 7.4's option spellings (their effect read from our description).
export COMMSWEEP_DESCRIBE=1
O="$BUILD/osu"
run 4 "$O/osu_bcast" -k fixed:3 -m 1:8 -i 2 -x 1 -c
expect '[ "$RC" = 0 ] && grep -qx "# root: rank 3" "$OUT" && [ "$(data_lines | grep -c " Pass$")" = 4 ]' \
    "osu_bcast -k fixed:3 at 4 ranks: root 3, validation passes"
run 4 "$O/osu_gather" -k 2 --root-rank 1 -m 1:8 -i 2 -x 1 -c
expect '[ "$RC" = 0 ] && grep -qx "# root: rank 1" "$OUT" && [ "$(data_lines | grep -c " Pass$")" = 4 ]' \
    "osu_gather --root-rank 1 (after -k 2): the last one counts, validation passes"
run 2 "$O/osu_scatter" -k 2 -m 1:8 -i 2 -x 1
expect_usage_error "osu_scatter -k 2 at 2 ranks: no such root" osu_scatter
run 2 "$O/osu_iallgather" --num-test-calls 3 -m 1:8 -i 2 -x 1
expect '[ "$RC" = 0 ] && grep -q "with 3 MPI_Test calls" "$OUT"' "osu_iallgather --num-test-calls 3"
run 2 "$O/osu_allreduce" -T mpi_char -m 1:4 -i 2 -x 1 -c
expect '[ "$RC" = 0 ] && grep -qx "# Datatype: MPI_CHAR." "$OUT" && [ "$(data_lines | awk "{print \$1}" | tr "\n" " ")" = "1 2 4 " ]' \
    "osu_allreduce -T mpi_char: from one 1-byte element, validation passes"
run 4 "$O/osu_mbw_mr" --num-pairs 1 --print-rate 0 -m 1:4 -i 2 -x 1
expect '[ "$RC" = 0 ] && grep -qx "# \[ pairs: 1 \] \[ window size: 64 \]" "$OUT" && grep -qx "# Size                  MB/s" "$OUT"' \
    "osu_mbw_mr --num-pairs 1 --print-rate 0"
run 2 "$O/osu_put_latency" --sync-option fence --win-options allocate -m 1:4 -i 2 -x 1
expect '[ "$RC" = 0 ] && grep -qx "# Synchronization: MPI_Win_fence" "$OUT" && grep -qx "# Window creation: MPI_Win_allocate" "$OUT"' \
    "osu_put_latency --sync-option fence --win-options allocate"
run 2 "$O/osu_bw" -m 1048576: -i 2 -x 1 -W 2
expect '[ "$RC" = 0 ] && [ "$(data_lines | awk "{print \$1}" | tr "\n" " ")" = "1048576 2097152 4194304 " ]' \
    "osu_bw -m 1048576: runs up to the default maximum"
run 2 "$O/osu_bw" -m 1:1048576 -i 2 -x 1 -M 65536
expect '[ "$RC" = 0 ] && grep -q "^warning: maximum message size lowered from 1048576 to 32768" "$ERR"' \
    "osu_bw -M: the cap warning on stderr too"
run 2 "$O/osu_put_latency" -s lock -m 1:4 -i 2 -x 1 -c
expect '[ "$RC" = 0 ] && grep -q "^# synchronization: lock (MPI_Win_lock shared/" "$OUT" && grep -qx "# Synchronization: MPI_Win_lock/unlock" "$OUT"' \
    "osu_put_latency -s lock: a shared lock as OMB 7.4, validation passes"
run 2 "$O/osu_put_latency" -s lock --lock-type exclusive -m 1:4 -i 2 -x 1
expect '[ "$RC" = 0 ] && grep -q "^# synchronization: lock (MPI_Win_lock exclusive/" "$OUT"' \
    "osu_put_latency --lock-type exclusive"
run 2 "$O/osu_passive_put_latency" -s lock -m 1:4 -i 2 -x 1
expect '[ "$RC" = 0 ] && grep -q "^# synchronization: lock (MPI_Win_lock exclusive/" "$OUT"' \
    "osu_passive_put_latency -s lock: the seed's exclusive lock"
# OMB 7.4's size rule of the accumulates: whole elements, none below one.
run 2 "$O/osu_acc_latency" -m 1:16 -i 2 -x 1 -c -T mpi_int
expect '[ "$RC" = 0 ] && [ "$(data_lines | grep "^[0-9]" | awk "{print \$1, \$NF}" | tr "\n" " ")" = "4 passed 8 passed 16 passed " ]' \
    "osu_acc_latency -m 1:16 -T mpi_int: sizes below one element skipped, validation passes"
run 2 "$O/osu_acc_latency" -m 6:6 -i 2 -x 1 -c -T mpi_float
expect '[ "$RC" = 0 ] && [ "$(data_lines | grep "^[0-9]" | awk "{print \$1, \$NF}")" = "6 passed" ]' \
    "osu_acc_latency -m 6:6 -T mpi_float: one whole element at size 6, validation passes"
