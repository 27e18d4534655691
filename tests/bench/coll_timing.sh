#!/usr/bin/env bash
# Barrier against window timing (--timing=window) of osu_allreduce,
# osu_bcast and osu_barrier at NP ranks (8), at 8 B, 1 KiB and 64 KiB. Every
# case runs ROUNDS times, the two methods alternating; per program, size and
# method it prints the median over the runs of Avg Latency, its coefficient
# of variation across the runs, and the windows missed of all calls.
#
# Then a check with a known answer: osu_allreduce at 8 B again, with the
# last rank leaving every MPI_Barrier SKEW_US late (tests/bench/
# barrier_skew.c, a preloaded PMPI wrapper). A rank's exit skew of D shows
# in barrier timing as about D x (NP - 1) / NP more (the ranks that wait for
# the late one count it, the late one does not); window timing, whose calls
# start at agreed times and not after a barrier, should not move. How far
# each method moves against that expectation says which one carries skew.
#
#   tests/bench/coll_timing.sh [BUILD [LAUNCHER...]]
# BUILD: the build folder (default build). LAUNCHER: the command that starts
# NP ranks of a program (e.g. "srun -n 8"; it must pass the environment,
# which srun and MPICH do and Open MPI's mpirun does on one host); default:
# the launcher of tests/lib.sh with -n NP. "cluster" instead: 4 emulated
# hosts x 2 ranks of tests/cluster (root; links CLUSTER_RATES, default 1gbit
# each). From the environment: NP (default 8: the ranks LAUNCHER starts),
# ROUNDS (default 5), SKEW_US (default 20). Draw no conclusion from a busy
# machine: load and cores are printed first.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BUILD=${1:-${BUILD:-build}}
export BUILD
[ $# -gt 0 ] && shift
. "$here/../lib.sh"
rounds=${ROUNDS:-5} skew=${SKEW_US:-20} np=${NP:-8}
make -C "$TOP" -s BUILD="$BUILD" coll-timing-bench >&2 || exit 1
preload="$BUILD/tests/bench/barrier_skew.so"

where="one host"
if [ "${1:-}" = cluster ]; then
    . "$here/../cluster/testbed.sh"
    read -r -a RATES <<< "${CLUSTER_RATES:-1gbit 1gbit 1gbit 1gbit}"
    TESTBED_SLOTS=2 np=8
    testbed_bench_up coll_timing "${RATES[@]}"
    launch() { testbed_mpirun 0,1,2,3 "$@"; }
    where="4 emulated hosts x 2 ranks, links ${RATES[*]}"
elif [ $# -gt 0 ]; then
    launcher=("$@")
    launch() { "${launcher[@]}" "$@"; }
    where="$*"
else
    launch() { $MPIEXEC $MPIEXEC_FLAGS -n "$np" "$@"; }
    where="$MPIEXEC $MPIEXEC_FLAGS -n $np"
fi

echo "# coll_timing: barrier against window timing, $np ranks ($where), $rounds rounds"
echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ), load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"

# One run: PROGRAM METHOD SIZE [ENV...]; appends "program size method
# avg_us missed calls" to $TMPD/runs (or $TMPD/skew when ENV is given).
one() {
    local prog=$1 method=$2 size=$3 out=$TMPD/out sizes=() to=$TMPD/runs
    shift 3
    [ $# -gt 0 ] && to=$TMPD/skew
    [ "$prog" = osu_barrier ] || sizes=(-m "$size:$size")
    if ! launch env "$@" "$BUILD/osu/$prog" --timing="$method" "${sizes[@]}" > "$out" 2> "$TMPD/err"; then
        echo "coll_timing: $prog --timing=$method at $size bytes failed: $(grep -v '^-' "$TMPD/err" | head -2)" >&2
        return
    fi
    awk -v p="$prog" -v m="$method" -v s="$size" '
        /^# window: .*calls kept/ { match($0, /[0-9]+ calls kept, [0-9]+ missed/)
                                    split(substr($0, RSTART, RLENGTH), f, /[^0-9]+/)
                                    kept += f[1]; missed += f[2] }
        /^[ 0-9]/ && !/^#/ { avg = (p == "osu_barrier") ? $1 : $2 }
        END { if (avg != "") print p, s, m, avg, missed + 0, kept + missed }' "$out" >> "$to"
}

: > "$TMPD/runs"
: > "$TMPD/skew"
for round in $(seq "$rounds"); do
    for prog in osu_allreduce osu_bcast osu_barrier; do
        for size in 8 1024 65536; do
            [ "$prog" = osu_barrier ] && [ "$size" != 8 ] && continue
            [ "$prog" = osu_barrier ] && size=0
            one "$prog" barrier "$size"
            one "$prog" window "$size"
        done
    done
    one osu_allreduce barrier 8 LD_PRELOAD="$preload${TESTBED_PRELOAD:+ $TESTBED_PRELOAD}" \
        COMMSWEEP_BARRIER_SKEW="$((np - 1)):$skew"
    one osu_allreduce window 8 LD_PRELOAD="$preload${TESTBED_PRELOAD:+ $TESTBED_PRELOAD}" \
        COMMSWEEP_BARRIER_SKEW="$((np - 1)):$skew"
done

# Per program, size and method: median, CV (sample sd / mean) and missed.
summarize() { # FILE
    sort -k1,1 -k2,2n -k3,3 "$1" | awk '
        function flush() {
            if (!n) return
            m = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
            mean = sum / n; sd = n > 1 ? sqrt((sq - n * mean * mean) / (n - 1)) : 0
            printf "%-15s %6s %-8s %10.2f %7.1f %8s\n", key1, key2, key3, m, (mean > 0 ? 100 * sd / mean : 0),
                   key3 == "window" ? miss "/" calls : "-"
            n = sum = sq = miss = calls = 0 }
        { k = $1 " " $2 " " $3
          if (k != last) { flush(); last = k; key1 = $1; key2 = $2; key3 = $3 }
          v[++n] = $4; sum += $4; sq += $4 * $4; miss += $5; calls += $6
          for (i = n; i > 1 && v[i] < v[i - 1]; i--) { t = v[i]; v[i] = v[i - 1]; v[i - 1] = t } }
        END { flush() }'
}
printf '# %-13s %6s %-8s %10s %7s %8s\n' program size method median_us cv_% missed
summarize "$TMPD/runs"
echo
echo
echo "# known skew: rank $((np - 1)) leaves every MPI_Barrier $skew us late; barrier timing should rise by about $(awk -v d="$skew" -v n="$np" 'BEGIN { printf "%.2f", d * (n - 1) / n }') us, window timing not"
printf '# %-13s %6s %-8s %10s %7s %8s %10s\n' program size method median_us cv_% missed rise_us
summarize "$TMPD/skew" | while read -r p s m med cv missed; do
    base=$(awk -v p="$p" -v s="$s" -v m="$m" '$1 == p && $2 == s && $3 == m { print $4 }' "$TMPD/runs" | median)
    printf '%-15s %6s %-8s %10.2f %7.1f %8s %10.2f\n' "$p" "$s" "$m" "$med" "$cv" "$missed" \
        "$(awk -v a="$med" -v b="${base:-0}" 'BEGIN { print a - b }')"
done
