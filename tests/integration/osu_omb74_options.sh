#!/usr/bin/env bash
# OMB 7.4's options on the OSU-style programs. omb74/options.txt, recorded
# from OMB 7.4 by omb74/record_options.sh, holds for every program each
# option its -h lists (osu_hello and osu_init: all of OMB's, which they
# take and ignore), the command line of a short sweep with it, whether OMB
# ran it or refused it and its number of data rows (omb74/rows.awk), and a
# line of all the long names at once. Each line runs here with the same
# command line: what OMB took must be taken (status 0) with as many data
# rows (but the differences known_rows names); what OMB refused (-P: PAPI,
# absent from its build) must be refused (status 2). -I runs where the MPI
# library has sessions and must be refused with a line naming -I where it
# has none; help and version must end with status 0. The lines run
# $TEST_JOBS at a time (lib.sh's in_parallel): each is mostly an MPI start.
# Then what the options do: -b multiple and -l with -c (and a corrupted
# byte caught), -T on the data-moving collectives, the notes after the
# table.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/osu_coll_lib.sh"
here=$(cd "$(dirname "$0")/omb74" && pwd)
unset COMMSWEEP_DEFAULTS # OMB 7.4's defaults, which the fixture was recorded under
# The ring and tree schedules of MPICH 4.0-4.2's persistent collectives,
# as the fixture's MPICH runs of OMB used.
coll_mpich_persistent_schedules
O="$BUILD/osu"
start=$(date +%s) n=0

# Deliberate differences in the rows: PROGRAM OPTION ROWS WHY.
known_rows() { # PROGRAM OPTION
    case "$1 $2" in
        "osu_cas_latency -T")
            echo "2 MPI defines compare-and-swap on integers only: -T all has no MPI_FLOAT sweep" ;;
        "osu_allreduce_persistent -c")
            echo "3 OMB 7.4 starts a request made on its warm-up buffers, fails its own check and stops" ;;
        "osu_allreduce_persistent long" | "osu_reduce_persistent long") # -c -l -T all
            echo "5 OMB 7.4 fails its own check with -l, each sweep at its first size" ;;
    esac
}

# Runs one line of options.txt and writes its TAP line (and detail).
check_line() { # PROGRAM RANKS OPTION OMB ROWS ARGS...
    local prog=$1 np=$2 opt=$3 omb=$4 rows=$5 out=$OUT err=$ERR rc got known
    shift 5
    local desc="$prog $* ($opt)" exe="$O/$prog"
    if [ ! -x "$exe" ]; then
        skip "$desc" "not built (this MPI library has no persistent collectives)"
        return
    fi
    # shellcheck disable=SC2086
    timeout -k 5 "$TEST_TIMEOUT" $MPIEXEC $MPIEXEC_FLAGS -n "$np" "$exe" "$@" \
        > "$out" 2> "$err" < /dev/null
    rc=$?
    got=$(awk -f "$here/rows.awk" "$out")
    known=$(known_rows "$prog" "$opt")
    if [ "$omb" = refused ]; then
        if [ "$rc" = 2 ]; then
            ok "$desc: refused, as OMB 7.4 refuses it"
        else
            not_ok "$desc: OMB 7.4 refuses it, here status $rc" "$(head -c 600 "$err")"
        fi
    elif [ "$opt" = -I ] && [ "$rc" = 2 ] && grep -q -- "-I: this MPI library has no MPI sessions" "$err"; then
        skip "$desc" "this MPI library has no MPI sessions"
    elif [ "$rc" != 0 ]; then
        not_ok "$desc: status $rc" "$(head -c 600 "$err")"
    elif [ "$rows" = - ]; then
        ok "$desc: taken"
    elif [ "$got" = "$rows" ]; then
        ok "$desc: taken, $got data rows as OMB 7.4"
    elif [ -n "$known" ] && [ "$got" = "${known%% *}" ]; then
        ok "$desc: taken, $got data rows (OMB 7.4: $rows; ${known#* })"
    else
        not_ok "$desc: $got data rows, OMB 7.4 printed $rows" "$(grep -v '^#' "$out" | head -8)"
    fi
}

# COMMSWEEP_TEST_SHORT=1 (the MPICH run, tests/mpich/check.sh): the lines
# of every long name at once, -I (MPICH has sessions) and the options that
# change what moves (-T, -l, -b, -m); the full set runs under Open MPI.
short() { test_short && case $1 in long | -I | -T | -l | -b | -m) false ;; *) true ;; esac; }
while read -r prog np opt omb rows args; do
    short "$opt" && continue
    n=$((n + 1))
    # shellcheck disable=SC2086
    in_parallel check_line "$prog" "$np" "$opt" "$omb" "$rows" $args
done < <(grep -v '^#' "$here/options.txt")
in_parallel_end
echo "# $n command lines of omb74/options.txt, ${TEST_JOBS:-6} at a time: $(( $(date +%s) - start )) s"

# What the options do.
for prog in osu_bw osu_bibw_persistent osu_mbw_mr; do
    run 2 "$O/$prog" -m 1:64 -i 3 -x 1 -W 4 -b multiple -c --describe
    expect '[ "$RC" = 0 ] && [ "$(data_lines | grep -c " Pass$")" = 7 ] && grep -q "^# buffers: each message of a window has a send and a receive buffer of its own" "$OUT"' \
        "$prog -b multiple -c: a buffer per message of the window, validation passes"
done
run 2 "$O/osu_latency" -m 1:64 -i 3 -x 1 -b multiple -c --describe
expect '[ "$RC" = 0 ] && [ "$(data_lines | grep -c " Pass$")" = 7 ] && grep -q "^# buffers: allocated again for each message size" "$OUT"' \
    "osu_latency -b multiple -c: buffers of each size, validation passes"
