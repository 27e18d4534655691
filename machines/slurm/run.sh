#!/bin/bash
# The body of every Slurm system's job.sh (sbatch copies a job script away,
# so job.sh hands over to this file, which stays in the source tree): loads
# machines/SYSTEM/env and runs the sweep of ../sweep.sh with srun.
#   machines/slurm/run.sh SYSTEM        (inside an allocation)
set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
system=${1:-slurm}
if [ ! -f "$top/machines/$system/env" ]; then
    echo "commsweep: no machines/$system/env" >&2
    exit 2
fi
# shellcheck source=env
. "$top/machines/$system/env"
# shellcheck source=../sweep.sh
. "$top/machines/sweep.sh"
SYSTEM=$system sweep_slurm_job "$top"
