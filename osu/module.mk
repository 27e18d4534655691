# OSU-style micro-benchmarks. One folder is one family, so each group of
# programs declares itself in its own file by appending to these lists, and
# the single $(call family,...) at the end builds them all.
OSU_PROGRAMS :=
OSU_HELPERS  := osu/osu.c osu/osu_compat.c osu/osu_defaults.c osu/osu_ddt.c osu/osu_pairs.c \
                osu/osu_fields.c
OSU_LINK     :=

# point-to-point
-include osu/pt2pt.mk

# collectives
-include osu/coll.mk

# one-sided
-include osu/rma.mk

# start-up
-include osu/startup.mk

# NCCL and RCCL (CUDA=1 and HIP=1 builds only)
-include osu/xccl.mk

INSTALL_SCRIPTS += osu/get_local_rank

$(call family,osu,$(OSU_PROGRAMS),$(OSU_HELPERS),$(OSU_LINK))
