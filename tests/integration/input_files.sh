#!/usr/bin/env bash
# Every input file a program reads must be a regular file: a FIFO that no
# one writes would block open() on rank 0 for ever while the other ranks
# spin, and a folder or a device is no input. Each reader is given a FIFO,
# a folder and a device, and must answer with one line naming what it got
# and status 2 on every rank (3 ranks where the program is an MPI job).
. "$(dirname "$0")/../lib.sh"
TEST_TIMEOUT=30 # a blocked open() would otherwise cost the default 180 s
C="$BUILD/cpm" O="$BUILD/osu"
mkfifo "$TMPD/fifo"

# PATH's kind as the message names it.
kind_of() { case $1 in "$TMPD/fifo") echo "a FIFO" ;; /dev/null) echo "a device" ;; *) echo "a folder" ;; esac; }

check() { # NP NAME INPUT PROGRAM ARGS... (INPUT: the path given, for the message)
    local np=$1 name=$2 input=$3
    shift 3
    if [ "$np" = 0 ]; then run1 "$@"; else run "$np" "$@"; fi
    expect_usage_error "$name given $(kind_of "$input"): status 2, one line" "$name"
    expect 'grep -q "$(kind_of "$input"), not a regular file" "$ERR"' \
        "$name given $(kind_of "$input"): the message says what it is"
}

for f in "$TMPD/fifo" "$TMPD" /dev/null; do
    check 0 prediction "$f" "$C/prediction" -n 3 -O p2p -i "$f" -C Hockney
    check 3 coll_test "$f" "$C/coll_test" -i "$f"
    check 3 collective "$f" "$C/collective" -l "$C/libcpm_coll.so" -O Hockney_Bcast_ucs_binomial_min \
        -o "model=Hockney,file=$f"
    check 3 matmul "$f" "$C/matmul" -i "$f"
    check 3 hierarchical_model "$f" "$C/hierarchical_model" -i "$f" --plan
    check 3 osu_bcast "$f" "$O/osu_bcast" -D "indx:$f"
    check 3 osu_neighbor_allgather "$f" "$O/osu_neighbor_allgather" -N "graph:$f"
    check 0 compare "$f" "$BUILD/tools/compare" "$f" "$f"
done
