#!/usr/bin/env bash
# The two sets of defaults of the OSU programs (osu/osu_defaults.h): OMB
# 7.4's, the programs' own, and the seed's behind --defaults=seed or
# COMMSWEEP_DEFAULTS=seed. Under OMB's: MPI_CHAR reductions from 1 byte,
# MPI_Win_allocate and flush (put_bibw pscw, get_acc_latency MPI_Win_create
# and lock), only OMB's lines before the table and our run description after
# it; every program that checks data does so under them (-c passes). Under
# the seed's: float reductions from 4 bytes, MPI_Win_create with pscw, the
# description before the table. The switch itself: option over variable,
# bad values refused, the JSON header says which.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/osu_coll_lib.sh"
unset COMMSWEEP_DEFAULTS
coll_mpich_persistent_schedules # MPICH 4.0-4.2's defaults deliver wrong data
O="$BUILD/osu"

sizes() { data_lines | awk '{print $1}' | tr '\n' ' ' | sed 's/ $//'; }
rows() { data_lines | grep '^[0-9]'; } # without the atomics' validation block
# The line numbers of the heading and of the first "# command:" line.
heading_at() { grep -n -m1 '^# Size' "$OUT" | cut -d: -f1; }
command_at() { grep -n -m1 '^# command:' "$OUT" | cut -d: -f1; }

# Reductions.
run 3 "$O/osu_allreduce" -m 1:16 -i 2 -x 1 -c
expect '[ "$RC" = 0 ] && grep -qx "# Datatype: MPI_CHAR." "$OUT" && [ "$(sizes)" = "1 2 4 8 16" ] && [ "$(data_lines | grep -c " Pass$")" = 5 ]' \
    "OMB's defaults: osu_allreduce sums MPI_CHAR from 1 byte, validation passes at 3 ranks"
expect '[ "$(grep -c "^#" "$OUT")" = 3 ] && grep -qx "# OSU MPI Allreduce Latency Test v7.4 (commsweep [0-9.]*)" "$OUT"' \
    "OMB's defaults: OMB's lines alone (title with OMB's version and ours, datatype, heading)"
for how in --describe env; do
    if [ "$how" = env ]; then
        COMMSWEEP_DESCRIBE=1 run 3 "$O/osu_allreduce" -m 1:16 -i 2 -x 1 -c
    else
        run 3 "$O/osu_allreduce" -m 1:16 -i 2 -x 1 -c --describe
    fi
    expect '[ "$RC" = 0 ] && [ "$(heading_at)" -lt "$(command_at)" ] && [ "$(grep -c "^# command:" "$OUT")" = 1 ] && ! sed -n "1,$(heading_at)p" "$OUT" | grep -q "^# \(command\|date\|ranks\|mpi\|buffers\|defaults\):" && grep -q "^# defaults: OMB 7.4" "$OUT" && [ "$(sizes)" = "1 2 4 8 16" ]' \
        "OMB's defaults, $how: the run description after the table, none of it before"
done
COMMSWEEP_DESCRIBE=yes run 2 "$O/osu_latency" -m 1:4 -i 2 -x 1
expect_usage_error "COMMSWEEP_DESCRIBE=yes refused" osu_latency
for how in "--defaults=seed" "env"; do
    if [ "$how" = env ]; then
        COMMSWEEP_DEFAULTS=seed run 3 "$O/osu_allreduce" -m 1:16 -i 2 -x 1 -c
    else
        run 3 "$O/osu_allreduce" -m 1:16 -i 2 -x 1 -c --defaults=seed
    fi
    expect '[ "$RC" = 0 ] && grep -qx "# Datatype: MPI_FLOAT." "$OUT" && [ "$(sizes)" = "4 8 16" ] && [ "$(command_at)" -lt "$(heading_at)" ] && grep -qx "# OSU MPI Allreduce Latency Test (commsweep [0-9.]*)" "$OUT" && grep -q "^# defaults: the seed" "$OUT"' \
        "the seed's defaults ($how): float from 4 bytes, description before the table, title as before"
done
COMMSWEEP_DEFAULTS=seed run 2 "$O/osu_allreduce" -m 1:4 -i 2 -x 1 --defaults omb
expect '[ "$RC" = 0 ] && grep -qx "# Datatype: MPI_CHAR." "$OUT"' \
    "--defaults omb wins over COMMSWEEP_DEFAULTS=seed"
