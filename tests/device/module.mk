# make check-device: the device builds (CUDA=1, HIP=1, OPENACC=1 where their
# headers exist, into build-cuda, build-hip, build-openacc) and their runs:
# device requests refused cleanly without a GPU, OpenACC buffers on the
# runtime's host device validated, staged and not.
.PHONY: check-device
check-device:
	tests/device/check.sh
