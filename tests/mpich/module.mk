# make check-mpich: the suite built with MPICH (mpicc.mpich, into
# MPICH_BUILD, default build-mpich) and its alltoall, always and OSU tests
# under mpiexec.mpich.
.PHONY: check-mpich
check-mpich:
	MPICH_BUILD="$(or $(MPICH_BUILD),build-mpich)" tests/mpich/check.sh
