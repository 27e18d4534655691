/* cpm_hosts: host names of the processes; see cpm_hosts.h. */
#include "cpm_hosts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpm_hier.h"
#include "err.h"
#include "host.h"

bool cpm_hosts_faked(void)
{
    const char *fake = getenv("COMMSWEEP_FAKE_HOSTS");
    return fake && *fake;
}

/* The rank-th item of a comma-separated list, or -1 when there is none. */
static int list_item(const char *list, int rank, char *out, size_t outlen)
{
    for (int k = 0; k < rank && list; k++) {
        list = strchr(list, ',');
        if (list)
            list++;
    }
    if (!list)
        return -1;
    size_t len = strcspn(list, ",");
    if (len + 1 > outlen)
        return -1;
    memcpy(out, list, len);
    out[len] = '\0';
    return 0;
}

int cpm_host_name(int rank, char out[CPM_HOST_NAME_LEN], char *err, size_t errlen)
{
    if (cpm_hosts_faked()) {
        if (list_item(getenv("COMMSWEEP_FAKE_HOSTS"), rank, out, CPM_HOST_NAME_LEN) != 0) {
            snprintf(err, errlen,
                     "COMMSWEEP_FAKE_HOSTS names no host (of fewer than %d bytes) for rank %d",
                     CPM_HOST_NAME_LEN, rank);
            return -1;
        }
    } else if (host_name_error() != 0) {
        snprintf(err, errlen, "rank %d: neither MPI_Get_processor_name nor gethostname gave a host name: %s", rank,
                 strerror(host_name_error()));
        return -1;
    } else {
        snprintf(out, CPM_HOST_NAME_LEN, "%s", host_name());
    }
    out[CPM_HOST_NAME_LEN - 1] = '\0';
    const char *why = cpm_hier_bad_host(out);
    if (why) {
        snprintf(err, errlen, "rank %d: host name \"%.*s\" cannot name a host in a hierarchy: %s",
                 rank, 100, out, why);
        return -1;
    }
    return 0;
}

char *cpm_hosts_allgather(MPI_Comm comm, const char mine[CPM_HOST_NAME_LEN])
{
    int n;
    MPI_CHECK(MPI_Comm_size(comm, &n));
    char *all = malloc((size_t)n * CPM_HOST_NAME_LEN);
    if (!all)
        err_fatal("out of memory for the host names of %d ranks", n);
    MPI_CHECK(
        MPI_Allgather(mine, CPM_HOST_NAME_LEN, MPI_CHAR, all, CPM_HOST_NAME_LEN, MPI_CHAR, comm));
    return all;
}
