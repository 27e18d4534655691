/* pt2pt_arith: reported figures from times; see pt2pt_arith.h. */
#include "pt2pt_arith.h"

#include <stdio.h>
#include <string.h>

#include "osu.h"

double pt2pt_latency_us(double seconds_per_round_trip)
{
    return seconds_per_round_trip / 2.0 * 1e6;
}

double pt2pt_bandwidth_mb(size_t size, double messages, double seconds_per_iteration)
{
    return osu_mb_per_s((double)size * messages, seconds_per_iteration);
}

int pt2pt_parse_counts(const char *arg, const char *what, size_t min, size_t max,
                       size_t send_default, size_t *send, size_t *recv, char *err, size_t errlen)
{
    char sending[64], receiving[64];
    snprintf(sending, sizeof sending, "sending %s", what);
    snprintf(receiving, sizeof receiving, "receiving %s", what);
    const char *colon = strchr(arg, ':');
    size_t senders = send_default, receivers;
    if (colon) {
        char head[32];
        size_t n = (size_t)(colon - arg);
        if (n == 0 || n >= sizeof head) {
            snprintf(err, errlen, "invalid counts of %s '%s': use RECV or SEND:RECV", what, arg);
            return -1;
        }
        memcpy(head, arg, n);
        head[n] = '\0';
        if (opt_to_size(head, sending, min, max, &senders, err, errlen))
            return -1;
        arg = colon + 1;
    }
    if (opt_to_size(arg, receiving, min, max, &receivers, err, errlen))
        return -1;
    *send = senders;
    *recv = receivers;
    return 0;
}
