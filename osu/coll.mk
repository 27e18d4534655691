# Collective benchmarks: one file per program, one shared driver (osu/coll_*.c).
COLL_BLOCKING := osu_allgather osu_allgatherv osu_allreduce osu_alltoall osu_alltoallv \
  osu_alltoallw osu_barrier osu_bcast osu_gather osu_gatherv osu_reduce osu_reduce_scatter osu_reduce_scatter_block osu_scatter \
  osu_scatterv
COLL_NONBLOCKING := osu_iallgather osu_iallgatherv osu_iallreduce osu_ialltoall \
  osu_ialltoallv osu_ialltoallw osu_ibarrier osu_ibcast osu_igather osu_igatherv osu_ireduce \
  osu_ireduce_scatter osu_ireduce_scatter_block osu_iscatter osu_iscatterv
# Neighborhood collectives: the same driver on -N's topology (coll_neighbor.c).
COLL_NEIGHBOR := osu_neighbor_allgather osu_neighbor_allgatherv osu_neighbor_alltoall \
  osu_neighbor_alltoallv osu_neighbor_alltoallw osu_ineighbor_allgather \
  osu_ineighbor_allgatherv osu_ineighbor_alltoall osu_ineighbor_alltoallv \
  osu_ineighbor_alltoallw
COLL_PERSISTENT := osu_allgather_persistent osu_allgatherv_persistent osu_allreduce_persistent \
  osu_alltoall_persistent osu_alltoallv_persistent osu_alltoallw_persistent \
  osu_barrier_persistent osu_bcast_persistent osu_gather_persistent osu_gatherv_persistent \
  osu_reduce_persistent osu_reduce_scatter_persistent osu_scatter_persistent \
  osu_scatterv_persistent
OSU_PROGRAMS += $(COLL_BLOCKING) $(COLL_NONBLOCKING) $(COLL_NEIGHBOR)
# SMPI 3.32 has no MPI_Dist_graph_create_adjacent, the neighbourhood's start.
SMPI_LEFT_OUT += $(addprefix osu/,$(COLL_NEIGHBOR))
# The persistent ones need MPI-4's MPI_<coll>_init or Open MPI's MPIX_ form:
# common/pcoll.h decides, asked through the preprocessor; without either
# they are left out.
COLL_PCOLL := $(shell echo PCOLL_AVAILABLE | $(MPICC) -E -Icommon -include pcoll.h -x c - 2>/dev/null | tail -n 1)
ifeq ($(COLL_PCOLL),1)
  OSU_PROGRAMS += $(COLL_PERSISTENT)
endif
OSU_HELPERS  += osu/coll_driver.c osu/coll_data.c osu/coll_expect.c osu/coll_compute.c osu/coll_busbw.c \
  osu/coll_neighbor.c osu/nbr_topo.c osu/coll_groups.c osu/group_rows.c

# The bare MPI_Alltoall loop that tests/bench/coll_overhead.sh compares
# osu_alltoall against: plain MPI, no harness.
.PHONY: coll-bench
coll-bench: $(BUILD)/tests/bench/bench_alltoall_bare $(BUILD)/osu/osu_alltoall
$(BUILD)/tests/bench/bench_alltoall_bare: tests/bench/bench_alltoall_bare.c
	@mkdir -p $(@D)
	$(MPICC) -std=c11 $(WARN) $(CFLAGS) -o $@ $<

# The preloaded library that tests/bench/coll_timing.sh uses to make one
# rank leave every barrier late by a known time (PMPI, so plain MPI).
.PHONY: coll-timing-bench
coll-timing-bench: $(BUILD)/tests/bench/barrier_skew.so $(BUILD)/osu/osu_allreduce \
  $(BUILD)/osu/osu_bcast $(BUILD)/osu/osu_barrier
$(BUILD)/tests/bench/barrier_skew.so: tests/bench/barrier_skew.c $(BUILD)/.config
	@mkdir -p $(@D)
	$(MPICC) -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) -shared -fPIC -o $@ $<