COMMSWEEP_CORRUPT=1 run 2 "$O/osu_bw" -m 1:4 -i 2 -x 1 -W 4 -b multiple -c
expect '[ "$RC" = 1 ] && grep -q "validation failed" "$ERR"' "osu_bw -b multiple -c: a damaged byte is caught"
run 3 "$O/osu_bw_fan_in" --ranks-per-node 1 -m 1:8 -i 2 -x 1 -W 4 -b multiple -c
expect '[ "$RC" = 0 ] && [ "$(data_lines | grep -c " Pass$")" = 4 ]' \
    "osu_bw_fan_in -b multiple -c at 3 nodes of 1: validation passes"

for prog in osu_allgather osu_ialltoallw osu_reduce_scatter osu_gatherv_persistent; do
    [ -x "$O/$prog" ] || { skip "$prog -l -c" "not built"; continue; }
    run 3 "$O/$prog" -m 1:16 -i 2 -x 1 -l -c -T all --describe
    expect '[ "$RC" = 0 ] && [ "$(data_lines | grep -c " Pass$")" = 11 ] && grep -q "^# in place (-l): MPI_IN_PLACE as" "$OUT"' \
        "$prog -l -c -T all at 3 ranks: in place, validation passes in every sweep"
done
for prog in osu_scatter osu_igather osu_reduce; do
    run 3 "$O/$prog" -m 1:16 -i 3 -x 1 -l -c -k rotate
    expect '[ "$RC" = 0 ] && [ "$(data_lines | grep -c " Pass$")" = 5 ]' \
        "$prog -l -c -k rotate at 3 ranks: the root's buffer in place, validation passes"
done
COMMSWEEP_CORRUPT=1 run 3 "$O/osu_allgatherv" -m 1:4 -i 2 -x 1 -l -c
expect '[ "$RC" = 1 ] && grep -q "validation failed" "$ERR"' "osu_allgatherv -l -c: a damaged element is caught"
run 2 "$O/osu_bcast" -m 1:4 -i 2 -x 1 -l
expect_usage_error "osu_bcast -l refused, as OMB 7.4 has no -l there" osu_bcast

run 4 "$O/osu_alltoallw" -m 3:48 -i 2 -x 1 -c -T mpi_int
expect '[ "$RC" = 0 ] && grep -qx "# Datatype: MPI_INT." "$OUT" && [ "$(data_lines | awk "{print \$1, \$NF}" | tr "\n" " ")" = "6 Pass 12 Pass 24 Pass 48 Pass " ]' \
    "osu_alltoallw -T mpi_int -m 3:48: OMB's sizes (size / 4 whole elements), validation passes"
run 3 "$O/osu_neighbor_alltoallv" -m 4:16 -i 2 -x 1 -c -T mpi_float -D vect:2:1
expect '[ "$RC" = 0 ] && grep -qx "# Datatype: MPI_FLOAT." "$OUT" && [ "$(data_lines | grep -c " Pass ")" = 3 ]' \
    "osu_neighbor_alltoallv -T mpi_float -D vect:2:1: validation passes"

run 2 "$O/osu_latency" -m 1:4 -i 2 -x 1 -G tty,png
expect '[ "$RC" = 0 ] && awk "/^[0-9]/ { rows = NR } /^# -G tty,png: no graphs here/ { note = NR } END { exit !(rows && note > rows) }" "$OUT"' \
    "osu_latency -G tty,png: taken, its note after the table"
run 2 "$O/osu_latency" -m 1:4 -G jpg
expect_usage_error "osu_latency -G jpg refused (OMB: tty, png, pdf)" osu_latency
run 2 "$O/osu_ibarrier" -i 2 -x 1 -a 64
expect '[ "$RC" = 0 ] && grep -q "^# -a 64: the size of OMB 7.4.s device arrays" "$OUT"' "osu_ibarrier -a 64: a note"
run 2 "$O/osu_iallreduce" -i 2 -x 1 -a 0
expect_usage_error "osu_iallreduce -a 0 refused, as OMB 7.4 refuses it" osu_iallreduce
run 2 "$O/osu_bibw" -m 1:4 -i 2 -x 1 -t 4
expect '[ "$RC" = 0 ] && grep -q "^# -t 4: OMB 7.4 takes -t here and uses it nowhere" "$OUT"' "osu_bibw -t 4: a note"
run 2 "$O/osu_latency_mt" -m 1:4 -i 2 -x 1 --num-test-calls 2:3
expect '[ "$RC" = 0 ] && grep -q "^# Number of Receiver threads: 3" "$OUT"' \
    "osu_latency_mt --num-test-calls 2:3: OMB's long name of -t"
run 2 "$O/osu_fop_latency" -m 2:8 -i 2 -x 1 -T mpi_int -c
expect '[ "$RC" = 0 ] && [ "$(grep -E "^[0-9]" "$OUT" | awk "{print \$1, \$NF}")" = "4 passed" ] && grep -q "^# -m: MPI_Fetch_and_op works on one element" "$OUT"' \
    "osu_fop_latency -m 2:8 -T mpi_int: one element, one row, a note"
run 2 "$O/osu_hello" -m 1:4 -G png -l
expect '[ "$RC" = 0 ] && grep -q "^# options of OMB 7.4 that osu_hello takes and does not use: -m 1:4 -G png -l$" "$OUT"' \
    "osu_hello -m 1:4 -G png -l: taken, a note names them"
run 2 "$O/osu_init" -b single --bogus
expect_usage_error "osu_init --bogus still refused" osu_init
echo "# wall time: $(( $(date +%s) - start )) s"
