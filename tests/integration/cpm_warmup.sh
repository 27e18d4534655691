#!/usr/bin/env bash
# The warm-up of libcpm's measurement layer, seen from outside: every
# program runs with a PMPI wrapper preloaded (tests/pmpi/cpm_warmup_probe.c)
# that counts, per experiment and partner, the warm-up flags and the data
# messages before the first timed repetition's flag against those of the
# next repetition, and the runs of MPI_Alltoall. A fixed count of 3 timed
# repetitions (-r 3 -R 3) makes every experiment checkable; each line
# states how many experiments the run has, all of which must have warmed
# up within the bounds of the rule (cpm_warmup_more).
. "$(dirname "$0")/../lib.sh"
PROBE="$BUILD/tests/pmpi/cpm_warmup_probe.so"
SET="-m 0 -M 1024 -S 1024 -r 3 -R 3"
MOST=$(awk '$1 == "#define" && $2 == "CPM_WARMUP_MAX_REPS" { print $3 }' "$TOP/cpm/lib/cpm_measure.h")

# The probe's counts of the last run: "checked warm cold other LO..HI
# alltoall".
probed() {
    sed -n 's/^cpm_warmup_probe: checked \([0-9]*\) warm \([0-9]*\) cold \([0-9]*\) other \([0-9]*\) warmups \([0-9.]*\) alltoall \([0-9]*\)$/\1 \2 \3 \4 \5 \6/p' "$ERR"
}
# Whether "LO..HI" warm-up repetitions lie within the rule's bounds.
bounded() { local lo=${1%%..*} hi=${1##*..}; [ "$lo" -ge 1 ] && [ "$hi" -le "$MOST" ]; }
# probe NP EXPECTED DESCRIPTION PROGRAM ARGS...: EXPECTED experiments, all
# warm, with 1 to MOST warm-up repetitions.
probe() {
    local np=$1 n=$2 desc=$3 got
    shift 3
    run "$np" env LD_PRELOAD="$PROBE" "$@"
    got=$(probed)
    read -r checked warm cold other range _ <<< "${got:-x x x x 0..0 x}"
    desc="$desc: $n experiments, each warmed up (1 to $MOST untimed repetitions) before its first timed one"
    if [ "$RC" = 0 ] && [ "$checked $warm $cold $other" = "$n $n 0 0" ] && bounded "$range"; then
        ok "$desc"
    else
        not_ok "$desc" "status $RC; checked, warm, cold, other, warm-ups, alltoall: ${got:-no probe line}
$(tail -n 5 "$ERR")"
    fi
}

if [ ! -f "$PROBE" ]; then
    not_ok "the probe $PROBE is built" "make builds it with the suite"
    summary
    exit 1
fi
# 6 pairs at 0 and 1024 bytes.
probe 4 12 "p2p at 4 ranks" "$BUILD/cpm/p2p" $SET
probe 4 12 "p2p -p at 4 ranks (pairs of a round at once)" "$BUILD/cpm/p2p" $SET -p
# 3 pairs at 2 sizes; PLogP: three experiments per pair and size; LMO: 1
# triplet, 3 roots, each with a one-to-two (2 partners) and 2 round trips,
# at 0 and -M bytes.
probe 3 6 "model -C Hockney at 3 ranks" "$BUILD/cpm/model" -C Hockney -o "$TMPD/h.model" $SET
probe 3 6 "model -C LinInterp at 3 ranks" "$BUILD/cpm/model" -C LinInterp -o "$TMPD/l.model" $SET
probe 3 18 "model -C PLogP at 3 ranks" "$BUILD/cpm/model" -C PLogP -o "$TMPD/p.model" $SET
probe 3 24 "model -C LMO at 3 ranks" "$BUILD/cpm/model" -C LMO -o "$TMPD/lmo.model" $SET
probe 4 96 "model -C LMO -p at 4 ranks" "$BUILD/cpm/model" -C LMO -o "$TMPD/lmo.model" \
    -m 0 -M 1024 -S 1024 -r 3 -R 3 -p
# The seed's two processes: one link measured for 4 hosts.
printf 'digraph c { "c" [type=1, model_data=""];\n  "n1" [type=0, model_data="node1"]; "n2" [type=0, model_data="node2"];\n  "c" -> "n1"; "c" -> "n2" }\n' \
    > "$TMPD/two.h"
COMMSWEEP_FAKE_HOSTS=node1,node2 probe 2 2 "hierarchical_model -C Hockney at 2 ranks" \
    "$BUILD/cpm/hierarchical_model" -C Hockney -i "$TMPD/two.h" -o "$TMPD/hm.model" $SET

# collective: 1 to MOST untimed runs before the 3 timed ones of its one
# size, with each timing method that runs it once per repetition.
for method in max root global; do
    run 4 env LD_PRELOAD="$PROBE" "$BUILD/cpm/collective" -O MPI_Alltoall -t "$method" \
        -m 1024 -M 1024 -r 3 -R 3
    runs=$(probed)
    runs=${runs##* }
    expect '[ "$RC" = 0 ] && [ "${runs:-0}" -ge 4 ] && [ "$runs" -le $((MOST + 3)) ]' \
        "collective -O MPI_Alltoall -t $method: 1 to $MOST untimed runs, then 3 timed ones (${runs:-?} in all)"
done
