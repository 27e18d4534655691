# all and iall are one source (always.c) built twice; the switch is ALWAYS_NONBLOCKING.
$(call family,always,all iall)
$(BUILD)/always/all.o: always/always.c
	@mkdir -p $(@D)
	$(MPICC) $(ALL_CFLAGS) -DALWAYS_NONBLOCKING=0 -c -o $@ $<
$(BUILD)/always/iall.o: always/always.c
	@mkdir -p $(@D)
	$(MPICC) $(ALL_CFLAGS) -DALWAYS_NONBLOCKING=1 -c -o $@ $<
