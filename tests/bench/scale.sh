#!/usr/bin/env bash
# What each program of the SMPI build costs as the job grows: every program
# at 64, 256, 1,024, 4,096 and 9,408 simulated ranks (fat trees of those
# sizes, and the Frontier-like dragonfly at 9,408), with the first line of
# tests/scale/runs.txt for it (the same short sweep at every size). For
# each run: the real time to simulate, the peak memory of the simulation
# (every rank is in that one process), the bytes of output, and rank 0's own
# heap peak (common/heapcount). Prints a Markdown table.
#
#   tests/bench/scale.sh [SIZES] > table.md      (default: 64 256 1024 4096 9408)
#
# A run may take SCALE_LIMIT seconds (600); a program that needed more at
# one size, or whose time, growing as N^2 or as fast as it grew between the
# last two sizes, would pass twice the limit at the next, is not run at the
# larger sizes ("-"). Programs of two ranks
# (the OSU point-to-point and one-sided ones) run between the two nodes
# furthest apart of each platform. SCALE_ONLY=PATTERN picks programs;
# SCALE_LOG=FILE keeps every run's line. Needs make SMPI=1 (BUILD, default
# build-smpi).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build-smpi}
case "$BUILD" in /*) ;; *) BUILD="$top/$BUILD" ;; esac
sizes=${1:-64 256 1024 4096 9408}
limit=${SCALE_LIMIT:-600}
platform="$top/tests/scale/platform.py"
grep -q 'SMPI=1' "$BUILD/.config" 2>/dev/null ||
    { echo "scale.sh: $BUILD is not an SMPI build (make SMPI=1)" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/commsweep-scale.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
log=${SCALE_LOG:-$tmp/log}

preset_of() { # N
    case $1 in 9408) echo frontier ;; *) echo "fattree-$1" ;; esac
}

# The platform of N nodes for a runs.txt platform name: its placement
# (a far pair, 4 ranks a node, or one rank on each node).
platform_for() { # N RUNS_PLATFORM -> prints the prefix
    local n=$1 kind=one extra=
    case $2 in *-pair) kind=pair extra=--far-pair ;; *-x4) kind=x4 extra="--use-nodes $((n / 4)) --ranks-per-node 4" ;; esac
    local prefix="$tmp/p$n-$kind"
    # shellcheck disable=SC2086
    [ -f "$prefix.so" ] || "$platform" preset "$(preset_of "$n")" $extra -o "$prefix" > /dev/null ||
        { echo "scale.sh: cannot write the platform of $n nodes" >&2; exit 1; }
    echo "$prefix"
}

# One run: "SECONDS MB OUT_KB HEAP_KB", or "" when it failed or passed the limit.
measure() { # N RANKS RUNS_PLATFORM PROGRAM ARGS...
    local n=$1 np=$2 plat
    plat=$(platform_for "$n" "$3")
    shift 3
    local program=$1
    shift
    [ "$np" = N ] && np=$n
    local cfg
    read -r -a cfg <<< "$("$platform" cfg --line --ranks "$np")"
    COMMSWEEP_HEAP_REPORT=1 /usr/bin/time -f '%e %M' -o "$tmp/time" timeout -k 5 "$limit" \
        smpirun -np "$np" -platform "$plat.so" -hostfile "$plat.hosts" "${cfg[@]}" -quiet \
        "$BUILD/$program" "$@" > "$tmp/out" 2> "$tmp/err" < /dev/null
    local rc=$? t mem heap
    read -r t mem < <(tail -n 1 "$tmp/time")
    heap=$(sed -n 's/^heap peak: rank 0 \([0-9]*\) bytes.*/\1/p' "$tmp/err")
    echo "$n $program rc=$rc ${t:-?} s ${mem:-?} KB out $(wc -c < "$tmp/out") heap ${heap:-?} $*" >> "$log"
    [ "$rc" = 0 ] && [ -n "$heap" ] || return 0
    awk -v t="$t" -v m="$mem" -v o="$(wc -c < "$tmp/out")" -v h="$heap" \
        'BEGIN { printf "%.1f %.0f %.0f %.0f\n", t, m / 1024, o / 1024, h / 1024 }'
}

cell() { # "SECONDS MB OUT_KB HEAP_KB"
    read -r t m o h <<< "$1"
    echo "$t s, $m MB, out $o KB, heap $h KB"
}

printf '| program | ranks |'
for n in $sizes; do printf ' %s |' "$n"; done
printf '\n|---|---|'
for n in $sizes; do printf -- '---|'; done
printf '\n'
declare -A seen model_at
grep -vE '^[[:space:]]*(#|$)' "$top/tests/scale/runs.txt" |
while read -r program plat np _formats _expect args; do
    [ -n "${seen[$program]:-}" ] && continue
    seen[$program]=1
    # SCALE_ONLY: shell patterns separated by | (a | from a variable is no
    # alternation for case).
    if [ -n "${SCALE_ONLY:-}" ]; then
        IFS='|' read -r -a pats <<< "$SCALE_ONLY"
        hit=""
        for p in "${pats[@]}"; do
            # shellcheck disable=SC2254 # a pattern, as its name says
            case "$program" in $p) hit=1 ;; esac
        done
        [ -n "$hit" ] || continue
    fi
    # The ranks: the line's when it fixes them (2, 1), else the platform's.
    ranks=N
    case $np in 1 | 2) ranks=$np ;; esac
    printf '| %s | %s |' "\`$program\`" "$([ "$ranks" = N ] && echo N || echo "$ranks")"
    last_t="" last_n="" prev_t="" prev_n="" stop=""
    for n in $sizes; do
        if [ -n "$stop" ]; then printf ' - |'; continue; fi
        # The growth: N^2, or as fast as the last two sizes grew (the
        # non-blocking collectives grow as N^4 and more under SMPI).
        if [ -n "$last_t" ] && [ "$ranks" = N ] &&
            awk -v t="$last_t" -v a="$last_n" -v p="$prev_t" -v q="$prev_n" -v b="$n" -v l="$limit" 'BEGIN {
                e = 2
                if (p != "" && p >= 0.5 && t > p) { g = log(t / p) / log(a / q); if (g > e) e = g }
                exit !(t * (b / a) ^ e > 2 * l) }'; then
            stop=1; printf ' - |'; continue
        fi
        # @TMP@: the folder of this size's model, which cpm/model's line
        # (before the lines that read it) wrote.
        mkdir -p "$tmp/$n"
        a=${args//@TMP@/$tmp/$n}
        if [ "$a" != "$args" ] && [ "$program" != cpm/model ] && [ -z "${model_at[$n]:-}" ]; then
            printf ' no model |'; continue
        fi
        # @PLAT@: the platform's prefix (its .topology beside it).
        [ "$a" = "${a//@PLAT@/}" ] || a=${a//@PLAT@/$(platform_for "$n" "$plat")}
        # shellcheck disable=SC2086
        got=$(measure "$n" "$ranks" "$plat" "$program" $a)
        [ -n "$got" ] && [ "$program" = cpm/model ] && model_at[$n]=1
        if [ -z "$got" ]; then
            stop=1; printf ' > %s s or failed |' "$limit"; continue
        fi
        printf ' %s |' "$(cell "$got")"
        prev_t=$last_t prev_n=$last_n
        last_t=${got%% *} last_n=$n
    done
    printf '\n'
done
