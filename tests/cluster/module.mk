# The emulated multi-host cluster (tests/cluster/README.md): `make check-cluster`
# builds the suite and the two helpers below, then runs tests/cluster/run.sh
# (4 hosts) and tests/cluster/netmap.sh (the network map on 8), as root;
# each skips when network namespaces cannot be created.
CLUSTER_HELPERS := $(BUILD)/tests/cluster/hostcheck $(BUILD)/tests/cluster/wait_sleep.so

$(BUILD)/tests/cluster/hostcheck: tests/cluster/hostcheck.c $(BUILD)/.config
	@mkdir -p $(@D)
	$(MPICC) -std=c11 $(WARN) $(CFLAGS) $(LDFLAGS) -o $@ $<

# Plain C: a preloaded library must not drag an MPI library in with it.
$(BUILD)/tests/cluster/wait_sleep.so: tests/cluster/wait_sleep.c $(BUILD)/.config
	@mkdir -p $(@D)
	$(CC) -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) -shared -fPIC -o $@ $<

.PHONY: check-cluster
check-cluster: $(BINS) $(CLUSTER_HELPERS)
	MPICC="$(MPICC)" BUILD="$(BUILD)" tests/cluster/run.sh; rc=$$?; \
	MPICC="$(MPICC)" BUILD="$(BUILD)" tests/cluster/netmap.sh && exit $$rc
