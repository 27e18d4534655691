#!/bin/bash
#SBATCH --job-name=commsweep
#SBATCH --time=01:00:00
#SBATCH --output=commsweep-%j.log
# The commsweep sweep on a Slurm cluster (Open MPI or MPICH, host buffers):
# alltoall/all contiguous then strided, always/all and iall contiguous then
# strided, the OSU point-to-point and collective programs; one file per
# program, RESULTS/NAME.JOBID.N<nodes>.dat, then PNG plots if gnuplot is there.
# Submit from the top folder of commsweep (or set COMMSWEEP_TOP):
#   sbatch -N 2 --ntasks-per-node=64 machines/slurm/job.sh
# Settings come from env and the environment (see ../sweep.sh); BUILD
# defaults to build/, RESULTS to results/.
set -u
top=${COMMSWEEP_TOP:-${SLURM_SUBMIT_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}}
if [ ! -f "$top/machines/sweep.sh" ]; then
    echo "commsweep: $top is not the commsweep folder: submit from there or set COMMSWEEP_TOP" >&2
    exit 2
fi
# shellcheck source=env
. "$top/machines/slurm/env"
# shellcheck source=../sweep.sh
. "$top/machines/sweep.sh"
sweep_slurm_job "$top"
