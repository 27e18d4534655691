#!/bin/bash
# The Slurm path, for real: starts a single-node Slurm cluster (munged,
# slurmctld, slurmd from the distribution's packages, every file in a
# temporary folder), submits machines/slurm/job.sh with sbatch --wait and a
# small sweep, and checks every file the job wrote. Then the same job with the
# wrong PMI plugin must fail (one N-rank job silently becoming N one-rank
# jobs is the classic srun mistake), and submit.sh must submit and tag a job.
# With MPICH_BUILD set (a folder built with MPICC=mpicc.mpich), a short MPICH
# job checks the pmi2 plugin that env picks for MPICH.
#
# SLURM_TEST_KEEP=1 keeps the temporary folder (logs, results) for a look.
# Needs root (the daemons) and the slurm-wlm and munge packages; skips with a
# message otherwise. Prints TAP lines and "N passed, N failed". Every wait is
# bounded; the daemons are stopped by PID whatever happens.
#   BUILD=build tests/slurm/check.sh        (make check-slurm does this)
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# lib.sh: TOP, BUILD made absolute, TMPD, ok/not_ok/skip and summary.
TAP_DETAIL_LINES=30
. "$here/../lib.sh"
BUILD_ABS=$BUILD
NP=${SLURM_TEST_NP:-4}
JOB_TIMEOUT=${SLURM_TEST_JOB_TIMEOUT:-180}

check() { # DESCRIPTION COMMAND... (ok when the command succeeds)
    local what=$1 out
    shift
    if out=$("$@" 2>&1); then ok "$what"; else not_ok "$what" "$out"; fi
}

missing=()
for c in munged mungekey munge unmunge runuser slurmctld slurmd sbatch srun scontrol sinfo squeue scancel; do
    command -v "$c" > /dev/null || missing+=("$c")
done
if [ "$(id -u)" != 0 ]; then
    skip "slurm cluster" "needs root to start munged, slurmctld and slurmd"
    summary; exit 0
fi
if [ "${#missing[@]}" -gt 0 ]; then
    skip "slurm cluster" "not installed: ${missing[*]} (apt-get install slurm-wlm munge)"
    summary; exit 0
fi
if [ ! -x "$BUILD/alltoall/all" ]; then
    not_ok "build folder $BUILD has the programs" "build first: make BUILD=${BUILD#"$TOP"/}"
    summary; exit 1
fi

# shellcheck source=cluster.sh
. "$here/cluster.sh"
# shellcheck source=outputs.sh
. "$here/outputs.sh"
chmod 755 "$TMPD" # munged, running as munge, must reach its folder inside
finish() {
    if [ -n "${SLURM_CONF:-}" ] && [ -n "${CLUSTER_PIDS[*]}" ]; then
        timeout 10 scancel --partition=test > /dev/null 2>&1
        cluster_wait_for "jobs to end" sh -c '[ -z "$(squeue -h)" ]' 2>/dev/null
    fi
    cluster_stop
    if [ -n "${SLURM_TEST_KEEP:-}" ]; then
        echo "# kept $TMPD" >&2
    else
        rm -rf "$TMPD"
    fi
}
trap finish EXIT
trap 'exit 1' INT TERM HUP

cpus=$(nproc)
[ "$cpus" -lt "$NP" ] && cpus=$NP
if cluster_start "$TMPD/cluster" "$cpus" 2> "$TMPD/cluster.err"; then
    ok "single-node cluster up: munged, slurmctld, slurmd ($cpus CPUs declared)"
else
    not_ok "single-node cluster up" "$(cat "$TMPD/cluster.err"; cluster_logs 2>&1)"
    summary; exit 1
fi

# The small sweep. sbatch passes this environment on to the job (and srun to
# the ranks). Open MPI here: shared-memory single copy needs ptrace rights
# containers lack; one-sided windows need the UCX component; ranks that
# outnumber the cores must yield while they wait.
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_osc=ucx
export OMPI_MCA_mpi_yield_when_idle=1
# BUILD as make has it, relative to the top folder (job.sh resolves it so).
export COMMSWEEP_TOP="$TOP" BUILD="${BUILD#"$TOP"/}" PLOTS=0 STEP_TIMEOUT=60
export ALLTOALL_ITERS=2 ALLTOALL_COUNTHI=64
export ALWAYS_SIZE=4096 ALWAYS_TIME_LIMIT=0.02
export OSU_SIZES=1:64 OSU_ITERS=5 OSU_WARMUP=1 OSU_FLAGS=-c
export NETMAP_FLAGS="--size 4096 --window 2 --iters 2 --lat-iters 5 -c"
unset SRUN_MPI SRUN_FLAGS MPICC MEMORY SWEEP_FAMILIES OSU_PAIR OSU_MULTI OSU_COLL OSU_RMA NETMAP_PROGRAMS

# Submits job.sh and waits for it; sets JOB_RC and JOB_LOG.
submit() { # NAME SBATCH_ARGS...
    local name=$1; shift
    JOB_LOG="$TMPD/$name.log"
    timeout -k 10 "$JOB_TIMEOUT" sbatch --wait --time=4 -o "$JOB_LOG" "$@" \
        "$TOP/machines/slurm/job.sh" > "$TMPD/$name.sbatch" 2>&1
    JOB_RC=$?
    [ -f "$JOB_LOG" ] || : > "$JOB_LOG"
}

