# The CPM diagnostic tools of tests/bench/cpm_lmo_diag.sh, on libcpm's API:
# cpm_curve, cpm_passes and cpm_lmo_dump measure (MPI), cpm_lmo_replay
# reads what cpm_lmo_dump wrote. Built with the suite, not installed.
CPM_DIAG_TOOLS := $(addprefix $(BUILD)/tests/bench/,cpm_curve cpm_passes cpm_lmo_dump cpm_lmo_replay)
CPM_DIAG_SHARED := $(BUILD)/tests/bench/cpm_diag.o
TEST_HELPERS += $(CPM_DIAG_TOOLS)
OBJS += $(CPM_DIAG_TOOLS:=.o) $(CPM_DIAG_SHARED) $(BUILD)/tests/bench/cpm_dump.o \
  $(BUILD)/tests/bench/cpm_replay.o
$(BUILD)/tests/bench/cpm_%.o: ALL_CFLAGS += -Icpm/lib
$(BUILD)/tests/bench/cpm_lmo_replay: $(BUILD)/tests/bench/cpm_dump.o $(BUILD)/tests/bench/cpm_replay.o
$(CPM_DIAG_TOOLS): %: %.o $(CPM_DIAG_SHARED) $(BUILD)/cpm/libcpm.a $(LIBCOMMON)
	$(MPICC) $(LDFLAGS) -o $@ $(filter %.o,$^) $(filter %.a,$^) $(LDLIBS)
.PHONY: cpm-diag-bench
cpm-diag-bench: $(CPM_DIAG_TOOLS)
