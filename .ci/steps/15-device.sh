# The device builds: CUDA and HIP programs refuse device buffers cleanly
# without a GPU and touch no GPU runtime on host buffers; the CUDA programs'
# device paths run on a fake CUDA runtime; OpenACC buffers run on the
# runtime's host device, validated, refused for an MPI said not to read
# them (by one rank only too), and staged (tests/device).
make check-device
