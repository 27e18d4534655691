/*
 * pt2pt_arith: how the point-to-point programs turn a time per iteration into
 * what they report. Pure functions, unit tested, no MPI. (Messages per second
 * is osu_msg_rate of osu.h.)
 */
#ifndef COMMSWEEP_OSU_PT2PT_ARITH_H
#define COMMSWEEP_OSU_PT2PT_ARITH_H

#include <stddef.h>

/* One-way latency in microseconds of a ping-pong iteration (two messages). */
double pt2pt_latency_us(double seconds_per_round_trip);
/* MB/s (10^6 bytes) when messages messages of size bytes move per iteration. */
double pt2pt_bandwidth_mb(size_t size, double messages, double seconds_per_iteration);

#endif
