#!/usr/bin/env bash
# Benchmark (not a test): commsweep's OSU-style programs against OMB 7.4
# built on the same machine, with the same command lines, interleaved
# (each case runs commsweep then OMB, ROUNDS times over all cases), and the
# median over the rounds of commsweep/OMB per size. Within 0.95-1.05 means
# the same command gives the same figure. Cases: osu_latency 1-64 B,
# osu_bw and osu_bibw 64 KiB-4 MiB (2 ranks); osu_allreduce (float) and
# osu_alltoall 1 B-64 KiB at 4 ranks; osu_put_latency (8 B-4 KiB) and
# osu_get_bw (64 KiB-1 MiB) in each of the six synchronizations, on
# MPI_Win_create windows;
# osu_mbw_mr 1 B-64 KiB at 4 ranks.
# Usage: BUILD=build tests/bench/omb74_compare.sh OMB_DIR [ROUNDS (default 5)]
#   OMB_DIR: the OMB 7.4 build (holding c/mpi/...). Launcher: MPIEXEC,
#   MPIEXEC_FLAGS as for the tests. Run on a quiet machine. EXTRA_ARGS (e.g.
#   "-i 2 -x 1" for a quick try of the script) goes to both programs.
# Prints one line per case and size: case, size, median commsweep, median
# OMB, median ratio; stops (status 1) when a run fails.
set -u
. "$(dirname "$0")/../lib.sh" > /dev/null
omb=${1:?usage: omb74_compare.sh OMB_DIR [ROUNDS]}
rounds=${2:-5}
ours="$BUILD/osu"
find_omb() { find "$omb/c/mpi" -type f -perm -u+x -name "$1" | head -1; }

# CASE NP OUR_PROGRAM OMB_PROGRAM ARGS (the same for both)
cases=(
    "latency|2|osu_latency|osu_latency|-m 1:64"
    "bw|2|osu_bw|osu_bw|-m 65536:4194304"
    "bibw|2|osu_bibw|osu_bibw|-m 65536:4194304"
    "allreduce|4|osu_allreduce|osu_allreduce|-m 4:65536 -T mpi_float"
    "alltoall|4|osu_alltoall|osu_alltoall|-m 1:65536"
    "mbw_mr|4|osu_mbw_mr|osu_mbw_mr|-m 1:65536"
)
for s in pscw fence lock flush flush_local lock_all; do
    cases+=("put_latency-$s|2|osu_put_latency|osu_put_latency|-w create -s $s -m 8:4096"
            "get_bw-$s|2|osu_get_bw|osu_get_bw|-w create -s $s -m 65536:1048576")
done

# Appends "CASE SIZE VALUE" per data row of one run to FILE.
one_run() { # FILE CASE NP EXE ARGS...
    local file=$1 name=$2 np=$3
    shift 3
    # shellcheck disable=SC2086
    if ! $MPIEXEC $MPIEXEC_FLAGS -n "$np" "$@" > "$TMPD/out" 2> "$TMPD/err" < /dev/null; then
        echo "omb74_compare: $* failed: $(head -c 300 "$TMPD/err")" >&2
        exit 1
    fi
    awk -v c="$name" '!/^#/ && NF >= 2 && $1 ~ /^[0-9]+$/ { print c, $1, $2 }' "$TMPD/out" >> "$file"
}

for r in $(seq "$rounds"); do
    for c in "${cases[@]}"; do
        IFS='|' read -r name np mine theirs args <<< "$c"
        args="$args ${EXTRA_ARGS:-}"
        exe=$(find_omb "$theirs")
        [ -n "$exe" ] || { echo "omb74_compare: no $theirs under $omb" >&2; exit 2; }
        # shellcheck disable=SC2086
        one_run "$TMPD/ours.$r" "$name" "$np" "$ours/$mine" $args
        # shellcheck disable=SC2086
        one_run "$TMPD/omb.$r" "$name" "$np" "$exe" $args
    done
    echo "# round $r of $rounds done" >&2
done

# Per round the ratio of each case and size, then medians over the rounds.
printf '%-22s %10s %14s %14s %8s\n' "# case" size commsweep OMB-7.4 ratio
for r in $(seq "$rounds"); do
    join -j1 <(awk '{ print $1 ":" $2, $3 }' "$TMPD/ours.$r" | sort) \
             <(awk '{ print $1 ":" $2, $3 }' "$TMPD/omb.$r" | sort)
done | awk '{ print $1, $2, $3, ($3 > 0 ? $2 / $3 : 0) }' > "$TMPD/all"
awk '{ print $1 }' "$TMPD/all" | sort -u -t: -k1,1 -k2,2n | while read -r key; do
    m_ours=$(awk -v k="$key" '$1 == k { print $2 }' "$TMPD/all" | median)
    m_omb=$(awk -v k="$key" '$1 == k { print $3 }' "$TMPD/all" | median)
    m_ratio=$(awk -v k="$key" '$1 == k { print $4 }' "$TMPD/all" | median)
    printf '%-22s %10s %14.2f %14.2f %8.3f\n' "${key%%:*}" "${key##*:}" "$m_ours" "$m_omb" "$m_ratio"
done