COMMSWEEP_DEFAULTS=seed run 2 "$O/osu_allreduce" -m 1:4 -i 2 -x 1 -T mpi_int
expect '[ "$RC" = 0 ] && grep -qx "# Datatype: MPI_INT." "$OUT" && [ "$(sizes)" = "4" ]' \
    "-T wins over either set of defaults"
COMMSWEEP_DEFAULTS=bogus run 2 "$O/osu_bw" -m 1:4 -i 2 -x 1
expect_usage_error "COMMSWEEP_DEFAULTS=bogus refused" osu_bw
run 2 "$O/osu_latency" --defaults=mvapich -m 1:4
expect_usage_error "--defaults=mvapich refused" osu_latency
run 2 "$O/osu_latency" -m 1:4 -i 2 -x 1 --format=jsonl
expect '[ "$RC" = 0 ] && head -1 "$OUT" | grep -q "\"defaults\": *\"omb\""' "JSON Lines header: defaults omb"
run 2 "$O/osu_latency" -m 1:4 -i 2 -x 1 --format=jsonl --defaults=seed
expect '[ "$RC" = 0 ] && head -1 "$OUT" | grep -q "\"defaults\": *\"seed\""' "JSON Lines header: defaults seed"

# One-sided: OMB 7.4's window and synchronization per program, the seed's.
omb_window() { # PROGRAM WINDOW SYNC [ARGS...]
    local prog=$1 win=$2 sync=$3
    shift 3
    run 2 "$O/$prog" -i 2 -x 1 -c "$@"
    expect '[ "$RC" = 0 ] && grep -qx "# Window creation: '"$win"'" "$OUT" && grep -qx "# Synchronization: '"$sync"'" "$OUT" && [ "$(rows | grep -vEc "(Pass|passed)$")" = 0 ] && [ "$(rows | wc -l)" -gt 0 ]' \
        "$prog $*: $win and $sync, validation passes"
}
omb_window osu_put_latency MPI_Win_allocate MPI_Win_flush -m 1:64
omb_window osu_get_bw MPI_Win_allocate MPI_Win_flush -m 1:64
omb_window osu_put_bibw MPI_Win_allocate MPI_Win_post/start/complete/wait -m 1:64
omb_window osu_fop_latency MPI_Win_allocate MPI_Win_flush
omb_window osu_put_latency MPI_Win_create MPI_Win_post/start/complete/wait -m 1:64 --defaults=seed
omb_window osu_passive_put_latency MPI_Win_create MPI_Win_lock/unlock -m 1:64
run 2 "$O/osu_get_acc_latency" -m 1:8 -i 2 -x 1 --describe
expect '[ "$RC" = 0 ] && grep -qx "# Window creation: MPI_Win_create" "$OUT" && grep -qx "# Synchronization: MPI_Win_lock/unlock" "$OUT" && ! grep -q "^# Datatype" "$OUT" && grep -q "^# synchronization: lock (MPI_Win_lock exclusive/" "$OUT"' \
    "osu_get_acc_latency: OMB's MPI_Win_create, exclusive lock, no Datatype line"
run 2 "$O/osu_put_latency" -m 1:8 -i 2 -x 1 --describe
expect '[ "$RC" = 0 ] && grep -q "^# window creation: .*for every size" "$OUT"' \
    "OMB's defaults: the window made again for every size, as OMB"

# OMB 7.4's atomics report -c their own way: "passed", then a block per rank.
run 2 "$O/osu_cas_latency" -i 2 -x 1 -c -T all
expect '[ "$RC" = 0 ] && [ "$(rows | grep -c " passed$")" = 2 ] && [ "$(grep -c "^PASSED: All 2 combinations of ops and datatypes tested passed.$" "$OUT")" = 2 ] && grep -qx "Atomic Data Validation results for Rank=1:" "$OUT"' \
    "osu_cas_latency -c -T all: passed rows, OMB's validation block for each rank"
run 2 "$O/osu_cas_latency" -i 2 -x 1 -c --defaults=seed
expect '[ "$RC" = 0 ] && [ "$(rows | grep -c " Pass$")" = 1 ] && ! grep -q "Atomic Data" "$OUT"' \
    "osu_cas_latency -c, seed's: Pass, no block"
