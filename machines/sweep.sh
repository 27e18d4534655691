# The sweep every machine's job.sh runs (sourced, bash). A job script sets
# the variables below, the two launch commands, then calls sweep_run_all;
# each program writes one file RESULTS/NAME.TAG.dat.
#
# The job script provides (bash arrays, the program and its arguments follow):
#   SWEEP_LAUNCH_ALL    runs on every rank of the job
#   SWEEP_LAUNCH_PAIR   runs on two ranks (across two nodes when the job has them)
#   SWEEP_NP    ranks that SWEEP_LAUNCH_ALL starts (checked in every output)
#   SWEEP_TAG   the part of file names that names the run (job id, nodes)
#
# Settings (environment; empty means the program's own default):
#   BUILD             the build folder (programs in BUILD/<family>/<program>)
#   RESULTS           where the .dat files go (created)
#   MEMORY            host | cuda | hip | openacc | managed: buffers of alltoall,
#                     always (--memory) and OSU programs (-d; hip is OMB's rocm)
#   STAGING           1: --staging (device data through pinned host copies)
#   ALLTOALL_ITERS    alltoall/all ITERS           (seed default 3)
#   ALLTOALL_COUNTHI  alltoall/all COUNTHI, longs  (seed default 40*1024)
#   ALWAYS_SIZE       always/all, iall SIZE, doubles per task (640^3)
#   ALWAYS_TIME_LIMIT always --time-limit seconds  (1)
#   OSU_SIZES         OSU -m [MIN:]MAX
#   OSU_ITERS         OSU -i
#   OSU_WARMUP        OSU -x
#   OSU_FLAGS         more flags for every OSU program (e.g. -c to validate)
#   OSU_COLL_FLAGS    more flags for collectives (default -f: min/max columns)
#   OSU_PAIR          OSU point-to-point programs run on two ranks
#   OSU_MULTI         OSU programs that pair up every rank of the job
#   OSU_COLL          OSU collectives, on every rank
#   OSU_RMA           OSU one-sided programs, on two ranks
#   OSU_GROUPS        OSU collectives run again in concurrent groups on a
#                     job of several nodes (SWEEP_NODES > 1): once with
#                     --groups=node, once with --groups=cross (files
#                     NAME-groups-node and NAME-groups-cross)
#   OSU_GROUPS_FLAGS  more flags for those runs (e.g. --nodes-by-block=N)
#                     (each list: program names; empty runs none)
#   NETMAP_PROGRAMS   network-map programs (default "pairs rings bisection
#                     congestion"; congestion needs 4 endpoints, else skipped)
#   NETMAP_FLAGS      more flags for every network-map program: the options
#                     they share (--size, --iters, -c...; see netmap/README.md)
#   SWEEP_NODES       nodes of the job: with 1 the network map is per rank
#                     (--ranks-per-node=all), else one rank per node
#   STEP_TIMEOUT      seconds before one program is stopped (none by default)
#   SWEEP_FAMILIES    which families to run (default "alltoall always osu netmap")
#   COMPARE_WITH      an earlier run's results folder: sweep_compare sets
#                     this run's OSU files against its (tools/compare)
#
# A program missing from BUILD is skipped with a message, so the sweep runs
# with whatever part of the suite is built. sweep_run_all returns 1 when any
# program failed, or wrote a file whose world size is not SWEEP_NP (a
# launcher that starts N one-rank jobs instead of one N-rank job).