# 1. The whole sweep with the plugin env picks for this build.
# It ends with the PNGs, as a job does where gnuplot is installed.
export RESULTS="$TMPD/results"
plots=0
command -v gnuplot > /dev/null && plots=1
PLOTS=$plots submit sweep -n "$NP"
if [ "$JOB_RC" = 0 ]; then
    ok "job.sh under sbatch --wait exits 0 ($NP ranks)"
else
    not_ok "job.sh under sbatch --wait exits 0 ($NP ranks)" "status $JOB_RC
$(cat "$TMPD/sweep.sbatch")
$(tail -n 20 "$JOB_LOG")"
fi
jobid=$(sed -n 's/^Submitted batch job \([0-9]*\).*/\1/p' "$TMPD/sweep.sbatch")
outputs_check_sweep "$RESULTS" "$jobid.N1" "$NP" "$BUILD_ABS" "$JOB_LOG"
if [ "$plots" = 1 ]; then
    outputs_check_plots "$RESULTS" "$jobid.N1"
else
    skip "the job's PNG plots" "gnuplot is not installed"
fi

# 2. The wrong plugin must not pass for a result: job.sh sees N one-rank jobs.
case "$(sed -n 's/.*MPICC=\([^ ]*\).*/\1/p' "$BUILD_ABS/.config" 2>/dev/null)" in
    *mpich*) wrong=pmix ;;
    *) wrong=pmi2 ;;
esac
RESULTS="$TMPD/wrong" SRUN_MPI=$wrong SWEEP_FAMILIES=alltoall submit wrong -n "$NP"
if [ "$JOB_RC" != 0 ] && grep -qE 'world size 1,|failed with status' "$JOB_LOG"; then
    ok "srun --mpi=$wrong (the wrong plugin) fails the job: $(grep -m1 -oE 'world size 1,|failed with status' "$JOB_LOG")"
else
    not_ok "srun --mpi=$wrong (the wrong plugin) fails the job" \
        "status $JOB_RC
$(tail -n 20 "$JOB_LOG")"
fi

# 3. submit.sh: one job per node count (one node here), tagged N1.
mkdir -p "$TMPD/submit"
RESULTS="$TMPD/submit" SWEEP_FAMILIES=alltoall \
    timeout -k 10 "$JOB_TIMEOUT" "$TOP/machines/slurm/submit.sh" 1 --wait -n 2 --time=4 \
    -o "$TMPD/submit.log" > "$TMPD/submit.out" 2>&1
rc=$?
n=$(find "$TMPD/submit" -name 'all-contig.*.N1.dat' | wc -l)
if [ "$rc" = 0 ] && [ "$n" = 1 ]; then
    ok "submit.sh 1 submits one job whose files are tagged N1"
else
    not_ok "submit.sh 1 submits one job whose files are tagged N1" \
        "status $rc, $n file(s)
$(cat "$TMPD/submit.out" "$TMPD/submit.log" 2>/dev/null | tail -n 20)"
fi
check "submit.sh rejects a node count that is not a number" \
    sh -c "! '$TOP/machines/slurm/submit.sh' 2x > /dev/null 2>&1"

# 4. MPICH through srun --mpi=pmi2, as env picks it for mpicc.mpich.
if [ -n "${MPICH_BUILD:-}" ]; then
    case "$MPICH_BUILD" in /*) ;; *) MPICH_BUILD="$TOP/$MPICH_BUILD" ;; esac
    if [ -x "$MPICH_BUILD/alltoall/all" ]; then
        RESULTS="$TMPD/mpich" BUILD="$MPICH_BUILD" MPICC=mpicc.mpich SWEEP_FAMILIES=alltoall \
            submit mpich -n "$NP"
        if [ "$JOB_RC" = 0 ] && grep -q 'srun --mpi=pmi2' "$JOB_LOG"; then
            ok "MPICH build runs under srun --mpi=pmi2 ($NP ranks)"
        else
            not_ok "MPICH build runs under srun --mpi=pmi2 ($NP ranks)" \
                "status $JOB_RC
$(tail -n 20 "$JOB_LOG")"
        fi
        jobid=$(sed -n 's/^Submitted batch job \([0-9]*\).*/\1/p' "$TMPD/mpich.sbatch")
        outputs_check_alltoall "$TMPD/mpich" "$jobid.N1" "$NP"
        # MPICH under the PMIx plugin starts every rank as a job of its own
        # and exits 0: only the world size in the output tells.
        RESULTS="$TMPD/mpich-wrong" BUILD="$MPICH_BUILD" MPICC=mpicc.mpich SRUN_MPI=pmix \
            SWEEP_FAMILIES=alltoall ALLTOALL_COUNTHI=8 submit mpich-wrong -n "$NP"
        if [ "$JOB_RC" != 0 ] && grep -q "$NP header(s), world size 1," "$JOB_LOG"; then
            ok "MPICH under srun --mpi=pmix ($NP one-rank jobs) fails the job on the world size"
        else
            not_ok "MPICH under srun --mpi=pmix ($NP one-rank jobs) fails the job on the world size" \
                "status $JOB_RC
$(tail -n 20 "$JOB_LOG")"
        fi
    else
        not_ok "MPICH build in $MPICH_BUILD" "build it: make MPICC=mpicc.mpich BUILD=${MPICH_BUILD#"$TOP"/}"
    fi
fi

summary
