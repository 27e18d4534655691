# make check-device: the device builds (CUDA=1, HIP=1, OPENACC=1 where their
# headers exist, into build-cuda, build-hip, build-openacc) and their runs:
# device requests refused cleanly without a GPU, no GPU runtime call on host
# buffers, the CUDA device paths on a fake CUDA runtime
# (tests/device/fake_cudart.c), OpenACC buffers on the runtime's host device
# validated, staged and not.
.PHONY: check-device
check-device:
	tests/device/check.sh

# The bare device-to-device copy loop that device bandwidths are compared
# with (tests/device/validate.sh); built in every build, refuses without a device.
DEVCOPY_BW := $(BUILD)/tests/bench/devcopy_bw
TEST_HELPERS += $(DEVCOPY_BW)
OBJS += $(DEVCOPY_BW).o
$(DEVCOPY_BW): $(DEVCOPY_BW).o $(LIBCOMMON)
	$(MPICC) $(LDFLAGS) -o $@ $< $(LIBCOMMON) $(LDLIBS)