: "${MEMORY:=host}"
: "${OSU_COLL_FLAGS:=-f}"
# The OSU programs print their run description (command, ranks, MPI,
# buffers...) only when asked; the results folder is read by people and by
# compare, plot and report, which need it.
export COMMSWEEP_DESCRIBE=1
: "${OSU_PAIR=osu_latency osu_bw osu_bibw osu_latency_mt}"
: "${OSU_MULTI=osu_mbw_mr osu_multi_lat}"
: "${OSU_COLL=osu_allreduce osu_alltoall osu_alltoallv osu_allgather osu_allgatherv \
osu_bcast osu_reduce osu_reduce_scatter osu_gather osu_gatherv osu_scatter \
osu_scatterv osu_barrier \
osu_iallreduce osu_ialltoall osu_ialltoallv osu_iallgather osu_iallgatherv \
osu_ibcast osu_ireduce osu_ireduce_scatter osu_igather osu_igatherv osu_iscatter \
osu_iscatterv osu_ibarrier}"
: "${OSU_GROUPS=osu_allreduce osu_alltoall osu_bcast osu_barrier}"
: "${OSU_RMA=osu_put_latency osu_get_latency osu_acc_latency osu_put_bw osu_get_bw \
osu_put_bibw osu_get_acc_latency osu_fop_latency osu_cas_latency \
osu_passive_put_latency osu_passive_get_latency osu_passive_acc_latency \
osu_passive_put_bw osu_passive_get_bw}"

SWEEP_FAILED=()
SWEEP_WRITTEN=()
SWEEP_SKIPPED=()

sweep_log() { echo "commsweep: $*" >&2; }

# Checks a finished output file: exactly one header, written by one job of
# the expected world size.
sweep_check_world() { # FILE EXPECTED_RANKS
    local headers ranks
    headers=$(grep -c '^# ranks: ' "$1")
    ranks=$(sed -n 's/^# ranks: \([0-9]*\).*/\1/p' "$1" | head -n 1)
    if [ "$headers" != 1 ] || [ "$ranks" != "$2" ]; then
        sweep_log "$(basename "$1"): $headers header(s), world size ${ranks:-none}," \
            "expected one header of $2 ranks (does the launcher's PMI match the MPI library?)"
        return 1
    fi
}

# Writes stdin to FILE; on a failed write says why on stderr and reads
# the rest to no file: the launcher then sees no closed pipe, which Open
# MPI's mpirun answers by aborting the job (and crashing). Status 1 then.
sweep_save() { # FILE
    local why
    why=$(cat 2>&1 > "$1") && return 0
    echo "${why##*: }" >&2
    cat > /dev/null
    return 1
}

# Runs one program and records the outcome. Its output reaches the file
# through sweep_save: a launcher (Open MPI's mpirun) may drop what it
# cannot write and end with 0, and the program, which wrote into the
# launcher's pipe, cannot tell.
#   sweep_run NAME LAUNCH_ARRAY_NAME EXPECTED_RANKS FAMILY/PROGRAM ARGS...
sweep_run() {
    local name=$1 np=$3 prog=$4
    local -n launch=$2
    shift 4
    local exe="$BUILD/$prog" file="$RESULTS/$name.$SWEEP_TAG.dat" rc wrc why whyfile limit=()
    if [ ! -x "$exe" ]; then
        sweep_log "skipping $name: $exe is not built"
        SWEEP_SKIPPED+=("$name")
        return 0
    fi
    if ! why=$({ : > "$file"; } 2>&1); then
        sweep_log "$name not run: cannot create $file: ${why##*: }"
        SWEEP_FAILED+=("$name")
        return 0
    fi
    sweep_log "running $name: ${launch[*]} $prog $*"
    [ -n "${STEP_TIMEOUT:-}" ] && limit=(timeout -k 10 "$STEP_TIMEOUT")
    whyfile=$(mktemp "${TMPDIR:-/tmp}/commsweep-sweep.XXXXXX")
    "${limit[@]}" "${launch[@]}" "$exe" "$@" | sweep_save "$file" 2> "$whyfile"
    rc=${PIPESTATUS[0]} wrc=${PIPESTATUS[1]}
    why=$(cat "$whyfile")
    rm -f "$whyfile"
    if [ "$wrc" -ne 0 ]; then
        sweep_log "$name: its output could not be written to $file: ${why:-a write failed} (the file is incomplete)"
        SWEEP_FAILED+=("$name")
    elif [ "$rc" -ne 0 ]; then
        sweep_log "$name failed with status $rc (output so far in $file)"
        SWEEP_FAILED+=("$name")
    elif ! sweep_check_world "$file" "$np"; then
        SWEEP_FAILED+=("$name")
    else
        SWEEP_WRITTEN+=("$file")
    fi
    return 0
}

