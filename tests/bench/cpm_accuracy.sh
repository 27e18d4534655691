#!/usr/bin/env bash
# CPM accuracy benchmark: at NP ranks (default 4) builds the Hockney and LMO
# models, predicts point-to-point times at 1 KiB and 64 KiB, measures them
# with p2p (a launch of its own, after the models), and prints the median
# relative error of each model; then the model's own estimation time (the
# "# estimation time" line of cpm/model, launcher start-up not included)
# with and without -p (parallel experiments).
#   tests/bench/cpm_accuracy.sh            (BUILD=build NP=4 by default)
#   BUILD=build-x NP=8 MPIEXEC_FLAGS=... tests/bench/cpm_accuracy.sh
set -eu
# lib.sh picks the launcher and its flags, resolves BUILD and makes $TMPD.
. "$(dirname "$0")/../lib.sh"
NP=${NP:-4}
# The model's message set and precision (MPIBlib letters).
MODEL_SET=${MODEL_SET:--m 0 -M 65536 -S 8192 -r 5 -R 50}
WORK=$TMPD
mpi() { $MPIEXEC $MPIEXEC_FLAGS -n "$NP" "$@"; }

echo "# CPM accuracy at $NP ranks ($(date -u +%Y-%m-%dT%H:%M:%SZ), $(hostname))"
echo "# model message set and precision: $MODEL_SET"
# Other work on the machine decides how far these figures can be trusted.
[ -r /proc/loadavg ] && echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg), cores: $(nproc)"
declare -A seconds
for m in Hockney LMO; do
    for mode in serial parallel; do
        flag=""; [ "$mode" = parallel ] && flag=-p
        mpi "$BUILD/cpm/model" -C "$m" $flag -o "$WORK/$m-$mode.out" $MODEL_SET > "$WORK/$m-$mode.log"
        seconds[$m-$mode]=$(awk '$1 == "#" && $2 == "estimation" && $3 == "time:" { print $4 }' \
                                "$WORK/$m-$mode.log")
        if [ -z "${seconds[$m-$mode]}" ]; then
            echo "cpm_accuracy: no '# estimation time' line from model -C $m $flag" >&2
            exit 1
        fi
    done
done

# Measured one-way times at 1 KiB and 64 KiB for every pair.
mpi "$BUILD/cpm/p2p" -m 1024 -M 65536 -S 64512 -r 5 -R 100 > "$WORK/p2p.out"
# "i j size time" lines from p2p or prediction output.
flatten() { awk '/^# pair /{i=$3; j=$4; next} /^#/ || NF == 0 {next} {print i, j, $1, $2}' "$1"; }
flatten "$WORK/p2p.out" > "$WORK/measured"

printf '%-8s %-9s %10s %10s %12s\n' "# model" "size" "pairs" "median" "max rel.err"
for m in Hockney LMO; do
    "$BUILD/cpm/prediction" -n "$NP" -O p2p -i "$WORK/$m-serial.out" -C "$m" -m 1024 -M 65536 \
        -S 64512 > "$WORK/pred-$m.out"
    flatten "$WORK/pred-$m.out" > "$WORK/predicted-$m"
    for size in 1024 65536 all; do
        awk -v size="$size" 'NR == FNR {t[$1" "$2" "$3] = $4; next}
             (size == "all" || $3 == size) && ($1" "$2" "$3) in t && $4 > 0 {
                 e = (t[$1" "$2" "$3] - $4) / $4; if (e < 0) e = -e; print e }' \
            "$WORK/predicted-$m" "$WORK/measured" | sort -g > "$WORK/err"
        awk -v m="$m" -v size="$size" '{e[NR] = $1} END {
                if (NR == 0) { printf "%-8s %-9s %10d %10s %12s\n", m, size, 0, "-", "-"; exit }
                med = NR % 2 ? e[(NR + 1) / 2] : (e[NR / 2] + e[NR / 2 + 1]) / 2
                printf "%-8s %-9s %10d %9.1f%% %11.1f%%\n", m, size, NR, 100 * med, 100 * e[NR] }' "$WORK/err"
    done
done
[ -r /proc/loadavg ] && echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# model estimation time (s, as cpm/model reports it): serial experiments vs -p (parallel)"
for m in Hockney LMO; do
    printf '%-8s serial %9.3f  parallel %9.3f\n' "$m" "${seconds[$m-serial]}" "${seconds[$m-parallel]}"
done
