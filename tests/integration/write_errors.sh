#!/usr/bin/env bash
# A write that fails is a failure (status 4 and one line naming the file
# and the error), and an output named by the user is never destroyed:
#  - every program built (and tools/report, plot.sh, the local job) with
#    its stdout, rank 0's under the launcher, on /dev/full;
#  - as root, every file-writing option on a small full tmpfs, where an
#    older model file, report and PNG stay whole and a new one is absent,
#    also when the disk fills in the middle of it; a job whose results
#    folder is read-only runs nothing and says so;
#  - as root, a character device of the test's own (mknod, the same as
#    /dev/null) named as every output file: it is still a device after;
#    a FIFO no one reads and a folder are refused with status 2.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/jsonl_lib.sh"
NOSPACE="No space left on device"

# Rank 0 of a launcher's job, or a program without one, writes its stdout
# into /dev/full; the other ranks as usual.
FULLOUT="$TMPD/rank0-full"
cat > "$FULLOUT" << 'EOF'
#!/bin/sh
case "${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-0}}" in 0) exec "$@" > /dev/full ;; esac
exec "$@"
EOF
chmod +x "$FULLOUT"

# After a run: status 4 and exactly one line of PROGRAM naming FILE and
# the error.
expect_write_error() { # DESCRIPTION PROGRAM FILE [ERROR_TEXT]
    local n
    n=$(grep -cxF "$2: cannot write $3: ${4:-$NOSPACE (ENOSPC)}" "$ERR")
    if [ "$RC" = 4 ] && [ "$n" = 1 ] && [ "$(program_lines "$2")" = 1 ]; then
        ok "$1"
    else
        not_ok "$1" "status $RC (want 4), $n lines naming $3 (want 1)
$(head -c 1500 "$ERR")"
    fi
}

# ---- stdout on /dev/full ----
SMALL_NETMAP="--ranks-per-node=all --size 4096 --window 2 --iters 2 --lat-iters 5"
jsonl_inputs
G="python3 $TOP/tests/integration/compare_gen.py"
$G --format jsonl --stats --samples --seed 1 > "$TMPD/a.jsonl"
$G --format jsonl --stats --samples --seed 1 --scale 1.1 > "$TMPD/b.jsonl"

# The first small run of jsonl_runs, in text and in JSON Lines.
full_stdout() { # PROGRAM [EXTRA...]
    local program=$1 line np args
    shift
    case $program in
    netmap/congestion | netmap/locate) line="4 $SMALL_NETMAP" ;;
    netmap/*) line="2 $SMALL_NETMAP" ;;
    tools/compare) line="0 $TMPD/a.jsonl $TMPD/b.jsonl" ;;
    *) line=$(jsonl_runs "$program" | head -n 1) ;;
    esac
    np=${line%% *} args=
    [ "$np" = "$line" ] || args=${line#* }
    [ $# -gt 0 ] || args=${args//--samples/} # JSON Lines only
    # shellcheck disable=SC2086 # the line's arguments are words
    if [ "$np" = 0 ]; then
        run1 "$FULLOUT" "$BUILD/$program" $args "$@"
    else
        run "$np" "$FULLOUT" "$BUILD/$program" $args "$@"
    fi < /dev/null
    expect_write_error "$program ${*:-(text)}: stdout on /dev/full, status 4 on every rank and one line" \
        "${program##*/}" "standard output"
}
programs=$(built_programs alltoall always caf cpm osu)
for dir in netmap tools; do
    for f in "$BUILD/$dir"/*; do
        [ -f "$f" ] && [ -x "$f" ] && echo "$dir/${f##*/}"
    done
done > "$TMPD/more"
for program in $programs $(cat "$TMPD/more"); do
    in_parallel full_stdout "$program"
done
# JSON Lines once per driver: the rows go out another way.
for program in osu/osu_latency osu/osu_allreduce osu/osu_put_latency alltoall/all cpm/p2p netmap/rings; do
    in_parallel full_stdout "$program" --format=jsonl
done
in_parallel_end

# --help and --version, which need no measurement (the OSU programs read
# them before MPI starts).
for cmd in "alltoall/all --help" "osu/osu_latency --version" "osu/osu_bw --help" \
    "cpm/prediction --help" "tools/compare --version"; do
    # shellcheck disable=SC2086
    run1 "$FULLOUT" "$BUILD"/$cmd
    expect_write_error "$cmd: stdout on /dev/full" "$(basename "${cmd%% *}")" "standard output"
