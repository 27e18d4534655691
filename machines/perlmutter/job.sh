#!/bin/bash
#SBATCH --job-name=commsweep
#SBATCH --constraint=gpu
#SBATCH --qos=regular
#SBATCH --time=00:30:00
#SBATCH --ntasks-per-node=4
#SBATCH --gpus-per-node=4
#SBATCH --output=commsweep-%j.log
# The commsweep sweep on Perlmutter GPU nodes, device buffers, one rank per
# A100 (srun -c32 --gpus-per-task=1 --gpu-bind=closest). Give your account:
#   sbatch -A m1234 -N 2 machines/perlmutter/job.sh
#   SYSTEM=perlmutter machines/slurm/submit.sh 16 -A m1234
# from the top folder of commsweep (or set COMMSWEEP_TOP). Settings: env here
# and ../sweep.sh.
top=${COMMSWEEP_TOP:-${SLURM_SUBMIT_DIR:-.}}
[ -x "$top/machines/slurm/run.sh" ] ||
    { echo "commsweep: submit from the commsweep folder or set COMMSWEEP_TOP" >&2; exit 2; }
exec "$top/machines/slurm/run.sh" perlmutter
