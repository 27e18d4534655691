$(call family,alltoall,all)

# The bare loop alltoall/all is compared with (tests/bench/alltoall_overhead.sh).
ALLTOALL_BENCH := $(BUILD)/tests/bench/bench_alltoall_long
all: $(ALLTOALL_BENCH)
OBJS += $(ALLTOALL_BENCH).o
$(ALLTOALL_BENCH): $(ALLTOALL_BENCH).o
	$(MPICC) $(LDFLAGS) -o $@ $<
