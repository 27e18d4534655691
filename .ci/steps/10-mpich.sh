# MPICH: build into build-mpich, then the unit tests and the alltoall, always
# and OSU integration tests under mpiexec.mpich.
make check-mpich