# "-i Y -x Z ..." from the OSU settings that are set (sizes: sweep_osu_sizes),
# and the buffer flags: SWEEP_OSU_ARGS for the two-sided programs,
# SWEEP_OSU_RMA_ARGS (no --staging: a window cannot be staged) for the put and
# get programs; the atomics take host memory only (SWEEP_OSU_HOST_ARGS).
sweep_osu_flags() {
    SWEEP_OSU_HOST_ARGS=()
    [ -z "${OSU_ITERS:-}" ] || SWEEP_OSU_HOST_ARGS+=(-i "$OSU_ITERS")
    [ -z "${OSU_WARMUP:-}" ] || SWEEP_OSU_HOST_ARGS+=(-x "$OSU_WARMUP")
    # shellcheck disable=SC2206 # flags are words on purpose
    SWEEP_OSU_HOST_ARGS+=(${OSU_FLAGS:-})
    SWEEP_OSU_RMA_ARGS=("${SWEEP_OSU_HOST_ARGS[@]}")
    case $MEMORY in
    host) ;;
    hip) SWEEP_OSU_RMA_ARGS+=(-d rocm) ;;
    *) SWEEP_OSU_RMA_ARGS+=(-d "$MEMORY") ;;
    esac
    SWEEP_OSU_ARGS=("${SWEEP_OSU_RMA_ARGS[@]}")
    [ "${STAGING:-0}" != 1 ] || SWEEP_OSU_ARGS+=(--staging)
}

# --memory only when it is not the default, so host runs use the seeds' plain
# command lines.
sweep_memory_flag() {
    SWEEP_MEMORY_ARGS=()
    [ "$MEMORY" = host ] || SWEEP_MEMORY_ARGS=(--memory="$MEMORY")
    [ "${STAGING:-0}" != 1 ] || SWEEP_MEMORY_ARGS+=(--staging)
}

# -m for one OSU program: atomics work on one element and take no sizes;
# accumulates need whole 4-byte elements, so their smallest size is 4.
sweep_osu_sizes() { # PROGRAM
    local min max
    SWEEP_OSU_SIZES=()
    [ -n "${OSU_SIZES:-}" ] || return 0
    case "$1" in
        osu_fop_latency | osu_cas_latency) return 0 ;;
        *acc_latency)
            case "$OSU_SIZES" in
                *:*) min=${OSU_SIZES%%:*} max=${OSU_SIZES#*:}
                     [ "$min" -lt 4 ] 2>/dev/null && min=4
                     SWEEP_OSU_SIZES=(-m "$min:$max") ;;
                *) SWEEP_OSU_SIZES=(-m "$OSU_SIZES") ;;
            esac ;;
        *) SWEEP_OSU_SIZES=(-m "$OSU_SIZES") ;;
    esac
}

sweep_alltoall() {
    local part
    sweep_memory_flag
    for part in contig strided; do
        sweep_run "all-$part" SWEEP_LAUNCH_ALL "$SWEEP_NP" alltoall/all \
            "${SWEEP_MEMORY_ARGS[@]}" "$part" "${ALLTOALL_ITERS:-0}" "${ALLTOALL_COUNTHI:-0}"
    done
}

sweep_always() {
    local prog part partition args
    sweep_memory_flag
    for prog in all iall; do
        for part in contig strided; do
            partition=contiguous
            [ "$part" = strided ] && partition=strided
            args=("${SWEEP_MEMORY_ARGS[@]}" --partition="$partition")
            [ -n "${ALWAYS_TIME_LIMIT:-}" ] && args+=(--time-limit="$ALWAYS_TIME_LIMIT")
            [ -n "${ALWAYS_SIZE:-}" ] && args+=("$ALWAYS_SIZE")
            sweep_run "always-$prog-$part" SWEEP_LAUNCH_ALL "$SWEEP_NP" "always/$prog" "${args[@]}"
        done
    done
}

