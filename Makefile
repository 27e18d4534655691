# commsweep: one entry point. Everything is built out of tree into $(BUILD).
#   make [-j2] [MPICC=mpicc] [CFLAGS=...] [CUDA=1 CUDA_HOME=/usr/local/cuda | HIP=1
#        HIP_HOME=/usr | OPENACC=1]
#   make SMPI=1 (SimGrid's smpicc, into build-smpi) | make check-scale
#   make check | make install PREFIX=... | make clean
# Each family folder has a module.mk that declares its programs with
# $(call family,...); this file owns the rules.

# SMPI=1: the programs SimGrid's SMPI can run, built with smpicc for
# smpirun's simulated platforms (tests/scale/); the programs that need what
# SMPI lacks are named in SMPI_LEFT_OUT by their family's module.mk.
SMPI      ?= 0
ifeq ($(SMPI),1)
  ifneq ($(origin MPICC),command line)
    MPICC := smpicc
  endif
  BUILD   ?= build-smpi
endif
MPICC     ?= mpicc
CFLAGS    ?= -O2 -g
BUILD     ?= build
PREFIX    ?= /usr/local
CUDA      ?= 0
CUDA_HOME ?= /usr/local/cuda
HIP       ?= 0
HIP_HOME  ?= /usr
OPENACC   ?= 0
MPIEXEC   ?=
MPIEXEC_FLAGS ?=

WARN      := -Wall -Wextra -Werror
# MPICH (and Cray MPICH) define MPI_STATUSES_IGNORE as (MPI_Status *)1, which
# gcc 11 and later take for a too-small array passed to MPI_Waitall: a false
# -Wstringop-overflow. Only for those libraries is that one warning turned off,
# and only by a compiler that knows it (clang rejects unknown -W options).
ifneq ($(shell echo MPICH_VERSION | $(MPICC) -E -include mpi.h -x c - 2>/dev/null | tail -n 1),MPICH_VERSION)
  WARN    += $(shell $(MPICC) -Werror -Wno-stringop-overflow -E -x c /dev/null >/dev/null 2>&1 && echo -Wno-stringop-overflow)
endif
ALL_CFLAGS := -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) -MMD -MP -Icommon
LDLIBS    := -lhwloc -lgsl -lgslcblas -lm

# One device vendor per build: common/devmem_<vendor>.c behind common/devmem.h.
# devmem_fake.c is never in libcommon; the device-layer unit test links it.
ifneq ($(word 2,$(filter 1,$(CUDA) $(HIP) $(OPENACC))),)
  $(error choose one of CUDA=1, HIP=1, OPENACC=1)
endif
ifeq ($(SMPI),1)
  ifneq ($(filter 1,$(CUDA) $(HIP) $(OPENACC)),)
    $(error SMPI=1 simulates host buffers only: no CUDA=1, HIP=1 or OPENACC=1 with it)
  endif
  # Every source counts its heap per simulated rank (common/heapcount.h).
  ALL_CFLAGS += -DCOMMSWEEP_SMPI=1 -include common/heapcount.h
endif
ifeq ($(CUDA),1)
  DEVMEM_SRC := common/devmem_cuda.c
  ALL_CFLAGS += -I$(CUDA_HOME)/include
  LDLIBS     += -L$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib64 -lcudart
else ifeq ($(HIP),1)
  DEVMEM_SRC := common/devmem_hip.c
  ALL_CFLAGS += -D__HIP_PLATFORM_AMD__
  # Debian's headers and library are in the system paths; ROCm's are not.
  ifneq ($(HIP_HOME),/usr)
    ALL_CFLAGS += -I$(HIP_HOME)/include
    LDLIBS     += -L$(HIP_HOME)/lib -Wl,-rpath,$(HIP_HOME)/lib
  endif
  LDLIBS     += -lamdhip64
