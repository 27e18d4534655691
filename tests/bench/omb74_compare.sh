#!/usr/bin/env bash
# Benchmark (not a test): commsweep's OSU-style programs against OMB 7.4
# built on the same machine, with the same command lines, interleaved
# (each case runs commsweep then OMB, ROUNDS times over all cases), and the
# median over the rounds of commsweep/OMB per size. Within 0.95-1.05 means
# the same command gives the same figure. SET chooses the cases:
#   dropin (default): osu_latency 1-64 B, osu_bw and osu_bibw 64 KiB-4 MiB
#     (2 ranks); osu_allreduce (float) and osu_alltoall 1 B-64 KiB at 4
#     ranks; osu_put_latency (8 B-4 KiB) and osu_get_bw (64 KiB-1 MiB) in
#     each of the six synchronizations, on MPI_Win_create windows, each
#     with the seed's window and (CASE/omb) with OMB 7.4's;
#     osu_mbw_mr 1 B-64 KiB at 4 ranks.
#   added: the programs added beside those (point-to-point persistent,
#     osu_latency_mp, the fan tests at 4 ranks as 2 nodes of 2, alltoallw,
#     reduce_scatter_block and the neighborhood collectives at 4 ranks, blocking
#     and non-blocking); the fan tests run OMB under omb74/fake_node.sh
#     (unshare, root), as the layout fixtures are recorded.
#   persistent: the 14 persistent collectives at 4 ranks; OMB 7.4 has them
#     only when built with an MPI-4 library: run with an MPICH build of both,
#     BUILD=build-mpich MPIEXEC=mpiexec.mpich OMB_DIR=<OMB built with MPICH>;
#     the script selects MPICH 4.0.2's allgather, gather and scatter
#     schedules that deliver right data (osu/README.md), for both suites.
# Usage: BUILD=build [SET=dropin|added|persistent] tests/bench/omb74_compare.sh OMB_DIR [ROUNDS (default 5)]
#   OMB_DIR: the OMB 7.4 build (holding c/mpi/...). Launcher: MPIEXEC,
#   MPIEXEC_FLAGS as for the tests. Run on a quiet machine. EXTRA_ARGS (e.g.
#   "-i 2 -x 1" for a quick try of the script) goes to both programs;
#   CASES=REGEX runs only the cases whose name matches; NP=N runs the cases
#   of more than 2 ranks at N instead (MPICH, which polls without yielding,
#   takes milliseconds per collective when 4 ranks share 2 cores); RAW=FILE
#   keeps every round's values (round case size commsweep OMB). Odd rounds
#   run commsweep first, even rounds OMB.
# Prints one line per case and size: case, size, median commsweep, median
# OMB, median ratio, the first and third quartiles of the rounds' ratios (the first value column: latency, bandwidth, or the
# overall time of a non-blocking collective); stops (status 1) when a run fails.
set -u
. "$(dirname "$0")/../lib.sh" > /dev/null
omb=${1:?usage: omb74_compare.sh OMB_DIR [ROUNDS]}
rounds=${2:-5}
ours="$BUILD/osu"
fake_node="$(cd "$(dirname "$0")/../integration/omb74" && pwd)/fake_node.sh"
find_omb() { find "$omb/c/mpi" -type f -perm -u+x -name "$1" | head -1; }

# CASE NP OUR_PROGRAM OMB_PROGRAM ARGS (the same for both, but for options of
# ours only, which OMB does not get: --win-memory and --win-per-size, whose
# behaviour is OMB's own, and --ranks-per-node N, for which OMB runs under
# fake_node.sh N instead)
cases=()
case "${SET:-dropin}" in
dropin)
    cases=(
        "latency|2|osu_latency|osu_latency|-m 1:64"
        "bw|2|osu_bw|osu_bw|-m 65536:4194304"
        "bibw|2|osu_bibw|osu_bibw|-m 65536:4194304"
        "allreduce|4|osu_allreduce|osu_allreduce|-m 4:65536 -T mpi_float"
        "alltoall|4|osu_alltoall|osu_alltoall|-m 1:65536"
        "mbw_mr|4|osu_mbw_mr|osu_mbw_mr|-m 1:65536"
    )
    # Each one-sided case twice: with the seed's window (MPI_Alloc_mem
    # memory, one window for all sizes) and, "/omb", with OMB 7.4's.
    omb_window="--win-memory malloc --win-per-size"
    for s in pscw fence lock flush flush_local lock_all; do
        cases+=("put_latency-$s|2|osu_put_latency|osu_put_latency|-w create -s $s -m 8:4096"
                "put_latency-$s/omb|2|osu_put_latency|osu_put_latency|-w create -s $s -m 8:4096 $omb_window"
                "get_bw-$s|2|osu_get_bw|osu_get_bw|-w create -s $s -m 65536:1048576"
                "get_bw-$s/omb|2|osu_get_bw|osu_get_bw|-w create -s $s -m 65536:1048576 $omb_window")
    done ;;