done
run1 "$FULLOUT" "$BUILD/cpm/prediction" -n 3 -O Hockney_Bcast_ucs_binomial_min --dot \
    -i "$JSONL_MODEL" -C Hockney -m 8 -M 8
expect_write_error "prediction --dot (returns from main): stdout on /dev/full" prediction "standard output"
if [ -x "$TOP/tools/report" ] && command -v python3 > /dev/null; then
    run1 "$FULLOUT" "$TOP/tools/report" --help
    expect_write_error "tools/report --help: stdout on /dev/full" report "standard output"
fi
if command -v gnuplot > /dev/null; then
    mkdir "$TMPD/plot"
    run 2 "$BUILD/osu/osu_latency" -m 1:8 -i 3 -x 1 < /dev/null
    cp "$OUT" "$TMPD/plot/osu_latency.dat"
    run1 "$FULLOUT" "$TOP/plot/plot.sh" "$TMPD/plot"
    expect '[ "$RC" = 4 ] && grep -qxF "plot.sh: cannot write standard output: $NOSPACE" "$ERR" &&
            [ -s "$TMPD/plot/osu_latency.png" ]' \
        "plot.sh: its list of PNGs on /dev/full: status 4, the PNG itself written"
fi

# ---- the local job's messages ----
job() { # RESULTS [VAR=VALUE...]: the local job, one small program
    local results=$1
    shift
    env BUILD="$BUILD" RESULTS="$results" SWEEP_FAMILIES=osu OSU_PAIR=osu_latency OSU_MULTI= \
        OSU_RMA= OSU_COLL= OSU_SIZES=4:8 OSU_ITERS=3 OSU_WARMUP=1 OSU_FLAGS= NP=2 PLOTS=0 \
        "$@" "$TOP/machines/local/job.sh" > "$OUT" 2> "$ERR"
    RC=$?
}
: > "$TMPD/afile"
job "$TMPD/afile/results"
expect '[ "$RC" != 0 ] && ! grep -q "results in" "$ERR" &&
        grep -qxF "commsweep: no results: the folder $TMPD/afile/results could not be created" "$ERR"' \
    "job.sh: a results folder that cannot be created is not called the results"

# ---- as root: a full file system, devices, FIFOs ----
if [ "$(id -u)" != 0 ]; then
    skip "outputs on a full file system, device nodes" "needs root (mount, mknod)"
    exit 0
fi
FULL="$TMPD/full"
mkdir "$FULL"
if ! mount -t tmpfs -o size=64k commsweep-full "$FULL" 2> "$ERR"; then
    skip "outputs on a full file system" "cannot mount a tmpfs here: $(head -n 1 "$ERR")"
    exit 0
fi
trap 'umount "$FULL" "$TMPD/ro" 2> /dev/null; rm -rf "$TMPD"' EXIT

