/* pt2pt_arith: reported figures from times; see pt2pt_arith.h. */
#include "pt2pt_arith.h"

#include "osu.h"

double pt2pt_latency_us(double seconds_per_round_trip)
{
    return seconds_per_round_trip / 2.0 * 1e6;
}

double pt2pt_bandwidth_mb(size_t size, double messages, double seconds_per_iteration)
{
    return osu_mb_per_s((double)size * messages, seconds_per_iteration);
}
