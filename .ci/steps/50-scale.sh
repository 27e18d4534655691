# The suite at scale: the SMPI build and every program of it under
# SimGrid's smpirun on simulated clusters of 64 to 1,024 nodes, with placed
# faults that netmap must name (tests/scale).
set -eu
make check-scale
