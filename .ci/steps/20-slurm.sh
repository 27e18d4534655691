# A real single-node Slurm (munged, slurmctld, slurmd started by the test):
# machines/slurm/job.sh through sbatch --wait, with Open MPI and with MPICH.
make check-slurm MPICH_BUILD=build-mpich
