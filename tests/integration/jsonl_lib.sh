# Helpers of the JSON Lines tests (jsonl_*.sh), sourced after lib.sh: the
# schema, the checker, and small runs of every program.
SCHEMA="$TOP/doc/jsonl.schema.json"
JSONL_CHECK="$TOP/tests/integration/jsonl_check.py"
# The model file (3 processes) and hierarchy file the CPM tools that read
# one are given (jsonl_inputs makes them).
JSONL_MODEL="$TMPD/hockney.model" JSONL_HIER="$TMPD/hosts.dot"
# The hierarchy tools see three hosts in two domains (their test hook).
export COMMSWEEP_FAKE_HOSTS=a1.one,a2.one,b1.two

jsonl_inputs() {
    run 3 "$BUILD/cpm/model" -C Hockney -o "$JSONL_MODEL" -M 1024 -S 1024 -r 2 -R 2 < /dev/null
    run 3 "$BUILD/cpm/generate_hierarchy_input_file" < /dev/null
    cp "$OUT" "$JSONL_HIER"
}

# jsonl_ok DESCRIPTION [jsonl_check.py options]: queues the check that the
# last run's stdout is valid JSON Lines by the schema and the stream's
# rules; jsonl_check_all checks the queue and prints its TAP lines (Python
# and the schema start once per test, not once per run).
JSONL_QUEUE="$TMPD/jsonl-queue" JSONL_RUNS=0
: > "$JSONL_QUEUE"
jsonl_ok() {
    local desc=$1
    shift
    JSONL_RUNS=$((JSONL_RUNS + 1))
    local saved="$TMPD/jsonl-$JSONL_RUNS"
    cp "$OUT" "$saved.out"
    cp "$ERR" "$saved.err"
    printf '%s\t%s\t%s\t%s\t%s\n' "$saved.out" "$saved.err" "$RC" "$desc" "$*" >> "$JSONL_QUEUE"
}
jsonl_check_all() {
    if ! python3 -c 'import jsonschema' 2> /dev/null; then
        not_ok "python3 with jsonschema" "not installed: machines/local/install-deps.sh installs python3-jsonschema"
        return
    fi
    [ -s "$JSONL_QUEUE" ] || return 0
    python3 "$JSONL_CHECK" "$SCHEMA" --batch "$JSONL_QUEUE"
}

# The small runs of a program, one a line: ranks (0: without the launcher),
# then the arguments. Every OSU-style program not named here gets the
# default: a new program on a shared driver is covered without a line of
# its own. Status 1 for a program nobody taught this table.
jsonl_runs() {
    local osu="-m 4:8 -i 3 -x 1"
    case $1 in
    alltoall/all) echo "2 --stats --samples s 3 2" ;;
    alltoall/aller) echo "2 --algorithm=alltoall,isend,rsend,2d --stats --samples s 2 2" ;;
    always/all | always/iall) echo "2 --time-limit=0.01 64" ;;
    caf/cafbench)
        echo "2 --sync --sync-outer 3 --sync-inner 2 --sync-delay 1 --stats --samples"
        echo "2 --single --check --maxndata 2 --maxstride 2 --target-time 0.0001 --halo-sizes 2 --sync-outer 2 --sync-inner 1 --sync-delay 1" ;;
    cpm/model) echo "3 -C Hockney -o $JSONL_MODEL -M 1024 -S 1024 -r 2 -R 2" ;;
    cpm/prediction) echo "0 -n 3 -O p2p -i $JSONL_MODEL -C Hockney -m 1 -M 2" ;;
    cpm/p2p) echo "2 -M 8 -S 8 -r 2 -R 3 --stats" ;;
    cpm/collective)
        echo "2 -O MPI_Allreduce -M 8 -S 8 -r 2 -R 3 --stats"
        echo "2 -O MPI_Bcast -M 8 -S 8 -r 3 -R 4 --timing=window --stats" ;;
    cpm/coll_test) echo "3 -i $JSONL_MODEL" ;;
    cpm/generate_hierarchy_input_file | cpm/ranks2hosts) echo "3" ;;
    cpm/hierarchical_model)
        echo "3 -C Hockney -i $JSONL_HIER -o $TMPD/hier.model -M 1024 -S 1024 -r 2 -R 2"
        echo "0 -i $JSONL_HIER --plan" ;;
    cpm/matmul) echo "2 -N 8 -r 3 -t 0.01 --stats --samples" ;;
    osu/osu_fop_latency | osu/osu_cas_latency) echo "2 -i 3 -x 1 --stats --samples" ;;
    # -N's default Cartesian neighbourhood needs 3 ranks.
    osu/osu_neighbor_* | osu/osu_ineighbor_*) echo "3 $osu --stats --samples" ;;
    # Two "nodes" of 2 ranks on this machine.
    osu/osu_bw_fan_in | osu/osu_bw_fan_out) echo "4 $osu --ranks-per-node 2 --stats --samples" ;;
    osu/osu_init | osu/osu_hello) echo "2" ;;
    osu/*)
        echo "2 $osu --stats --samples"
        # The optional columns, once per driver and kind.
        case $1 in
        osu/osu_latency) echo "2 $osu -f -z -c -T mpi_int" ;;
        osu/osu_bw) echo "2 $osu -f -z -c -D vect:2:1" ;;
        osu/osu_mbw_mr) echo "2 $osu -V -W 2 -c" ;;
        osu/osu_allreduce)
            echo "3 $osu -f -z -c -T double --per-iteration-max --stats"
            echo "3 -m 4:8 -i 8 -x 1 --timing=window --stats --samples" ;;
        osu/osu_iallgather)
            echo "3 $osu -f -z -c"
            echo "3 -m 4:4 -i 8 -x 1 --timing=window --stats --samples" ;;
        osu/osu_barrier) echo "3 -i 3 -x 1 -f -z --stats" ;;
        osu/osu_put_latency) echo "2 $osu -f -z -c" ;;
        osu/osu_acc_latency) echo "2 $osu -T all -c -z" ;;
        esac ;;
    *) return 1 ;;
    esac
}

# Runs PROGRAM_PATH as a line of jsonl_runs says, with EXTRA arguments
# (the line's arguments are split into words on purpose). stdin is
# /dev/null: the launcher would read the caller's loop input.
jsonl_run_line() { # LINE PROGRAM_PATH EXTRA...
    local line=$1 path=$2
    shift 2
    local np=${line%% *} args=
    [ "$np" = "$line" ] || args=${line#* }
    # shellcheck disable=SC2086
    if [ "$np" = 0 ]; then run1 "$path" $args "$@"; else run "$np" "$path" $args "$@"; fi < /dev/null
}
