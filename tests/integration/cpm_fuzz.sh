#!/usr/bin/env bash
# CPM model files under fuzzing. Valid files of every kind, written by
# libcpm's own writers (cpm_mutate seeds), are damaged COUNT times from a
# fixed seed (truncated, lines duplicated, dropped or swapped, huge counts,
# numbers negated, scaled or swapped, NaN, inf, 1e308, binary junk, NUL
# bytes in numbers, very long lines: tests/fuzz/cpm_mutate.c) and each is
# fed to prediction with p2p, a generic, a model-based or the model's own
# collective, under 200 MB of address space. Every run must end within 2 s
# with status 0, every time it printed a finite number >= 0, or status 2
# and one line on stderr; never a crash.
# CPM_FUZZ_SEED and CPM_FUZZ_COUNT choose another seed or count,
# CPM_FUZZ_VMEM_KB the address space (unlimited for a sanitizer build, whose
# shadow memory needs terabytes); the files that fail are kept in
# $BUILD/tests/cpm_fuzz/ with the command that failed.
. "$(dirname "$0")/../lib.sh"
PRED="$BUILD/cpm/prediction"
MUTATE="$BUILD/tests/fuzz/cpm_mutate"
SEED=${CPM_FUZZ_SEED:-20250117}
COUNT=${CPM_FUZZ_COUNT:-1000}
KEEP="$BUILD/tests/cpm_fuzz"
echo "# seed $SEED, $COUNT files (CPM_FUZZ_SEED=$SEED CPM_FUZZ_COUNT=$COUNT to repeat)"

SEEDS="$TMPD/seeds"
MUT="$TMPD/mutated"
mkdir -p "$SEEDS" "$MUT"
"$MUTATE" seeds "$SEEDS"
bad=""
for f in Hockney LinInterp PLogP LMO LMOh; do
    np=4 kind=${f%h}
    [ "$f" = LMOh ] && np=3
    run1 "$PRED" -n "$np" -C "$kind" -O p2p -i "$SEEDS/$f.model" -M 4096
    [ "$RC" = 0 ] || bad="$bad $f (status $RC: $(head -c 300 "$ERR"))"
done
if [ -z "$bad" ]; then ok "the seed files written by libcpm are read back and predicted"
else not_ok "the seed files written by libcpm are read back and predicted" "$bad"; fi

"$MUTATE" mutate "$SEED" 0 "$COUNT" "$MUT" "$SEEDS"/{Hockney,LinInterp,PLogP,LMO,LMOh}.model \
    > "$TMPD/manifest"

# The operations tried, in turn, for each kind of file.
ops_of() { # KIND
    local common="p2p scatter_binomial gather_flat_serial bcast_binomial $1_Scatter_ucs_binomial_min $1_Gatherv_Traff"
    case $1 in
    Hockney) echo "$common hsg_binomial" ;;
    PLogP | LogGP) echo "$common hsg_linear" ;;
    LMO) echo "$common scatter_flat gather_flat LMO_Gather_split_flat" ;;
    *) echo "$common" ;;
    esac
}
declare -A ops_by_kind
for kind in Hockney LinInterp PLogP LogGP LMO; do ops_by_kind[$kind]=$(ops_of $kind); done
# Message sizes: the usual range, doubling far out, and one size near 2^60.
sizes=("-m 0 -M 65536" "-m 1 -M 1099511627776" "-m 1152921504606846976 -M 1152921504606846976")

# Prints "STATUS WHAT" for every run that breaks a rule, nothing else; runs
# with at most 200 MB of address space (prediction maps libmpi, about 100).
fuzz_runs() {
    ulimit -v "${CPM_FUZZ_VMEM_KB:-204800}"
    local k input muts np base kind ops op size rc lines
    while read -r k input muts np; do
        base=${input##*/}
        base=${base%.model}
        kind=${base%h}
        [ "$kind" = PLogP ] && [ $((k / 5 % 2)) = 1 ] && kind=LogGP
        # The file's own count when it has one, so that a huge count reaches
        # the reader instead of stopping at the -n check.
        [ "$np" = 0 ] && np=4
        read -r -a ops <<< "${ops_by_kind[$kind]}"
        op=${ops[$((k / 5 % ${#ops[@]}))]}
        size=${sizes[$((k / 3 % 3))]}
        timeout -k 1 2 "$PRED" -n "$np" -C "$kind" -O "$op" -i "$MUT/$k.model" $size \
            > "$TMPD/fz.out" 2> "$TMPD/fz.err"
        rc=$?
        case $rc in
        0) awk 'NF && !/^#/ && !($0 ~ /^[0-9]+ [0-9]+(\.[0-9]+)?(e[-+][0-9]+)?$/) { bad = 1 } END { exit bad }' \
               "$TMPD/fz.out" || rc=bad-time ;;
        2) mapfile -t lines < "$TMPD/fz.err"
           [ "${#lines[@]}" = 1 ] && [ "${lines[0]#prediction: }" != "${lines[0]}" ] || rc=bad-message
           # Files of a few kilobytes: memory runs out only when a reader
           # believes a count the file does not hold.
           [ "${lines[0]/out of memory/}" = "${lines[0]}" ] || rc=memory ;;
        esac
        case $rc in
        0) echo "pass" ;;
        2) echo "refused" ;;
        *) mkdir -p "$KEEP"
           cp "$MUT/$k.model" "$KEEP/seed$SEED-$k.model"
           echo "$rc file $k ($base: $muts): $PRED -n $np -C $kind -O $op" \
               "-i $KEEP/seed$SEED-$k.model $size; $(head -c 200 "$TMPD/fz.err" | tr '\n\0' '  ')" ;;
        esac
    done < "$TMPD/manifest"
}
fuzz_runs > "$TMPD/verdicts"

runs=$(wc -l < "$TMPD/verdicts")
passed=$(grep -c '^pass$' "$TMPD/verdicts")
refused=$(grep -c '^refused$' "$TMPD/verdicts")
echo "# $runs runs: $passed predicted, $refused refused"
verdict() { # DESCRIPTION PATTERN: ok when no verdict line matches
    local found
    found=$(grep -E "$2" "$TMPD/verdicts" | head -5)
    if [ -z "$found" ]; then ok "$1"; else not_ok "$1 (seed $SEED)" "$found"; fi
}
expect '[ "$runs" = "$COUNT" ]' "$COUNT mutated files were run"
verdict "every run ended within 2 s" '^(124|137) '
verdict "no run crashed or ended with a status other than 0 and 2" '^([013-9]|[0-9][0-9]+) '
verdict "every refusal is one line on stderr from prediction" '^bad-message '
verdict "no run ran out of memory" '^memory '
verdict "no prediction printed is negative or not finite" '^bad-time '
# A fuzz whose files all fail at the first line, or all pass, proves little.
expect '[ "$passed" -ge $((COUNT / 20)) ] && [ "$refused" -ge $((COUNT / 20)) ]' \
    "at least 5% of the mutated files are predicted and 5% refused"
missing=""
for m in truncated duplicated-line dropped-line swapped-lines huge-points huge-processes negated \
    odd-value binary-junk nul-in-number long-line flipped-bit swapped-numbers scaled word; do
    grep -q "[ ,]$m\(,\|$\)" "$TMPD/manifest" || missing="$missing $m"
done
expect '[ -z "$missing" ]' "every kind of mutation was applied${missing:+ (missing:$missing)}"