sweep_osu() {
    local p rma_args
    sweep_osu_flags
    for p in $OSU_PAIR; do
        sweep_osu_sizes "$p"
        sweep_run "$p" SWEEP_LAUNCH_PAIR 2 "osu/$p" "${SWEEP_OSU_SIZES[@]}" "${SWEEP_OSU_ARGS[@]}"
    done
    for p in $OSU_RMA; do
        sweep_osu_sizes "$p"
        # The atomics as 4-byte integers: UCX (Open MPI's osc/ucx, the
        # usual one-sided path on InfiniBand clusters) refuses 1-byte
        # atomic operations, and the default element is OMB's MPI_CHAR.
        case $p in
        *fop* | *cas*) rma_args=("${SWEEP_OSU_HOST_ARGS[@]}" -T mpi_int) ;;
        *acc*) rma_args=("${SWEEP_OSU_HOST_ARGS[@]}") ;;
        *) rma_args=("${SWEEP_OSU_RMA_ARGS[@]}") ;;
        esac
        sweep_run "$p" SWEEP_LAUNCH_PAIR 2 "osu/$p" "${SWEEP_OSU_SIZES[@]}" "${rma_args[@]}"
    done
    for p in $OSU_MULTI; do
        if [ $((SWEEP_NP % 2)) -ne 0 ]; then
            sweep_log "skipping $p: it pairs ranks and the job has an odd number ($SWEEP_NP)"
            SWEEP_SKIPPED+=("$p")
            continue
        fi
        sweep_osu_sizes "$p"
        sweep_run "$p" SWEEP_LAUNCH_ALL "$SWEEP_NP" "osu/$p" "${SWEEP_OSU_SIZES[@]}" "${SWEEP_OSU_ARGS[@]}"
    done
    # shellcheck disable=SC2086 # flags are words on purpose
    for p in $OSU_COLL; do
        sweep_osu_sizes "$p"
        sweep_run "$p" SWEEP_LAUNCH_ALL "$SWEEP_NP" "osu/$p" "${SWEEP_OSU_SIZES[@]}" "${SWEEP_OSU_ARGS[@]}" $OSU_COLL_FLAGS
    done
    sweep_osu_groups
}

# Each collective of OSU_GROUPS once per node at the same time (what a
# node's ranks get among themselves while every node runs) and once across
# the nodes by local rank (what the network gives each such group while
# the others load it too): on one node the layouts say nothing new.
sweep_osu_groups() {
    local p layout
    if [ "${SWEEP_NODES:-1}" -le 1 ]; then
        [ -z "$OSU_GROUPS" ] || sweep_log "skipping the OSU groups: the job has one node"
        return 0
    fi
    # shellcheck disable=SC2086 # flags are words on purpose
    for p in $OSU_GROUPS; do
        sweep_osu_sizes "$p"
        for layout in node cross; do
            sweep_run "$p-groups-$layout" SWEEP_LAUNCH_ALL "$SWEEP_NP" "osu/$p" \
                "${SWEEP_OSU_SIZES[@]}" "${SWEEP_OSU_ARGS[@]}" $OSU_COLL_FLAGS ${OSU_GROUPS_FLAGS:-} \
                --groups="$layout"
        done
    done
}

