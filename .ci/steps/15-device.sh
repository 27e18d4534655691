# The device builds: CUDA and HIP programs refuse device buffers cleanly
# without a GPU; OpenACC buffers run on the runtime's host device, validated,
# refused for an MPI said not to read them, and staged (tests/device).
make check-device
