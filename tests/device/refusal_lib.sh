# Sourced after tests/lib.sh: one_rank_refuses BUILD LABEL, the test of a
# device verdict that only one rank reaches. Rank 0 is told its MPI reads
# device memory, rank 1 that it does not (COMMSWEEP_GPU_AWARE, set per rank
# with env inside an MPMD launch, which Open MPI's and MPICH's launchers
# both take). Every rank must end within 20 s with status 2 and one line,
# from rank 1, naming it and its host; the timeout turns a hang into a
# failure. BUILD is an OPENACC=1 build (device memory on the runtime's host
# device, so it runs without a GPU). tests/device/check.sh runs it under
# Open MPI, tests/mpich/check.sh under MPICH.
one_rank_refuses() { # BUILD LABEL
    local b=$1 label=$2 host p prog args name start took lines
    host=$(hostname)
    for p in "osu/osu_latency -d openacc D D" "alltoall/all --memory=openacc contig 2 64" \
             "always/all --memory=openacc --time-limit=0.05 2048"; do
        read -r prog args <<< "$p"
        name=$(basename "$prog")
        start=$(date +%s)
        # shellcheck disable=SC2086 # args are words
        timeout -k 5 20 $MPIEXEC $MPIEXEC_FLAGS -n 1 env COMMSWEEP_GPU_AWARE=1 "$b/$prog" $args \
            : -n 1 env COMMSWEEP_GPU_AWARE=0 "$b/$prog" $args > "$OUT" 2> "$ERR"
        RC=$?
        took=$(($(date +%s) - start))
        lines=$(program_lines "$name")
        if [ "$RC" = 2 ] && [ "$lines" = 1 ] && grep -q "^$name: rank 1 on $host: " "$ERR"; then
            ok "$label: $prog: COMMSWEEP_GPU_AWARE=1 on rank 0, 0 on rank 1: status 2, one line from rank 1 (${took}s)"
        else
            not_ok "$label: $prog: COMMSWEEP_GPU_AWARE=1 on rank 0, 0 on rank 1: status 2, one line from rank 1" \
                "status $RC after ${took}s (want 2; 124 is the timeout), $lines lines from $name (want 1 naming rank 1 on $host)
$(head -c 800 "$ERR")"
        fi
    done
}
