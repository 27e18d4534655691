#!/usr/bin/env bash
# Every program of every family (each one built, found in $BUILD, so that
# new programs are covered without a word here) writes valid JSON Lines
# with --format=jsonl at a small size: the schema (doc/jsonl.schema.json),
# a header first and a summary last, each row's fields declared in its
# table, status 0. Where the run has --stats and --samples, the median, P5,
# P95 and CV of every row are recomputed from its samples.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/jsonl_lib.sh"

jsonl_inputs
for program in $(built_programs alltoall always caf cpm osu); do
    if ! lines=$(jsonl_runs "$program"); then
        not_ok "$program: no JSON test run" "add its arguments to jsonl_runs (tests/integration/jsonl_lib.sh)"
        continue
    fi
    while IFS= read -r line; do
        jsonl_run_line "$line" "$BUILD/$program" --format=jsonl
        min=1 # the model builders write a file, no rows
        case "$program $line" in cpm/model* | *hierarchical_model*" -o "*) min=0 ;; esac
        jsonl_ok "$program at $line: JSON Lines valid" --program "$program" --status 0 \
            --min-rows "$min" --recompute
    done <<< "$lines"
done
jsonl_check_all
