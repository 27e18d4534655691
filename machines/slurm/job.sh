#!/bin/bash
#SBATCH --job-name=commsweep
#SBATCH --time=01:00:00
#SBATCH --output=commsweep-%j.log
# The commsweep sweep on a Slurm cluster (Open MPI or MPICH, host buffers):
# alltoall/all contiguous then strided, always/all and iall contiguous then
# strided, the OSU point-to-point, collective and one-sided programs, the
# network map (one rank per node; per rank on one node); one
# file per program, RESULTS/NAME.JOBID.N<nodes>.dat, then PNG plots where
# gnuplot is installed. Submit from the top folder of commsweep (or set
# COMMSWEEP_TOP), with the nodes and ranks you want:
#   sbatch -N 2 --ntasks-per-node=64 machines/slurm/job.sh
# Settings: machines/slurm/env and the environment (see ../sweep.sh).
top=${COMMSWEEP_TOP:-${SLURM_SUBMIT_DIR:-.}}
[ -x "$top/machines/slurm/run.sh" ] ||
    { echo "commsweep: submit from the commsweep folder or set COMMSWEEP_TOP" >&2; exit 2; }
exec "$top/machines/slurm/run.sh" slurm
