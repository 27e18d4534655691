# PMPI wrappers that integration tests preload into the programs to watch
# what they send. Plain MPI and the CPM headers; not installed.
CPM_WARMUP_PROBE := $(BUILD)/tests/pmpi/cpm_warmup_probe.so
TEST_HELPERS += $(CPM_WARMUP_PROBE)
$(CPM_WARMUP_PROBE): tests/pmpi/cpm_warmup_probe.c cpm/lib/cpm_measure.h $(BUILD)/.config
	@mkdir -p $(@D)
	$(MPICC) -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) $(LDFLAGS) -Icpm/lib -shared -fPIC -o $@ $<

# pending_send_probe: makes the pages of a pending MPI_Isend's buffer
# read-only and fails the process when they are written (tests/device).
PENDING_SEND_PROBE := $(BUILD)/tests/pmpi/pending_send_probe.so
TEST_HELPERS += $(PENDING_SEND_PROBE)
$(PENDING_SEND_PROBE): tests/pmpi/pending_send_probe.c $(BUILD)/.config
	@mkdir -p $(@D)
	$(MPICC) -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) $(LDFLAGS) -shared -fPIC -o $@ $<