# A results folder for tools/report and plot.sh, with a picture where
# gnuplot is there: its report does not fit in 8 KB.
mkdir "$TMPD/res"
COMMSWEEP_DESCRIBE=1 run 2 "$BUILD/osu/osu_latency" -m 1:8 -i 3 -x 1
cp "$OUT" "$TMPD/res/osu_latency.local.N2.dat"
command -v gnuplot > /dev/null && "$TOP/plot/plot.sh" "$TMPD/res" > /dev/null
# Older outputs, to be left as they are: a model file, a PNG, a report.
cp "$JSONL_MODEL" "$FULL/old.model"
printf 'an older picture\n' > "$FULL/osu_latency.png"
printf 'an older report\n' > "$FULL/report.html"
printf 'an older comparison\n' > "$FULL/cmp.png"
cp "$TMPD/res/osu_latency.local.N2.dat" "$FULL/osu_latency.dat"
mkdir "$TMPD/saved"
cp "$FULL"/* "$TMPD/saved/"
cat /dev/zero > "$FULL/fill" 2> /dev/null

# Nothing of a temporary file left, the older files whole, nothing new.
full_problems() { # NEW_FILE...
    local f
    for f in "$FULL"/.[!.]*; do [ -e "$f" ] && echo "left behind: $f"; done
    for f in old.model osu_latency.png report.html cmp.png; do
        cmp -s "$FULL/$f" "$TMPD/saved/$f" || echo "$f changed"
    done
    for f in "$@"; do [ -e "$FULL/$f" ] && echo "$f is there ($(wc -c < "$FULL/$f") bytes)"; done
    return 0
}
full_run() { # DESCRIPTION PROGRAM FILE NEW_FILE NP COMMAND...
    local desc=$1 prog=$2 file=$3 new=$4 np=$5
    shift 5
    if [ "$np" = 0 ]; then run1 "$@"; else run "$np" "$@"; fi < /dev/null
    expect_write_error "$desc: status 4, one line" "$prog" "$file"
    expect_no_problems "$desc: the older files whole, no new or temporary file" full_problems $new
}
HOCKNEY=(-C Hockney -M 1024 -S 1024 -r 2 -R 2)
full_run "model -o on a full disk" model "$FULL/m.model" m.model 2 \
    "$BUILD/cpm/model" "${HOCKNEY[@]}" -o "$FULL/m.model"
full_run "model -o over an older model on a full disk" model "$FULL/old.model" "" 2 \
    "$BUILD/cpm/model" "${HOCKNEY[@]}" -o "$FULL/old.model"
full_run "hierarchical_model -o on a full disk" hierarchical_model "$FULL/h.model" h.model 3 \
    "$BUILD/cpm/hierarchical_model" "${HOCKNEY[@]}" -i "$JSONL_HIER" -o "$FULL/h.model"
run1 sh -c 'exec "$@" > "'"$FULL/hello.out"'"' _ "$BUILD/osu/osu_hello"
expect_write_error "osu_hello > a file on a full disk" osu_hello "standard output"
# Every rank writes a file of its own, and says so when it fails.
COMMSWEEP_ROWS_FILE="$FULL/rows" run 2 "$BUILD/always/all" --time-limit=0.01 64 < /dev/null
expect '[ "$RC" = 4 ] && grep -qxF "all: cannot write $FULL/rows.0: $NOSPACE (ENOSPC)" "$ERR"' \
    "always/all's COMMSWEEP_ROWS_FILE on a full disk: status 4, the file named"
rm -f "$FULL/rows".* "$FULL/hello.out"
if command -v gnuplot > /dev/null; then
    full_run "compare --png over an older PNG on a full disk" compare "$FULL/cmp.png" "" 0 \
        "$BUILD/tools/compare" --png "$FULL/cmp.png" "$TMPD/a.jsonl" "$TMPD/b.jsonl"
    full_run "compare --png on a full disk" compare "$FULL/new.png" new.png 0 \
        "$BUILD/tools/compare" --png "$FULL/new.png" "$TMPD/a.jsonl" "$TMPD/b.jsonl"
    run1 "$TOP/plot/plot.sh" "$FULL/osu_latency.dat"
    expect '[ "$RC" = 4 ] && grep -qxF "plot.sh: cannot write $FULL/osu_latency.png: $NOSPACE" "$ERR"' \
        "plot.sh on a full disk: status 4, the file and the error named"
    expect_no_problems "plot.sh on a full disk: the older PNG whole, no temporary file" full_problems
else
    skip "compare --png, plot.sh on a full disk" "gnuplot is not installed"
fi
if [ -x "$TOP/tools/report" ] && command -v python3 > /dev/null; then
    full_run "tools/report -o over an older report on a full disk" report "$FULL/report.html" "" 0 \
        "$TOP/tools/report" -o "$FULL/report.html" "$TMPD/res"
fi
job "$FULL/results"
expect '[ "$RC" = 1 ] && grep -qF "commsweep: osu_latency: its output could not be written to $FULL/results/osu_latency.local.N2.dat: $NOSPACE" "$ERR"' \
    "job.sh: a program whose output fills the disk is named with the error"

# The disk fills in the middle of the file: 8 KB left.
truncate -s $(($(stat -c %s "$FULL/fill") - 8192)) "$FULL/fill"
if command -v gnuplot > /dev/null; then
    full_run "compare --png (40 KB) with 8 KB left" compare "$FULL/new.png" new.png 0 \
        "$BUILD/tools/compare" --png "$FULL/new.png" "$TMPD/a.jsonl" "$TMPD/b.jsonl"
fi
if [ -x "$TOP/tools/report" ] && command -v python3 > /dev/null && command -v gnuplot > /dev/null; then
    full_run "tools/report -o with 8 KB left" report "$FULL/new.html" new.html 0 \
        "$TOP/tools/report" -o "$FULL/new.html" "$TMPD/res"
fi
# A model file fits: whole, and the prediction tool reads it.
run 2 "$BUILD/cpm/model" "${HOCKNEY[@]}" -o "$FULL/m.model" < /dev/null
run1 "$BUILD/cpm/prediction" -n 2 -O p2p -i "$FULL/m.model" -C Hockney -m 1 -M 2
expect '[ "$RC" = 0 ]' "model -o with 8 KB left: written whole, read back"
umount "$FULL"

# A read-only results folder: nothing runs, nothing is said to be in it.
mkdir "$TMPD/ro"
mount -t tmpfs -o ro,size=4k commsweep-ro "$TMPD/ro"
job "$TMPD/ro"
expect '[ "$RC" = 1 ] && ! grep -q "output so far" "$ERR" &&
        grep -qF "commsweep: osu_latency not run: cannot create $TMPD/ro/osu_latency.local.N2.dat: Read-only file system" "$ERR"' \
    "job.sh: a read-only results folder: no program runs, none has output so far"
umount "$TMPD/ro"

# ---- a character device of our own as every output file ----
DEV="$TMPD/dev"
mkdir "$DEV" "$DEV/res"
still_device() { # NAME...
    local f
    for f in "$@"; do [ -c "$DEV/$f" ] || echo "$f is no longer a character device: $(ls -l "$DEV/$f")"; done
    return 0
}
device_run() { # DESCRIPTION NODE NP COMMAND...
    local desc=$1 node=$2 np=$3
    shift 3
    mknod "$DEV/$node" c 1 3
    if [ "$np" = 0 ]; then run1 "$@"; else run "$np" "$@"; fi < /dev/null
    expect '[ "$RC" = 0 ]' "$desc: written through, status 0"
    expect_no_problems "$desc: still a character device" still_device "$node"
}
device_run "model -o DEVICE" m.dev 2 "$BUILD/cpm/model" "${HOCKNEY[@]}" -o "$DEV/m.dev"
device_run "hierarchical_model -o DEVICE" h.dev 3 \
    "$BUILD/cpm/hierarchical_model" "${HOCKNEY[@]}" -i "$JSONL_HIER" -o "$DEV/h.dev"
mknod "$DEV/rows.1" c 1 3
device_run "always/all's COMMSWEEP_ROWS_FILE on a DEVICE" rows.0 2 \
    env COMMSWEEP_ROWS_FILE="$DEV/rows" "$BUILD/always/all" --time-limit=0.01 64
expect_no_problems "always/all's COMMSWEEP_ROWS_FILE: rank 1's still a device" still_device rows.1
if command -v gnuplot > /dev/null; then
    device_run "compare --png DEVICE" c.dev 0 \
        "$BUILD/tools/compare" --png "$DEV/c.dev" "$TMPD/a.jsonl" "$TMPD/b.jsonl"
    cp "$TMPD/res/osu_latency.local.N2.dat" "$DEV/osu_latency.dat"
    device_run "plot.sh with a DEVICE where the PNG goes" osu_latency.png 0 \
        "$TOP/plot/plot.sh" "$DEV/osu_latency.dat"
fi
if [ -x "$TOP/tools/report" ] && command -v python3 > /dev/null; then
    device_run "tools/report -o DEVICE" r.dev 0 "$TOP/tools/report" -o "$DEV/r.dev" "$TMPD/res"
fi
mknod "$DEV/res/osu_latency.local.N2.dat" c 1 3
job "$DEV/res"
expect_no_problems "job.sh with a DEVICE where a .dat goes: still a device" still_device \
    res/osu_latency.local.N2.dat

# A FIFO no one reads would block the open for ever; a folder is no file.
mkfifo "$DEV/fifo"
run 2 "$BUILD/cpm/model" "${HOCKNEY[@]}" -o "$DEV/fifo" < /dev/null
expect_usage_error "model -o a FIFO no one reads: refused, no hang" model
expect '[ -p "$DEV/fifo" ] && grep -q "no process reads it" "$ERR"' "model -o FIFO: the FIFO stays, the line says why"
run1 "$BUILD/tools/compare" --png "$DEV" "$TMPD/a.jsonl" "$TMPD/b.jsonl"
expect_usage_error "compare --png FOLDER: refused" compare
expect '[ ! -s "$OUT" ] && [ -d "$DEV" ]' "compare --png FOLDER: nothing printed, the folder as it was"
# A symbolic link is written through: the link stays, its file is the model.
: > "$DEV/target"
ln -s target "$DEV/link"
run 2 "$BUILD/cpm/model" "${HOCKNEY[@]}" -o "$DEV/link" < /dev/null
expect '[ "$RC" = 0 ] && [ -L "$DEV/link" ] && grep -q "^model Hockney" "$DEV/target"' \
    "model -o a symbolic link: written through, the link stays"