added)
    cases=(
        "latency_persistent|2|osu_latency_persistent|osu_latency_persistent|-m 1:64"
        "bw_persistent|2|osu_bw_persistent|osu_bw_persistent|-m 65536:4194304"
        "bibw_persistent|2|osu_bibw_persistent|osu_bibw_persistent|-m 65536:4194304"
        "latency_mp|2|osu_latency_mp|osu_latency_mp|-m 1:64"
        "bw_fan_in|4|osu_bw_fan_in|osu_bw_fan_in|-m 65536:1048576 --ranks-per-node 2"
        "bw_fan_out|4|osu_bw_fan_out|osu_bw_fan_out|-m 65536:1048576 --ranks-per-node 2"
        "alltoallw|4|osu_alltoallw|osu_alltoallw|-m 1:65536"
        "ialltoallw|4|osu_ialltoallw|osu_ialltoallw|-m 1:65536"
        "reduce_scatter_block|4|osu_reduce_scatter_block|osu_reduce_scatter_block|-m 16:65536 -T mpi_float"
        "ireduce_scatter_block|4|osu_ireduce_scatter_block|osu_ireduce_scatter_block|-m 16:65536 -T mpi_float"
    )
    for c in allgather allgatherv alltoall alltoallv alltoallw; do
        cases+=("neighbor_$c|4|osu_neighbor_$c|osu_neighbor_$c|-m 1:65536"
                "ineighbor_$c|4|osu_ineighbor_$c|osu_ineighbor_$c|-m 1:65536")
    done ;;
persistent)
    # MPICH 4.0.2's default schedules of these three give wrong data or
    # fail (osu/README.md); both suites run on the ones that work.
    export MPIR_CVAR_IALLGATHER_INTRA_ALGORITHM=tsp_ring
    export MPIR_CVAR_IGATHER_INTRA_ALGORITHM=tsp_tree MPIR_CVAR_ISCATTER_INTRA_ALGORITHM=tsp_tree
    for c in allgather allgatherv alltoall alltoallv alltoallw bcast gather gatherv scatter \
             scatterv; do
        cases+=("${c}_persistent|4|osu_${c}_persistent|osu_${c}_persistent|-m 1:65536")
    done
    for c in allreduce reduce reduce_scatter; do
        cases+=("${c}_persistent|4|osu_${c}_persistent|osu_${c}_persistent|-m 16:65536 -T mpi_float")
    done ;;
*) echo "omb74_compare: SET is dropin, added or persistent" >&2; exit 2 ;;
esac
# CASES=REGEX keeps the cases whose name matches (e.g. CASES='^get_bw').
if [ -n "${CASES:-}" ]; then
    kept=()
    for c in "${cases[@]}"; do [[ "${c%%|*}" =~ $CASES ]] && kept+=("$c"); done
    cases=("${kept[@]}")
fi

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
        omb_args=$args wrap=()
        if [[ " $args " =~ \ --ranks-per-node\ ([0-9]+) ]]; then
            wrap=("$fake_node" "${BASH_REMATCH[1]}")
        fi
        omb_args=$(sed -e 's/ *--ranks-per-node [0-9]*//' -e 's/ *--win-memory [a-z_]*//' \
                       -e 's/ *--win-per-size//' <<< "$args")
        [ "$np" -gt 2 ] && np=${NP:-$np}
        # Odd rounds run commsweep first, even rounds OMB: a state that one
        # launch leaves to the next (caches, page placement, clock speed)
        # then favours neither.
        if [ $((r % 2)) = 1 ]; then
            # shellcheck disable=SC2086
            one_run "$TMPD/ours.$r" "$name" "$np" "$ours/$mine" $args
            # shellcheck disable=SC2086
            one_run "$TMPD/omb.$r" "$name" "$np" "${wrap[@]}" "$exe" $omb_args
        else
            # shellcheck disable=SC2086
            one_run "$TMPD/omb.$r" "$name" "$np" "${wrap[@]}" "$exe" $omb_args
            # shellcheck disable=SC2086
            one_run "$TMPD/ours.$r" "$name" "$np" "$ours/$mine" $args
        fi
    done
    echo "# round $r of $rounds done" >&2
done

# Per round the ratio of each case and size, then medians over the rounds,
# and the quartiles of the rounds' ratios (how far one round says otherwise).
printf '%-26s %10s %14s %14s %8s %15s\n' "# case" size commsweep OMB-7.4 ratio "ratio q1-q3"
for r in $(seq "$rounds"); do
    join -j1 <(awk '{ print $1 ":" $2, $3 }' "$TMPD/ours.$r" | sort) \
             <(awk '{ print $1 ":" $2, $3 }' "$TMPD/omb.$r" | sort) | sed "s/^/$r /"
done | awk '{ print $1, $2, $3, $4, ($4 > 0 ? $3 / $4 : 0) }' > "$TMPD/rounds"
[ -n "${RAW:-}" ] && awk '{ split($2, k, ":"); print $1, k[1], k[2], $3, $4 }' "$TMPD/rounds" > "$RAW"
cut -d' ' -f2- "$TMPD/rounds" > "$TMPD/all"
# The q-th quartile of stdin's values (the nearest rank).
quartile() { sort -g | awk -v q="$1" '{ v[NR] = $1 } END { i = int(NR * q / 4 + 0.5); if (i < 1) i = 1; print v[i] }'; }
awk '{ print $1 }' "$TMPD/all" | sort -u -t: -k1,1 -k2,2n | while read -r key; do
    m_ours=$(awk -v k="$key" '$1 == k { print $2 }' "$TMPD/all" | median)
    m_omb=$(awk -v k="$key" '$1 == k { print $3 }' "$TMPD/all" | median)
    m_ratio=$(awk -v k="$key" '$1 == k { print $4 }' "$TMPD/all" | median)
    q1=$(awk -v k="$key" '$1 == k { print $4 }' "$TMPD/all" | quartile 1)
    q3=$(awk -v k="$key" '$1 == k { print $4 }' "$TMPD/all" | quartile 3)
    printf '%-26s %10s %14.2f %14.2f %8.3f %7.3f-%-7.3f\n' "${key%%:*}" "${key##*:}" "$m_ours" \
        "$m_omb" "$m_ratio" "$q1" "$q3"
done
