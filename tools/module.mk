# tools: programs that read what the others wrote, measure nothing and run
# without MPI. compare sets two runs side by side; it names text columns as
# the JSON Lines do, through the OSU family's table of headings.
# compare runs no MPI: smpicc would make it a library only smpirun can start.
SMPI_LEFT_OUT += tools/compare
$(call family,tools,compare,$(wildcard tools/cmp_*.c) osu/osu_fields.c)
$(BUILD)/tools/%.o: ALL_CFLAGS += -Iosu
$(BUILD)/tests/unit/test_tools_%.o: ALL_CFLAGS += -Itools -Iosu
# report: the page of a results folder (Python, standard library only),
# installed beside compare.
INSTALL_SCRIPTS += tools/report
