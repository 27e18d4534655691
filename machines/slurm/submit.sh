#!/bin/bash
# Submits one sweep job per node count, 1, 2, 4, ... up to MAX_NODES, so the
# results show how the numbers scale. Extra arguments go to every sbatch
# (account, QoS, tasks per node, --wait, ...).
#   machines/slurm/submit.sh MAX_NODES [sbatch options...]
#   SYSTEM=perlmutter machines/slurm/submit.sh 16 -A m1234 -q regular
# SYSTEM names the machines/ folder whose job.sh is submitted (default slurm).
set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
system=${SYSTEM:-slurm}
job="machines/$system/job.sh"
usage() { echo "submit.sh: $1 (usage: submit.sh MAX_NODES [sbatch options...])" >&2; exit 2; }
[ $# -ge 1 ] || usage "give the largest node count"
case "$1" in '' | *[!0-9]*) usage "MAX_NODES '$1' is not a positive whole number" ;; esac
max=$((10#$1))
[ "$max" -ge 1 ] || usage "MAX_NODES must be at least 1"
shift
[ -f "$top/$job" ] || usage "no $job (SYSTEM=$system)"

cd "$top" || exit 1
failed=0
for ((nodes = 1; nodes <= max; nodes *= 2)); do
    if sbatch -N "$nodes" "$@" "$job"; then
        :
    else
        echo "submit.sh: sbatch for $nodes node(s) failed with status $?" >&2
        failed=1
    fi
done
exit "$failed"
