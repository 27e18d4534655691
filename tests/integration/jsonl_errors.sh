#!/usr/bin/env bash
# --format=jsonl where runs go wrong: a run refused for bad input (status 2)
# writes nothing on stdout, in every family, before or after the text
# header would have begun; a failed data check (COMMSWEEP_CORRUPT=1, status
# 1) still ends with a summary that says so, in every family that checks
# data; and strings with quotes, backslashes, control characters and bytes
# that are not UTF-8 come out as valid JSON holding the same text.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/jsonl_lib.sh"
O="$BUILD/osu" A="$BUILD/alltoall" C="$BUILD/cpm"

# refused_quietly NP NAME DESCRIPTION PROGRAM ARGS...: status 2, one line on
# stderr, and not a byte on stdout.
refused_quietly() {
    local np=$1 name=$2 desc=$3
    shift 3
    refused "$np" "$name" "$desc: status 2, one message" "$@" < /dev/null
    expect '[ ! -s "$OUT" ]' "$desc: nothing on stdout"
}

refused_quietly 2 osu_latency "osu_latency --format=jsonl -m x" "$O/osu_latency" --format=jsonl -m x
refused_quietly 0 osu_latency "--format=xml" "$O/osu_latency" --format=xml
refused_quietly 0 osu_latency "--samples without --format=jsonl" "$O/osu_latency" --samples
# The memory limit is found after the text's header: the JSON stays empty.
refused_quietly 2 osu_allreduce "osu_allreduce --format=jsonl -M 1 (after the header)" \
    "$O/osu_allreduce" --format=jsonl -M 1
refused_quietly 2 osu_mbw_mr "osu_mbw_mr -V --stats" "$O/osu_mbw_mr" --format=jsonl -V --stats
refused_quietly 2 all "alltoall/all --format=jsonl with ITERS x" "$A/all" --format=jsonl s x
refused_quietly 2 all "always/all --stats (no per-call times)" "$BUILD/always/all" --format=jsonl --stats
refused_quietly 2 cafbench "cafbench --stats with the p2p section" "$BUILD/caf/cafbench" --format=jsonl --stats
refused_quietly 2 p2p "cpm/p2p --samples" "$C/p2p" --format=jsonl --samples
refused_quietly 2 model "cpm/model --stats" "$C/model" --format=jsonl --stats -C Hockney -o "$TMPD/m"

# The model and hierarchy files the CPM runs below read.
jsonl_inputs
refused_quietly 0 prediction "cpm/prediction --format=jsonl --dot" "$C/prediction" --format=jsonl \
    --dot -n 3 -O Hockney_Bcast_ucs_binomial_min -i "$JSONL_MODEL" -C Hockney

# Failed data checks: valid JSON to the end, a summary with status 1.
failed_check() { # NP DESCRIPTION PROGRAM ARGS...
    local np=$1 desc=$2
    shift 2
    COMMSWEEP_CORRUPT=1 run "$np" "$@" --format=jsonl < /dev/null
    jsonl_ok "$desc with COMMSWEEP_CORRUPT=1: JSON to a summary of status 1, validation failed" \
        --status 1 --validation failed
}
failed_check 2 osu_latency "$O/osu_latency" -m 4:8 -i 2 -x 1 -c
expect 'grep -q "\"validation\":\"fail\"" "$OUT"' "osu_latency: the failing row says fail"
failed_check 3 osu_allreduce "$O/osu_allreduce" -m 4:8 -i 2 -x 1 -c
failed_check 2 osu_put_latency "$O/osu_put_latency" -m 4:8 -i 2 -x 1 -c
failed_check 2 alltoall/all "$A/all" s 1 2
failed_check 2 always/all "$BUILD/always/all" --time-limit=0.01 64
failed_check 2 cafbench "$BUILD/caf/cafbench" --p2p --single --check --maxndata 2 --maxstride 2 \
    --target-time 0.0001
failed_check 2 cpm/collective "$C/collective" -O MPI_Bcast -M 8 -S 8 -r 2 -R 2
failed_check 3 cpm/coll_test "$C/coll_test" -i "$JSONL_MODEL"
failed_check 2 cpm/matmul "$C/matmul" -N 8 -r 1 -t 0.01

# Passing checks say so.
run 2 "$O/osu_latency" -m 4:8 -i 2 -x 1 -c --format=jsonl < /dev/null
jsonl_ok "osu_latency -c: summary passed" --status 0 --validation passed
run 2 "$O/osu_latency" -m 4:8 -i 2 -x 1 --format=jsonl < /dev/null
jsonl_ok "osu_latency without -c: summary off" --status 0 --validation off

# A file name with a quote, a backslash, a tab, a newline, a UTF-8 letter
# and a byte that is not UTF-8 (JSON carries U+FFFD for it).
odd="$TMPD/q\"uo\\te"$'\t'"d"$'\n'"é"$'\xff'".model"
cp "$JSONL_MODEL" "$odd"
printf '%s' "$odd" > "$TMPD/odd-name"
run1 "$C/prediction" --format=jsonl -n 3 -O p2p -i "$odd" -C Hockney -m 1 -M 1 < /dev/null
jsonl_ok "prediction of a file with an odd name: valid JSON Lines" --status 0 --min-rows 6
expect 'python3 - "$OUT" "$TMPD/odd-name" <<PY
import json, sys
header = json.loads(open(sys.argv[1]).readline())
want = open(sys.argv[2], "rb").read().decode("utf-8", errors="replace")
command = header["command"]
sys.exit(0 if command[command.index("-i") + 1] == want else 1)
PY' "the header's command holds the odd name, escaped and read back the same"

jsonl_check_all
