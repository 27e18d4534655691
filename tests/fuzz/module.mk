# The mutator of the CPM model-file fuzz test (tests/integration/cpm_fuzz.sh):
# it writes its seed files with libcpm's writers, so it links libcpm.
CPM_MUTATE := $(BUILD)/tests/fuzz/cpm_mutate
TEST_HELPERS += $(CPM_MUTATE)
OBJS += $(CPM_MUTATE).o
$(CPM_MUTATE).o: ALL_CFLAGS += -Icpm/lib
$(CPM_MUTATE): $(CPM_MUTATE).o $(BUILD)/cpm/libcpm.a $(LIBCOMMON)
	$(MPICC) $(LDFLAGS) -o $@ $< $(BUILD)/cpm/libcpm.a $(LIBCOMMON) $(LDLIBS)
