#!/bin/bash
#SBATCH --job-name=commsweep
#SBATCH --time=00:30:00
#SBATCH --ntasks-per-node=8
#SBATCH --output=commsweep-%j.log
# The commsweep sweep on Frontier, HIP device buffers (see env), one rank per GCD
# (srun -c7 --gpus-per-task=1 --gpu-bind=closest). Give your project:
#   sbatch -A abc123 -N 2 machines/frontier/job.sh
#   SYSTEM=frontier machines/slurm/submit.sh 64 -A abc123
# from the top folder of commsweep (or set COMMSWEEP_TOP). Settings: env here
# and ../sweep.sh.
top=${COMMSWEEP_TOP:-${SLURM_SUBMIT_DIR:-.}}
[ -x "$top/machines/slurm/run.sh" ] ||
    { echo "commsweep: submit from the commsweep folder or set COMMSWEEP_TOP" >&2; exit 2; }
exec "$top/machines/slurm/run.sh" frontier
