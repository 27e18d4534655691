# clock_check: the clock model against the true clocks of one host, for the
# skew-hook test (tests/integration/timing_window.sh). Not installed.
CLOCK_CHECK := $(BUILD)/tests/clock/clock_check
$(CLOCK_CHECK): $(BUILD)/tests/clock/clock_check.o $(LIBCOMMON)
	$(MPICC) $(LDFLAGS) -o $@ $(filter %.o,$^) $(LIBCOMMON) $(LDLIBS)
OBJS += $(BUILD)/tests/clock/clock_check.o
TEST_HELPERS += $(CLOCK_CHECK)