else ifeq ($(OPENACC),1)
  DEVMEM_SRC := common/devmem_openacc.c
  ALL_CFLAGS += -fopenacc
  LDLIBS     += -fopenacc
  # The device-to-device copies are compute regions, whose NVIDIA code is
  # built at link time for OPENACC_NVPTX_ISA: gcc 12's default, sm_35, is
  # below what CUDA 12 and 13's ptxas accept (gcc's nvptx assembler runs
  # it when it is on PATH). Only where gcc offloads to NVIDIA at all.
  OPENACC_NVPTX_ISA ?= sm_75
  ifneq ($(shell $(MPICC) -v 2>&1 | grep -o 'offload-targets=[^ ]*nvptx'),)
    LDLIBS   += -foffload-options=nvptx-none=-misa=$(OPENACC_NVPTX_ISA)
  endif
else
  DEVMEM_SRC := common/devmem_none.c
endif

COMMON_SRCS := $(filter-out common/devmem_%.c,$(wildcard common/*.c)) $(DEVMEM_SRC)
DEVMEM_FAKE := $(BUILD)/common/devmem_fake.o
COMMON_OBJS := $(COMMON_SRCS:%.c=$(BUILD)/%.o)
LIBCOMMON   := $(BUILD)/common/libcommon.a

BINS :=
OBJS := $(COMMON_OBJS)
INSTALL_HEADERS := $(wildcard common/*.h)
INSTALL_LIBS := $(LIBCOMMON)
INSTALL_SCRIPTS :=   # FAMILY/SCRIPT, installed beside that family's programs
UNIT_TESTS :=
# Programs (FAMILY/NAME) that an SMPI build leaves out, each family's own.
SMPI_LEFT_OUT :=
# What tests and benches run beside the programs: built by a plain make,
# not by SMPI=1, which builds only what smpirun can run.
TEST_HELPERS :=

.PHONY: all unit-tests check check-unit check-integration install clean
all:

# $(call family,DIR,PROGRAMS,HELPER_SOURCES,EXTRA_LINK)
# Programs DIR/P are built from DIR/P.c + helper sources + libcommon.
# Unit tests tests/unit/test_DIR_*.c link the family's helpers too.
define family_rules
$(1)_BINS := $$(addprefix $$(BUILD)/$(1)/,$(2))
$(1)_HELPER_OBJS := $$(patsubst %.c,$$(BUILD)/%.o,$(3))
$(1)_LINK := $(4)
BINS += $$($(1)_BINS)
OBJS += $$(addsuffix .o,$$($(1)_BINS)) $$($(1)_HELPER_OBJS)
$$($(1)_BINS): $$(BUILD)/$(1)/%: $$(BUILD)/$(1)/%.o $$($(1)_HELPER_OBJS) $$(LIBCOMMON)
	$$(MPICC) $$(LDFLAGS) -o $$@ $$(filter %.o,$$^) $$($(1)_LINK) $$(LIBCOMMON) $$(LDLIBS)
$(1)_UNIT := $$(patsubst tests/unit/%.c,$$(BUILD)/tests/unit/%,$$(wildcard tests/unit/test_$(1)_*.c))
UNIT_TESTS += $$($(1)_UNIT)
$$($(1)_UNIT): $$(BUILD)/tests/unit/%: $$(BUILD)/tests/unit/%.o $$($(1)_HELPER_OBJS) $$(LIBCOMMON)
	$$(MPICC) $$(LDFLAGS) -o $$@ $$(filter %.o,$$^) $$($(1)_LINK) $$(LIBCOMMON) $$(LDLIBS) -lcmocka
endef
family = $(eval $(call family_rules,$(1),$(2),$(3),$(4)))

include $(sort $(wildcard */module.mk tests/*/module.mk))

# Unit tests of common/ (every test_*.c that no family claimed).
COMMON_UNIT := $(filter-out $(UNIT_TESTS),$(patsubst tests/unit/%.c,$(BUILD)/tests/unit/%,$(wildcard tests/unit/test_*.c)))
UNIT_TESTS += $(COMMON_UNIT)
$(COMMON_UNIT): $(BUILD)/tests/unit/%: $(BUILD)/tests/unit/%.o $(LIBCOMMON)
	$(MPICC) $(LDFLAGS) -o $@ $(filter %.o,$^) $(LIBCOMMON) $(LDLIBS) -lcmocka
# The device-layer test runs on the fake vendor, linked before libcommon's.
$(BUILD)/tests/unit/test_devmem: $(DEVMEM_FAKE)
OBJS += $(UNIT_TESTS:=.o) $(DEVMEM_FAKE)

ifeq ($(SMPI),1)
  BINS := $(filter-out $(addprefix $(BUILD)/,$(SMPI_LEFT_OUT)),$(BINS))
else
  all: $(TEST_HELPERS)
endif

# A plain make builds every program and needs no cmocka: only the unit
# tests (make check, make unit-tests) link it.
all: $(BINS)
unit-tests: $(UNIT_TESTS)

$(LIBCOMMON): $(COMMON_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(MPICC) $(ALL_CFLAGS) -c -o $@ $<

# A device build must not reuse objects compiled without it, and back.
# CFLAGS last: it may hold spaces, and tests read the rest as words.
CONFIG := SMPI=$(SMPI) CUDA=$(CUDA) HIP=$(HIP) OPENACC=$(OPENACC) OPENACC_NVPTX_ISA=$(OPENACC_NVPTX_ISA) \
          MPICC=$(MPICC) CFLAGS=$(CFLAGS)
$(BUILD)/.config: FORCE
	@mkdir -p $(@D)
	@echo "$(CONFIG)" | cmp -s - $@ || echo "$(CONFIG)" > $@
$(OBJS): $(BUILD)/.config
# The forced header is in no dependency file (-MMD leaves it out).
ifeq ($(SMPI),1)
$(OBJS): common/heapcount.h
endif
.PHONY: FORCE
FORCE:

# Before the first object: MPI, hwloc and GSL are there, or the one missing
# is named with how to get it; cmocka likewise, for the unit tests only.
PROBE_ENV = MPICC="$(MPICC)" CFLAGS="$(filter-out -MMD -MP,$(ALL_CFLAGS))" LDFLAGS="$(LDFLAGS)"
$(BUILD)/.deps: $(BUILD)/.config machines/check-deps.sh
	@$(PROBE_ENV) machines/check-deps.sh mpi hwloc gsl
	@touch $@
$(BUILD)/.deps-cmocka: $(BUILD)/.config machines/check-deps.sh
	@$(PROBE_ENV) machines/check-deps.sh cmocka
	@touch $@
$(filter-out $(UNIT_TESTS:=.o),$(OBJS)): | $(BUILD)/.deps
$(UNIT_TESTS:=.o): | $(BUILD)/.deps $(BUILD)/.deps-cmocka

check: all unit-tests
	MPICC="$(MPICC)" MPIEXEC="$(MPIEXEC)" MPIEXEC_FLAGS="$(MPIEXEC_FLAGS)" BUILD="$(BUILD)" \
	  TESTS="$(TESTS)" tests/run.sh $(UNIT_TESTS)

check-unit: $(UNIT_TESTS)
	BUILD="$(BUILD)" TESTS=none tests/run.sh $(UNIT_TESTS)

install: all
	@for b in $(BINS); do \
	  rel=$${b#$(BUILD)/}; fam=$${rel%%/*}; \
	  install -d "$(DESTDIR)$(PREFIX)/libexec/commsweep/$$fam" && \
	  install -m 755 "$$b" "$(DESTDIR)$(PREFIX)/libexec/commsweep/$$fam/" || exit 1; \
	done
	@for s in $(INSTALL_SCRIPTS); do \
	  fam=$${s%%/*}; install -d "$(DESTDIR)$(PREFIX)/libexec/commsweep/$$fam" && \
	  install -m 755 "$$s" "$(DESTDIR)$(PREFIX)/libexec/commsweep/$$fam/" || exit 1; \
	done
	install -d "$(DESTDIR)$(PREFIX)/lib" "$(DESTDIR)$(PREFIX)/include/commsweep"
	install -m 644 $(INSTALL_LIBS) "$(DESTDIR)$(PREFIX)/lib/"
	install -m 644 $(INSTALL_HEADERS) "$(DESTDIR)$(PREFIX)/include/commsweep/"

clean:
	rm -rf $(BUILD)

-include $(OBJS:.o=.d)
