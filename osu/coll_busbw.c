/* coll_busbw: nccl-tests' bus bandwidth of an OSU collective; see coll_busbw.h. */
#include "coll_busbw.h"

#include <string.h>

enum busbw_kind busbw_kind_of(const char *program)
{
    static const struct {
        const char *base;
        enum busbw_kind kind;
    } names[] = {
        {"allreduce", BUSBW_ALLREDUCE},       {"allgather", BUSBW_ALLGATHER},
        {"allgatherv", BUSBW_ALLGATHER},      {"reduce_scatter", BUSBW_REDUCE_SCATTER},
        {"reduce_scatter_block", BUSBW_REDUCE_SCATTER},
        {"alltoall", BUSBW_ALLTOALL},         {"alltoallv", BUSBW_ALLTOALL},
        {"alltoallw", BUSBW_ALLTOALL},        {"bcast", BUSBW_BCAST},
        {"reduce", BUSBW_REDUCE},
    };
    if (strncmp(program, "osu_", 4) != 0)
        return BUSBW_NONE;
    char base[64];
    const char *p = program + 4;
    if (strncmp(p, "xccl_", 5) == 0) /* the NCCL/RCCL programs count as MPI's */
        p += 5;
    size_t len = strlen(p);
    const char *persistent = "_persistent";
    size_t plen = strlen(persistent);
    if (len > plen && strcmp(p + len - plen, persistent) == 0)
        len -= plen;
    if (len == 0 || len >= sizeof base)
        return BUSBW_NONE;
    memcpy(base, p, len);
    base[len] = '\0';
    for (int nonblocking = 0; nonblocking < 2; nonblocking++) {
        const char *b = base + nonblocking; /* "iallreduce" -> "allreduce" */
        if (nonblocking && base[0] != 'i')
            break;
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
            if (strcmp(b, names[i].base) == 0)
                return names[i].kind;
    }
    return BUSBW_NONE;
}

double busbw_bytes(enum busbw_kind k, size_t size, int n)
{
    if (k == BUSBW_ALLGATHER || k == BUSBW_ALLTOALL)
        return (double)size * n;
    return k == BUSBW_NONE ? 0 : (double)size;
}

double busbw_factor(enum busbw_kind k, int n)
{
    if (n < 1)
        return 0;
    switch (k) {
    case BUSBW_ALLREDUCE:
        return 2.0 * (n - 1) / n;
    case BUSBW_ALLGATHER:
    case BUSBW_REDUCE_SCATTER:
    case BUSBW_ALLTOALL:
        return (double)(n - 1) / n;
    case BUSBW_BCAST:
    case BUSBW_REDUCE:
        return 1;
    case BUSBW_NONE:
        break;
    }
    return 0;
}

bool busbw_of(enum busbw_kind k, size_t size, int n, double seconds, double *algbw_mb_s,
              double *busbw_mb_s)
{
    if (k == BUSBW_NONE || !(seconds > 0))
        return false;
    *algbw_mb_s = busbw_bytes(k, size, n) / seconds / 1e6;
    *busbw_mb_s = *algbw_mb_s * busbw_factor(k, n);
    return true;
}