# The network map on every rank of the job: one rank per node on a
# multi-node job, every rank its own endpoint on one node.
sweep_netmap() {
    local p endpoints args=()
    : "${NETMAP_PROGRAMS=pairs rings bisection congestion locate}"
    endpoints=${SWEEP_NODES:-1}
    if [ "$endpoints" -le 1 ]; then
        args=(--ranks-per-node=all)
        endpoints=$SWEEP_NP
    fi
    # shellcheck disable=SC2206 # flags are words on purpose
    args+=(${NETMAP_FLAGS:-})
    for p in $NETMAP_PROGRAMS; do
        local least=2
        case $p in congestion | locate) least=4 ;; esac
        if [ "$endpoints" -lt "$least" ]; then
            sweep_log "skipping netmap $p: $endpoints endpoint(s) are too few"
            SWEEP_SKIPPED+=("$p")
            continue
        fi
        local extra=()
        # locate judges by switch and group where Slurm's topology says them.
        if [ "$p" = locate ] && [ -f "$(dirname "${SLURM_CONF:-/etc/slurm/slurm.conf}")/topology.conf" ]; then
            extra=(--topology=slurm)
        fi
        sweep_run "$p" SWEEP_LAUNCH_ALL "$SWEEP_NP" "netmap/$p" "${args[@]}" "${extra[@]}"
    done
}

sweep_run_all() {
    : "${BUILD:?BUILD must name the build folder}" "${RESULTS:?RESULTS must name a folder}"
    : "${SWEEP_NP:?}" "${SWEEP_TAG:?}"
    if [ ! -d "$BUILD" ]; then
        sweep_log "no build folder $BUILD (run make.sh first, or set BUILD)"
        return 1
    fi
    mkdir -p "$RESULTS" || return 1
    sweep_log "$SWEEP_NP ranks, results in $RESULTS, tag $SWEEP_TAG, $MEMORY buffers"
    local family
    for family in ${SWEEP_FAMILIES:-alltoall always osu netmap}; do
        case "$family" in
            alltoall | always | osu | netmap) "sweep_$family" ;;
            *) sweep_log "unknown family '$family' in SWEEP_FAMILIES"; return 1 ;;
        esac
    done
    sweep_log "${#SWEEP_WRITTEN[@]} written, ${#SWEEP_SKIPPED[@]} skipped, ${#SWEEP_FAILED[@]} failed${SWEEP_FAILED[*]:+: ${SWEEP_FAILED[*]}}"
    [ "${#SWEEP_FAILED[@]}" -eq 0 ] && [ "${#SWEEP_WRITTEN[@]}" -gt 0 ]
}

# Renders the files this run wrote, when gnuplot is there (PLOTS=0: never).
sweep_plot() { # TOP
    [ "${PLOTS:-1}" = 0 ] || [ "${#SWEEP_WRITTEN[@]}" -eq 0 ] && return 0
    if ! command -v gnuplot > /dev/null; then
        sweep_log "no gnuplot here: render later with plot/plot.sh $RESULTS"
        return 0
    fi
    "$1/plot/plot.sh" "${SWEEP_WRITTEN[@]}" ||
        sweep_log "some plots failed (the .dat files are complete)"
}

# The run's page: RESULTS/report.html from tools/report, against the
# system's references (machines/SYSTEM/references, when there is one) and,
# with COMPARE_WITH, the earlier run. Returns 1 when the page could not be
# written (the results stay).
sweep_report() { # TOP SYSTEM
    local refs=() earlier=()
    [ -f "$1/machines/$2/references" ] && refs=(--references "$1/machines/$2/references")
    [ -n "${COMPARE_WITH:-}" ] && earlier=(--compare-with "$COMPARE_WITH")
    if [ "${#SWEEP_WRITTEN[@]}" -eq 0 ]; then
        sweep_log "no results: no report"
        return 0
    fi
    if ! command -v python3 > /dev/null; then
        sweep_log "no python3 here: write the page later with tools/report $RESULTS"
        return 0
    fi
    BUILD="$BUILD" "$1/tools/report" "${refs[@]}" "${earlier[@]}" "$RESULTS" ||
        { sweep_log "the report could not be written"; return 1; }
    sweep_log "report: $RESULTS/report.html"
}

