# One-sided (MPI RMA) programs and their shared driver.
OSU_PROGRAMS += osu_put_latency osu_get_latency osu_acc_latency \
                osu_put_bw osu_get_bw osu_put_bibw \
                osu_passive_put_latency osu_passive_get_latency osu_passive_acc_latency \
                osu_passive_put_bw osu_passive_get_bw \
                osu_get_acc_latency osu_fop_latency osu_cas_latency
OSU_HELPERS  += osu/rma_driver.c osu/rma_data.c osu/rma_mode.c osu/rma_op.c \
                osu/rma_sync.c osu/rma_value.c osu/rma_window.c
