#!/usr/bin/env bash
# --precision against fixed counts, side by side: osu_latency and osu_bw (2
# ranks, all they take) and osu_allreduce (4 ranks), each run RUNS times
# (10) with --precision=PCT (2), with the default counts (OMB 7.4's, which
# commsweep takes), and, where OMB=DIR names a build of OMB 7.4 (its c/mpi
# folder), OMB's own program; the three interleaved in every round so that
# the machine's drift weighs on all alike. Prints a markdown table: the
# median time of a whole sweep, and the run-to-run spread of each size's
# figure (its coefficient of variation over the runs; median and largest
# over the sizes). A benchmark, not a test: it checks nothing.
#
#   tests/bench/precision.sh                 # RUNS=10 PCT=2 SIZES=(default)
#   OMB=/path/to/omb-7.4/c/mpi RUNS=3 SIZES=1:65536 tests/bench/precision.sh
#   PCT=5 CONFIGS=precision tests/bench/precision.sh
# A sweep's time includes the launcher's start-up and MPI_Init: the line
# after the table gives theirs alone (osu_init's whole run).
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
BUILD=${BUILD:-$top/build}
RUNS=${RUNS:-10} PCT=${PCT:-2} SIZES=${SIZES:-} OMB=${OMB:-}
. "$top/machines/launcher.sh"
launcher_defaults mpiexec
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

programs="osu_latency:2:pt2pt/standard osu_bw:2:pt2pt/standard osu_allreduce:4:collective/blocking"
configs=${CONFIGS:-precision default}
[ -n "$OMB" ] && [ -z "${CONFIGS:-}" ] && configs="$configs omb"

# One run: its wall time into TIMES, its rows (size figure) into ROWS.
one() { # CONFIG PROGRAM NP SUBDIR RUN
    local config=$1 prog=$2 np=$3 sub=$4 run=$5 cmd t0 t1
    case $config in
        precision) cmd="$BUILD/osu/$prog --precision=$PCT" ;;
        default) cmd="$BUILD/osu/$prog" ;;
        omb) cmd="$OMB/$sub/$prog" ;;
        startup) cmd="$BUILD/osu/osu_init" ;;
    esac
    [ -n "$SIZES" ] && [ "$config" != startup ] && cmd="$cmd -m $SIZES"
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086
    $MPIEXEC $MPIEXEC_FLAGS -n "$np" $cmd > "$work/out" 2> "$work/err" < /dev/null ||
        { echo "$config $prog failed: $(head -c 300 "$work/err")" >&2; return; }
    t1=$(date +%s.%N)
    echo "$(echo "$t1 - $t0" | bc)" >> "$work/$config.$prog.times"
    awk '!/^#/ && NF >= 2 && $1 ~ /^[0-9]+$/ { print $1, $2 }' "$work/out" |
        sed "s/^/$run /" >> "$work/$config.$prog.rows"
}

for ((run = 1; run <= RUNS; run++)); do
    for p in $programs; do
        IFS=: read -r prog np sub <<< "$p"
        for config in $configs; do
            one "$config" "$prog" "$np" "$sub" "$run"
        done
    done
    for np in 2 4; do
        one startup "start$np" "$np" "" "$run"
    done
done

median_of() { sort -g "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# The table: per program and configuration.
echo "| program | ranks | counts | sweep time, median of $RUNS (s) | run-to-run CV of a size's figure, median over sizes (%) | largest (%) |"
echo "|---|---|---|---|---|---|"
for p in $programs; do
    IFS=: read -r prog np sub <<< "$p"
    for config in $configs; do
        [ -s "$work/$config.$prog.times" ] || continue
        time_med=$(median_of "$work/$config.$prog.times")
        spread=$(awk '{ n[$2]++; s[$2] += $3; q[$2] += $3 * $3 }
            END { for (k in n) if (n[k] > 1 && s[k] > 0) {
                      m = s[k] / n[k]; var = (q[k] - n[k] * m * m) / (n[k] - 1)
                      print 100 * sqrt(var > 0 ? var : 0) / m } }' "$work/$config.$prog.rows" |
            sort -g | awk '{ v[NR] = $1 } END { if (!NR) { print "- -"; exit }
                med = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
                printf "%.2f %.2f\n", med, v[NR] }')
        label=$config
        case $config in
            precision) label="\`--precision=$PCT\`" ;;
            default) label="default (OMB 7.4's counts)" ;;
            omb) label="OMB 7.4 itself" ;;
        esac
        printf '| `%s` | %s | %s | %.1f | %s | %s |\n' "$prog" "$np" "$label" "$time_med" \
            "${spread% *}" "${spread#* }"
    done
done
printf '\nStart-up and MPI_Init alone (osu_init, median of %s): %.1f s at 2 ranks, %.1f s at 4.\n' \
    "$RUNS" "$(median_of "$work/startup.start2.times")" "$(median_of "$work/startup.start4.times")"
