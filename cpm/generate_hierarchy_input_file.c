/* generate_hierarchy_input_file: the hierarchy file of the run's hosts
 * (seed 4.6), under mpirun:
 *     mpirun [options] generate_hierarchy_input_file [PREFIX...] > h-file.out
 * Every rank's host name is gathered; hosts whose names start with the same
 * prefix share a parent, the prefix being the longest PREFIX given that the
 * name starts with (one per cluster, to split or join what three characters
 * would not), else the name's first three characters; those groups hang
 * below one node per domain (after the first '.') when the hosts are in
 * more than one. Leaves carry their host name in model_data. The '#'
 * header stays in the file: DOT skips lines that start with '#'. */
#include <stdlib.h>

#include "cpm_hier.h"
#include "harness.h"
#include "hier_cli.h"

int main(int argc, char **argv)
{
    harness_init(&argc, &argv, MPI_THREAD_SINGLE);
    struct opt_usage usage = {"[PREFIX...]",
                              "Writes a hierarchy of the run's hosts in Graphviz DOT, for "
                              "hierarchical_model: one PREFIX\nper cluster groups the hosts whose "
                              "names start with it (default: the first\nthree characters of the "
                              "name), then the domains group those groups.",
                              false, false, "cpm", "it measures nothing", NULL};
    int pos = opt_parse_or_exit(argc, argv, NULL, 0, &usage);
    const char *const *prefixes = (const char *const *)argv + pos;
    size_t nprefixes = (size_t)(argc - pos);
    for (size_t k = 0; k < nprefixes; k++) {
        const char *why = cpm_hier_bad_host(prefixes[k]);
        if (why)
            err_usage("prefix '%s' cannot start a host name: %s", prefixes[k], why);
    }
    char *names = hier_cli_hosts();
    const char **hosts;
    size_t nhosts = hier_cli_distinct(names, harness.size, &hosts);
    out_header("CPM hierarchy of the run's hosts", argc, argv);
    hier_cli_hosts_comment();
    out_comment("grouping: %s, then the domain after the first '.'",
                nprefixes ? "the longest prefix given that a name starts with, else its first "
                            "three characters"
                          : "the first three characters of the name");
    int bad = 0;
    if (harness.rank == 0) {
        struct cpm_hier h;
        cpm_hier_group(&h, hosts, nhosts, prefixes, nprefixes);
        out_comment("hosts: %zu of %d ranks; elements: %zu (leaves type 0 with the host name in "
                    "model_data, groups type 1)",
                    nhosts, harness.size, h.nnodes);
        bad = cpm_hier_write(&h, hier_cli_put, NULL) != 0;
        cpm_hier_free(&h);
    }
    err_any(MPI_COMM_WORLD, bad, ERR_STATUS_FAIL, "a name cannot be written in DOT");
    free(hosts);
    free(names);
    harness_finish(ERR_STATUS_OK);
}
