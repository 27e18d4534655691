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
#include "report.h"
#include "watchdog.h"

/* JSON: the tree the DOT text holds, one row per element: its DOT ID,
 * whether it is a host, its model_data and its parent (none at the root).
 * hierarchical_model reads the DOT text, not these. */
static void declare_table(void)
{
    report_table("cpm_hierarchy", "model_data", REPORT_NOT_RANKED, NULL);
    report_no_iterations();
    report_key("element", REPORT_UNIT_TEXT);
    report_value("host", REPORT_UNIT_BOOL);
    report_value("model_data", REPORT_UNIT_TEXT);
    report_value("parent", REPORT_UNIT_TEXT);
}

static void element_rows(const struct cpm_hier *h)
{
    for (size_t k = 0; k < h->nnodes; k++) {
        const struct cpm_hier_node *e = &h->nodes[k];
        report_row_begin("cpm_hierarchy");
        report_row_string("element", e->name);
        report_row_bool("host", e->leaf);
        report_row_string("model_data", e->model_data ? e->model_data : "");
        if (e->parent != CPM_HIER_NONE)
            report_row_string("parent", h->nodes[e->parent].name);
        report_row_end();
    }
}

int main(int argc, char **argv)
{
    harness_init(&argc, &argv, MPI_THREAD_SINGLE);
    struct opt_usage usage = {"[PREFIX...]",
                              "Writes a hierarchy of the run's hosts in Graphviz DOT, for "
                              "hierarchical_model: one PREFIX\nper cluster groups the hosts whose "
                              "names start with it (default: the first\nthree characters of the "
                              "name), then the domains group those groups.",
                              false, false, "cpm", "it measures nothing", NULL};
    double timeout = 0.0;
    const struct opt_spec specs[] = {WATCHDOG_OPT(&timeout)};
    int pos = opt_parse_or_exit(argc, argv, specs, 1, &usage);
    watchdog_configure(timeout);
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
    declare_table();
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
        element_rows(&h);
        cpm_hier_free(&h);
    }
    err_any(MPI_COMM_WORLD, bad, ERR_STATUS_FAIL, "a name cannot be written in DOT");
    free(hosts);
    free(names);
    harness_finish(ERR_STATUS_OK);
}
