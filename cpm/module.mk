# CPM: communication performance models. libcpm (static and shared) is
# cpm/cpm_*.c; the tools link the same objects plus the option layer cli.c.
CPM_LIB_SRCS := $(sort $(wildcard cpm/cpm_*.c))
CPM_LIB_OBJS := $(CPM_LIB_SRCS:%.c=$(BUILD)/%.o)
$(call family,cpm,model prediction p2p collective,$(CPM_LIB_SRCS) cpm/cli.c)

# Everything in cpm/ is position independent so one set of objects serves
# the programs, libcpm.a and libcpm.so.
$(BUILD)/cpm/%.o: ALL_CFLAGS += -fPIC

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

all: $(BUILD)/cpm/libcpm.a $(BUILD)/cpm/libcpm.so
INSTALL_LIBS += $(BUILD)/cpm/libcpm.a $(BUILD)/cpm/libcpm.so
INSTALL_HEADERS += $(wildcard cpm/cpm_*.h)
