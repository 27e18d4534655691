/* hier_cli: the hierarchy tools' shared steps; see hier_cli.h. */
#include "hier_cli.h"

#include <stdlib.h>
#include <string.h>

#include "cpm_dot.h"
#include "cpm_hosts.h"
#include "harness.h"
#include "watchdog.h"

char *hier_cli_hosts(void)
{
    char mine[CPM_HOST_NAME_LEN] = "", err[400] = "";
    int bad = cpm_host_name(harness.rank, mine, err, sizeof err) != 0;
    err_any(MPI_COMM_WORLD, bad, ERR_STATUS_USAGE, "%s", err);
    /* The gathering is a step of --timeout, where the tool has one. */
    watchdog_single_begin(NULL, "gathering the host names");
    char *names = cpm_hosts_allgather(MPI_COMM_WORLD, mine);
    watchdog_single_end();
    return names;
}

void hier_cli_hosts_comment(void)
{
    if (cpm_hosts_faked())
        out_comment("host names: from COMMSWEEP_FAKE_HOSTS, a test hook, not the hosts' own");
    else
        out_comment("host names: each rank's MPI_Get_processor_name (with gethostname's domain)");
}

size_t hier_cli_distinct(const char *names, int n, const char ***hosts)
{
    size_t count = 0;
    *hosts = malloc(((size_t)n + 1) * sizeof **hosts);
    if (!*hosts)
        err_fatal("out of memory for %d host names", n);
    for (int r = 0; r < n; r++) {
        const char *name = names + (size_t)r * CPM_HOST_NAME_LEN;
        size_t k = 0;
        while (k < count && strcmp((*hosts)[k], name) != 0)
            k++;
        if (k == count)
            (*hosts)[count++] = name;
    }
    return count;
}

void hier_cli_put(const char *line, void *ctx)
{
    (void)ctx;
    out_line("%s", line);
}

void hier_cli_quote(const char *name, char *out)
{
    /* Host names were checked when they were taken (cpm_host_name). */
    if (cpm_dot_quote(name, out, 2 * CPM_HOST_NAME_LEN + 3) != 0)
        err_fatal("host name \"%s\" cannot be quoted for DOT", name);
}
