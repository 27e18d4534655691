# Collective benchmarks: one file per program, one shared driver (osu/coll_*.c).
COLL_BLOCKING := osu_allgather osu_allgatherv osu_allreduce osu_alltoall osu_alltoallv \
  osu_alltoallw osu_barrier osu_bcast osu_gather osu_gatherv osu_reduce osu_reduce_scatter osu_reduce_scatter_block osu_scatter \
  osu_scatterv
COLL_NONBLOCKING := osu_iallgather osu_iallgatherv osu_iallreduce osu_ialltoall \
  osu_ialltoallv osu_ialltoallw osu_ibarrier osu_ibcast osu_igather osu_igatherv osu_ireduce \
  osu_ireduce_scatter osu_ireduce_scatter_block osu_iscatter osu_iscatterv
OSU_PROGRAMS += $(COLL_BLOCKING) $(COLL_NONBLOCKING)
OSU_HELPERS  += osu/coll_driver.c osu/coll_data.c osu/coll_expect.c osu/coll_compute.c

# The bare MPI_Alltoall loop that tests/bench/coll_overhead.sh compares
# osu_alltoall against: plain MPI, no harness.
.PHONY: coll-bench
coll-bench: $(BUILD)/tests/bench/bench_alltoall_bare $(BUILD)/osu/osu_alltoall
$(BUILD)/tests/bench/bench_alltoall_bare: tests/bench/bench_alltoall_bare.c
	@mkdir -p $(@D)
	$(MPICC) -std=c11 $(WARN) $(CFLAGS) -o $@ $<
