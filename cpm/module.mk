# CPM: communication performance models, in three layers: the measurement
# and model library libcpm (static and shared) is cpm/lib/; the model-based
# collectives library libcpm_coll on top of it is cpm/coll/; the tools are
# cpm/*.c and link the same objects plus the option layer cli.c.
CPM_LIB_SRCS := $(sort $(wildcard cpm/lib/cpm_*.c))
CPM_LIB_OBJS := $(CPM_LIB_SRCS:%.c=$(BUILD)/%.o)
CPM_COLL_SRCS := $(sort $(wildcard cpm/coll/*.c))
CPM_COLL_OBJS := $(CPM_COLL_SRCS:%.c=$(BUILD)/%.o)
$(call family,cpm,model prediction p2p collective coll_test generate_hierarchy_input_file \
  hierarchical_model ranks2hosts matmul,$(CPM_LIB_SRCS) $(CPM_COLL_SRCS) cpm/cli.c cpm/hier_cli.c cpm/hier_spawn.c \
  cpm/matmul_part.c cpm/matmul_sets.c cpm/reduce_data.c,-ldl)

# hierarchical_model asks MPI_Comm_get_parent first (is it a spawned
# helper?), which SMPI 3.32 lacks, as it lacks MPI_Comm_spawn.
SMPI_LEFT_OUT += cpm/hierarchical_model
# prediction reads a model and runs no MPI: smpicc would make it a program
# only smpirun can start, and SMPI would call its end a stall.
SMPI_LEFT_OUT += cpm/prediction

# Everything in cpm/ is position independent so one set of objects serves
# the programs, the static and the shared libraries.
$(BUILD)/cpm/%.o: ALL_CFLAGS += -fPIC -Icpm/lib -Icpm/coll

# libcpm.so carries position-independent copies of the harness objects it
# calls, so it needs nothing but MPI, GSL and hwloc at run time.
CPM_PIC_COMMON := $(COMMON_SRCS:%.c=$(BUILD)/cpm/pic/%.o)
$(BUILD)/cpm/pic/%.o: %.c
	@mkdir -p $(@D)
	$(MPICC) $(ALL_CFLAGS) -c -o $@ $<
OBJS += $(CPM_PIC_COMMON)

$(BUILD)/cpm/libcpm.a: $(CPM_LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/cpm/libcpm.so: $(CPM_LIB_OBJS) $(CPM_PIC_COMMON)
	@mkdir -p $(@D)
	$(MPICC) -shared $(LDFLAGS) -o $@ $^ $(LDLIBS)

# libcpm_coll.so needs libcpm.so, found beside it ($ORIGIN) or installed.
$(BUILD)/cpm/libcpm_coll.a: $(CPM_COLL_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/cpm/libcpm_coll.so: $(CPM_COLL_OBJS) $(BUILD)/cpm/libcpm.so
	@mkdir -p $(@D)
	$(MPICC) -shared $(LDFLAGS) -o $@ $(CPM_COLL_OBJS) -L$(BUILD)/cpm -lcpm \
	  -Wl,-rpath,'$$ORIGIN' $(LDLIBS)

all: $(BUILD)/cpm/libcpm.a $(BUILD)/cpm/libcpm.so $(BUILD)/cpm/libcpm_coll.a \
  $(BUILD)/cpm/libcpm_coll.so
INSTALL_LIBS += $(BUILD)/cpm/libcpm.a $(BUILD)/cpm/libcpm.so $(BUILD)/cpm/libcpm_coll.a \
  $(BUILD)/cpm/libcpm_coll.so
INSTALL_HEADERS += $(wildcard cpm/lib/cpm_*.h cpm/coll/*.h)
$(BUILD)/tests/unit/test_cpm_%.o: ALL_CFLAGS += -Icpm/lib -Icpm/coll
