/*
 * pt2pt_fan: what osu_bw_fan_in and osu_bw_fan_out share on the
 * point-to-point driver: finding the nodes (fan_nodes, from the host names
 * or --ranks-per-node), each rank's role and partners, the option, the '#'
 * lines and the release of the partner list.
 *
 * Node 0 (rank 0's) is the one end: in fan-in its ranks receive, each from
 * the rank of its local index on every other node; in fan-out they send, each
 * to those ranks. Every message is the osu_bw window (pt2pt_window_one_way):
 * the senders' time is timed and averaged, and the bandwidth counts the bytes
 * of every pair (OMB 7.4's fan tests).
 */
#ifndef COMMSWEEP_OSU_PT2PT_FAN_H
#define COMMSWEEP_OSU_PT2PT_FAN_H

#include "pt2pt.h"

/* --ranks-per-node N */
extern const struct opt_spec pt2pt_fan_options[1];

void pt2pt_fan_in_setup(struct pt2pt_ctx *c);
void pt2pt_fan_out_setup(struct pt2pt_ctx *c);
void pt2pt_fan_describe(const struct pt2pt_ctx *c);
void pt2pt_fan_finish(struct pt2pt_ctx *c);

/* The struct pt2pt_bench fields both programs share. */
/* OMB 7.4 heads the fan tests' MB/s "Avg Latency(us)". */
extern const char *const pt2pt_fan_omb_columns[1];

#define PT2PT_FAN_BENCH                                                                  \
    .ranks = PT2PT_BY_SETUP, .combine = PT2PT_MEAN, .columns = pt2pt_bandwidth_columns,  \
    .ncolumns = 1, .full_columns = pt2pt_bandwidth_full_columns,                         \
    .extra = pt2pt_fan_options, .nextra = 1, .exchange = pt2pt_window_one_way,            \
    .values = pt2pt_aggregate_values, .describe = pt2pt_fan_describe,                    \
    .finish = pt2pt_fan_finish, .omb_columns = pt2pt_fan_omb_columns

#endif
