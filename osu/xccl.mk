# NCCL and RCCL programs (OMB 7.4's xccl set): the collectives' and the
# point-to-point drivers with the library's calls on device buffers
# (osu/xccl.c loads it at run time, so no NCCL or RCCL headers are needed).
# Built only where OMB builds them, with a GPU vendor: NCCL in CUDA=1
# builds, RCCL in HIP=1 builds; not in the plain, OPENACC=1 or SMPI=1 ones.
ifneq ($(filter 1,$(CUDA) $(HIP)),)
  OSU_PROGRAMS += osu_xccl_latency osu_xccl_bw osu_xccl_bibw osu_xccl_allreduce \
    osu_xccl_allgather osu_xccl_alltoall osu_xccl_bcast osu_xccl_reduce osu_xccl_reduce_scatter
  OSU_HELPERS  += osu/xccl.c
  OSU_LINK     += -ldl
endif
