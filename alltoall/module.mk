$(call family,alltoall,all aller,$(wildcard alltoall/aller_*.c))

# The bare loop alltoall/all is compared with (tests/bench/alltoall_overhead.sh),
# linked with all's own object file so that both run in the same processes.
ALLTOALL_BENCH := $(BUILD)/tests/bench/all_with_bare
TEST_HELPERS += $(ALLTOALL_BENCH)
OBJS += $(BUILD)/tests/bench/bare_in_run.o
$(ALLTOALL_BENCH): $(BUILD)/alltoall/all.o $(BUILD)/tests/bench/bare_in_run.o $(LIBCOMMON)
	$(MPICC) $(LDFLAGS) -o $@ $(filter %.o,$^) $(LIBCOMMON) $(LDLIBS)
