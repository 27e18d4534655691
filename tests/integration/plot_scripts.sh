#!/bin/bash
# The gnuplot scripts of plot/ on real output: small runs of alltoall/all,
# alltoall/aller, always/all and iall, and OSU programs (latency, bandwidth, -f min/max,
# non-blocking) rendered by plot/plot.sh and by each script alone; every
# PNG must exist and not be empty, and plot.sh must refuse what it cannot
# plot honestly.
. "$(dirname "$0")/../lib.sh"
PLOT="$TOP/plot/plot.sh"
if ! command -v gnuplot > /dev/null; then
    skip "plot scripts" "gnuplot is not installed (apt-get install gnuplot-nox)"
    exit 0
fi
D="$TMPD/results"
mkdir -p "$D"

# sample NAME NP PROGRAM ARGS...: runs a program into D/NAME.dat. Every
# program is part of the build, so one that is not built fails.
samples=()
sample() {
    local name=$1 np=$2 prog=$3; shift 3
    if [ ! -x "$BUILD/$prog" ]; then
        not_ok "sample $name: $prog" "$BUILD/$prog is not built (make BUILD=$BUILD)"
        return
    fi
    run "$np" "$BUILD/$prog" "$@"
    if [ "$RC" = 0 ] && [ -n "$(data_lines)" ]; then
        cp "$OUT" "$D/$name.dat"
        samples+=("$name")
    else
        not_ok "sample $name: $prog $*" "status $RC
$(head -c 1000 "$ERR")"
    fi
}
sample all-contig 4 alltoall/all contig 2 32
sample all-strided 3 alltoall/all strided 2 32
sample always-all-contig 4 always/all --time-limit=0.02 2048
sample always-iall-strided 4 always/iall --time-limit=0.02 --partition=strided 2048
sample osu_latency 2 osu/osu_latency -m 1:256 -i 5 -x 1
sample osu_bw 2 osu/osu_bw -m 1:256 -i 5 -x 1
sample osu_allreduce 3 osu/osu_allreduce -m 4:256 -i 5 -x 1 -f
sample osu_iallreduce 2 osu/osu_iallreduce -m 4:256 -i 5 -x 1 -f
sample osu_mbw_mr 4 osu/osu_mbw_mr -m 1:256 -i 5 -x 1

# aller: one PNG per communicator size, FILE-CxR.png, one curve per algorithm.
run 4 "$BUILD/alltoall/aller" --algorithm=alltoall,isend,2d contig 2 32
if [ "$RC" = 0 ]; then
    cp "$OUT" "$D/aller-contig.dat"
else
    not_ok "sample aller-contig: alltoall/aller" "status $RC
$(head -c 1000 "$ERR")"
fi

# One message size only (atomics: one element): a one-point plot.
if [ -f "$D/osu_latency.dat" ]; then
    awk '/^#/ || NF == 0 || !n++' "$D/osu_latency.dat" > "$D/osu_one_size.dat"
    samples+=(osu_one_size)
fi

png_ok() { [ -s "$1" ] && [ "$(head -c 4 "$1" | od -An -c | tr -d ' ')" = '211PNG' ]; }

if [ "${#samples[@]}" -gt 0 ]; then
    "$PLOT" "$D" > "$TMPD/plot.out" 2> "$TMPD/plot.err"
    RC=$?
    cp "$TMPD/plot.err" "$ERR"
    expect '[ $RC = 0 ]' "plot.sh renders the results folder (${#samples[@]} files)"
    for s in "${samples[@]}"; do
        expect "png_ok '$D/$s.png' && grep -qx '$D/$s.png' '$TMPD/plot.out'" "$s.png is a PNG, not empty, and listed"
    done
    if [ -f "$D/aller-contig.dat" ]; then
        for shape in 1x4 2x2 4x1; do
            expect "png_ok '$D/aller-contig-$shape.png' && grep -qx '$D/aller-contig-$shape.png' '$TMPD/plot.out'" \
                "aller-contig-$shape.png: one PNG per communicator size, listed"
        done
        expect "[ ! -e '$D/aller-contig.png' ]" "aller: no PNG of the whole file"
    fi
fi

# Each script alone, as the README shows it, on a sample of its kind.
alone() { # SCRIPT SAMPLE
    if [ ! -f "$D/$2.dat" ]; then
        skip "$1 alone" "no $2 sample"
        return
    fi
    gnuplot -e "datafile='$D/$2.dat'; outfile='$TMPD/alone-$2.png'" "$TOP/plot/$1" > "$ERR" 2>&1
    RC=$?
    expect "[ \$RC = 0 ] && png_ok '$TMPD/alone-$2.png' && ! grep -qi warning '$ERR'" \
        "gnuplot plot/$1 alone renders $2"
}
alone alltoall.gp all-contig
alone always.gp always-all-contig
alone osu.gp osu_latency
alone osu.gp osu_allreduce
alone aller.gp aller-contig

# Refusals: a header without the expected columns, no data, bad arguments.
if [ -f "$D/all-contig.dat" ]; then
    mkdir -p "$TMPD/bad"
    sed 's/GiBps_avg/GiBps_mean/' "$D/all-contig.dat" > "$TMPD/bad/all-renamed.dat"
    "$PLOT" "$TMPD/bad/all-renamed.dat" > /dev/null 2> "$ERR"
    RC=$?
    expect '[ $RC = 1 ] && grep -q "GiBps_avg" "$ERR" && [ ! -e "$TMPD/bad/all-renamed.png" ]' \
        "plot.sh refuses an alltoall file whose columns are not the named ones"
    grep '^#' "$D/all-contig.dat" > "$TMPD/bad/all-empty.dat"
    "$PLOT" "$TMPD/bad/all-empty.dat" > /dev/null 2> "$ERR"
    RC=$?
    expect '[ $RC = 1 ] && [ ! -s "$TMPD/bad/all-empty.png" ]' "plot.sh fails on a file with no data"
fi
if [ -f "$D/aller-contig.dat" ]; then
    # The last block cut off: the blocks no longer hold every algorithm of each size.
    awk 'NF == 0 { blank++; if (b < 8) print; next } !/^#/ { if (blank >= 2) b++; blank = 0 } b < 8' "$D/aller-contig.dat" \
        > "$TMPD/bad/aller-cut.dat"
    "$PLOT" "$TMPD/bad/aller-cut.dat" > /dev/null 2> "$ERR"
    RC=$?
    expect '[ $RC = 1 ] && grep -q "8 blocks do not hold the 3 algorithms" "$ERR"' \
        "plot.sh refuses an aller file whose blocks do not match its algorithms"
fi
"$PLOT" "$TMPD/no-such-folder" > /dev/null 2> "$ERR"
RC=$?
expect '[ $RC = 2 ] && [ "$(wc -l < "$ERR")" = 1 ]' "plot.sh: a path that does not exist is a usage error"
"$PLOT" > /dev/null 2> "$ERR"
RC=$?
expect '[ $RC = 2 ]' "plot.sh with no arguments is a usage error"
