# Point-to-point programs, their shared driver, and the bare ping-pong used
# to measure what the driver costs (tests/bench/p2p_overhead.sh).
OSU_PROGRAMS += osu_latency osu_latency_mt osu_latency_mp osu_bw osu_bibw osu_mbw_mr \
  osu_multi_lat osu_latency_persistent osu_bw_persistent osu_bibw_persistent \
  osu_bw_fan_in osu_bw_fan_out
OSU_HELPERS  += osu/pt2pt.c osu/pt2pt_patterns.c osu/pt2pt_arith.c osu/pt2pt_fan.c \
  osu/fan_nodes.c
OSU_LINK     += -pthread
# SMPI runs each rank as a thread-less actor: no MPI_THREAD_MULTIPLE, no fork.
SMPI_LEFT_OUT += osu/osu_latency_mt osu/osu_latency_mp

OSU_P2P_BENCH := $(BUILD)/tests/bench/bench_pingpong
TEST_HELPERS += $(OSU_P2P_BENCH)
OBJS += $(OSU_P2P_BENCH).o
$(OSU_P2P_BENCH): $(OSU_P2P_BENCH).o
	$(MPICC) $(LDFLAGS) -o $@ $<
