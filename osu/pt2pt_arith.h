/*
 * pt2pt_arith: how the point-to-point programs turn a time per iteration into
 * what they report, and how they read a "[SEND:]RECV" pair of counts. Pure
 * functions, unit tested, no MPI. (Messages per second is osu_msg_rate of
 * osu.h.)
 */
#ifndef COMMSWEEP_OSU_PT2PT_ARITH_H
#define COMMSWEEP_OSU_PT2PT_ARITH_H

#include <stddef.h>

/* One-way latency in microseconds of a ping-pong iteration (two messages). */
double pt2pt_latency_us(double seconds_per_round_trip);
/* MB/s (10^6 bytes) when messages messages of size bytes move per iteration. */
double pt2pt_bandwidth_mb(size_t size, double messages, double seconds_per_iteration);

/* -t "[SEND:]RECV" of osu_latency_mt (threads) and osu_latency_mp (forked
 * processes): RECV alone leaves *send at send_default; each count in
 * [min, max]. what names the things counted ("threads"). 0, or -1 with a
 * message in err. */
int pt2pt_parse_counts(const char *arg, const char *what, size_t min, size_t max,
                       size_t send_default, size_t *send, size_t *recv, char *err, size_t errlen);

#endif