COMMSWEEP_CORRUPT=1 run 2 "$O/osu_fop_latency" -i 2 -x 1 -c
expect '[ "$RC" = 1 ] && rows | grep -q " failed$" && ! grep -q "^PASSED" "$OUT"' \
    "osu_fop_latency -c on damaged data: failed, status 1, no PASSED block"

# Headings OMB 7.4 prints its own way.
run 4 "$O/osu_bw_fan_in" --ranks-per-node 2 -m 1:4 -i 2 -x 1 -z
expect '[ "$RC" = 0 ] && grep -qE "^# Size +Avg Latency\(us\) +P50 Tail Lat\(us\) +P90 Tail Lat\(us\) +P99 Tail Lat\(us\)$" "$OUT"' \
    "osu_bw_fan_in: OMB's latency headings over the MB/s"
run 4 "$O/osu_bw_fan_in" --ranks-per-node 2 -m 1:4 -i 2 -x 1 --format=jsonl
expect '[ "$RC" = 0 ] && grep -q "\"bandwidth_mb_s\"" "$OUT"' \
    "osu_bw_fan_in JSON: the field stays a bandwidth"
run 4 "$O/osu_bw_fan_in" --ranks-per-node 2 -m 1:4 -i 2 -x 1 --defaults=seed
expect '[ "$RC" = 0 ] && grep -qE "^# Size +Bandwidth \(MB/s\)$" "$OUT"' "osu_bw_fan_in, seed's: Bandwidth (MB/s)"
run 2 "$O/osu_latency_mp" -m 1:4 -i 2 -x 1
expect '[ "$RC" = 0 ] && [ "$(data_lines | awk "{ print length(\$0) }" | sort -u)" = 20 ]' \
    "osu_latency_mp: OMB's 10-wide latency without -c"
run 4 "$O/osu_neighbor_allgather" -m 1:4 -i 2 -x 1
expect '[ "$RC" = 0 ] && grep -qx "Dimensions size = 4 " "$OUT" && grep -qE "^Time took to create topology graph:[0-9.]+ us\.$" "$OUT"' \
    "neighborhood: OMB's two lines before the title, without '#'"
run 4 "$O/osu_neighbor_allgather" -m 1:4 -i 2 -x 1 --defaults=seed
expect '[ "$RC" = 0 ] && grep -qx "# Dimensions size = 4" "$OUT"' "neighborhood, seed's: '#' lines"

# Every program that checks data, under OMB's defaults: -c passes. The
# runs side by side (lib.sh's in_parallel), each printing "checked PROGRAM"
# and, where it did not pass, "failed PROGRAM(status N)".
check_passes() { # NP PROGRAM ARGS...
    local prog=$2
    run "$1" "$O/$prog" "${@:3}"
    echo "checked $prog"
    if [ "$RC" != 0 ] || [ "$(rows | grep -Ec "(Pass|passed)$")" = 0 ] || rows | grep -Eq "(Fail|failed)$"; then
        echo "failed $prog(status $RC)"
    fi
}
pcoll=$(coll_persistent_built && echo 1)
for exe in "$O"/osu_*; do
    prog=${exe##*/}
    [[ -x $exe && $prog != *.* ]] || continue
    np=2 args=(-m 1:64 -i 2 -x 1 -c)
    case $prog in
        osu_hello | osu_init | *barrier*) continue ;;
        osu_xccl_*) continue ;; # CUDA/HIP builds: NCCL or RCCL and a GPU (tests/device/xccl.sh)
        osu_bw_fan_*) np=4 args+=(--ranks-per-node 2) ;;
        osu_neighbor_* | osu_ineighbor_* | *reduce*) np=3 ;;
        osu_fop_latency | osu_cas_latency) args=(-i 2 -x 1 -c) ;;
    esac
    case $prog in *_persistent) [ -n "$pcoll" ] || continue ;; esac
    in_parallel check_passes "$np" "$prog" "${args[@]}"
done
in_parallel_end > "$TMPD/checked"
checked=$(grep -c '^checked ' "$TMPD/checked")
failed=$(sed -n 's/^failed / /p' "$TMPD/checked" | tr -d '\n')
expect '[ -z "$failed" ] && [ "$checked" -gt 70 ]' \
    "OMB's defaults: -c passes in all $checked programs that check data${failed:+: failed:$failed}"

