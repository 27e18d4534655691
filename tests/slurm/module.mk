# make check-slurm: the sweep job under a real single-node Slurm (needs root
# and the slurm-wlm and munge packages; skips otherwise). MPICH_BUILD=DIR adds
# a job of a build made with MPICC=mpicc.mpich.
.PHONY: check-slurm
check-slurm: all
	BUILD="$(BUILD)" MPICH_BUILD="$(MPICH_BUILD)" tests/slurm/check.sh