# The OSU files of this run against those of an earlier one (its results
# folder): RESULTS/compare/NAME.dat from tools/compare, the earlier run as
# A, this one as B, and NAME.png when plots are on. The earlier file of a
# program is the one of the same name, else its only NAME.*.dat. Returns 1
# when the folder is not there or compare is not built or fails.
sweep_compare() { # EARLIER_RESULTS
    local earlier=$1 file name old out rc=0 png=() found
    local compare="$BUILD/tools/compare"
    if [ ! -d "$earlier" ]; then
        sweep_log "COMPARE_WITH=$earlier is not a results folder"
        return 1
    fi
    if [ ! -x "$compare" ]; then
        sweep_log "cannot compare with $earlier: $compare is not built"
        return 1
    fi
    mkdir -p "$RESULTS/compare" || return 1
    for file in "${SWEEP_WRITTEN[@]}"; do
        name=$(basename "$file")
        name=${name%%.*}
        case $name in osu_*) ;; *) continue ;; esac
        old="$earlier/$(basename "$file")"
        # An earlier file that is there but no regular file (a FIFO, a link
        # to nothing) goes to compare, which says what it is and fails.
        if [ ! -e "$old" ] && [ ! -L "$old" ]; then
            found=("$earlier/$name".*.dat)
            if [ "${#found[@]}" != 1 ] || { [ ! -e "${found[0]}" ] && [ ! -L "${found[0]}" ]; }; then
                sweep_log "compare $name: no single $name.*.dat in $earlier"
                continue
            fi
            old=${found[0]}
        fi
        out="$RESULTS/compare/$name"
        png=()
        [ "${PLOTS:-1}" = 0 ] || ! command -v gnuplot > /dev/null || png=(--png "$out.png")
        if "$compare" "${png[@]}" "$old" "$file" > "$out.dat"; then
            sweep_log "compare $name: $(tail -n 1 "$out.dat" | sed 's/^# //')"
        else
            rc=1
        fi
    done
    sweep_log "comparisons with $earlier in $RESULTS/compare"
    return "$rc"
}

# The whole job inside a Slurm allocation: srun with the PMI plugin SRUN_MPI
# (none when empty) and SRUN_FLAGS on every step, the pair programs on two
# nodes when the job has two, files tagged JOBID.N<nodes>. Returns the
# sweep's status, which sbatch --wait passes on.
sweep_slurm_job() { # TOP
    local top=$1 mpi=()
    if [ -z "${SLURM_JOB_ID:-}" ]; then
        sweep_log "not inside a Slurm job: submit this script with sbatch"
        return 2
    fi
    local nodes=${SLURM_JOB_NUM_NODES:-1}
    [ -n "${SRUN_MPI:-}" ] && mpi=(--mpi="$SRUN_MPI")
    SWEEP_NP=${SLURM_NTASKS:-$nodes}
    SWEEP_NODES=$nodes
    SWEEP_TAG="$SLURM_JOB_ID.N$nodes"
    # shellcheck disable=SC2206 # flags are words on purpose
    SWEEP_LAUNCH_ALL=(srun "${mpi[@]}" ${SRUN_FLAGS:-} -n "$SWEEP_NP")
    if [ "$nodes" -ge 2 ]; then
        # shellcheck disable=SC2206
        SWEEP_LAUNCH_PAIR=(srun "${mpi[@]}" ${SRUN_FLAGS:-} -N 2 -n 2 --ntasks-per-node=1)
    else
        # shellcheck disable=SC2206
        SWEEP_LAUNCH_PAIR=(srun "${mpi[@]}" ${SRUN_FLAGS:-} -N 1 -n 2)
    fi
    # BUILD is a make variable, so relative to the top folder like make's.
    : "${BUILD:=build}" "${RESULTS:=$top/results}"
    case "$BUILD" in /*) ;; *) BUILD="$top/$BUILD" ;; esac
    local rc=0
    sweep_run_all || rc=1
    sweep_plot "$top"
    sweep_report "$top" "${SYSTEM:-slurm}" || rc=1
    return "$rc"
}
