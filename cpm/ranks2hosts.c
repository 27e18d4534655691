/* ranks2hosts: the ranks on each host as a DOT list (seed 4.8), under
 * mpirun: mpirun -n NP ranks2hosts > ranks2hosts.out. Each host is a box
 * with an edge to each of its ranks, hosts in the order of their first
 * rank; the host names are those the hierarchy tools use, so the list
 * shows which ranks a hierarchical model's hosts will have. */
#include <stdlib.h>
#include <string.h>

#include "cpm_hosts.h"
#include "harness.h"
#include "hier_cli.h"
#include "report.h"
#include "watchdog.h"

int main(int argc, char **argv)
{
    harness_init(&argc, &argv, MPI_THREAD_SINGLE);
    struct opt_usage usage = {"", "Prints the ranks on each host as a Graphviz DOT graph.", false,
                              false, "cpm", "ranks2hosts measures nothing", NULL};
    double timeout = 0.0;
    const struct opt_spec specs[] = {WATCHDOG_OPT(&timeout)};
    int pos = opt_parse_or_exit(argc, argv, specs, 1, &usage);
    watchdog_configure(timeout);
    if (pos < argc)
        err_usage("unexpected argument '%s' (try --help)", argv[pos]);
    char *names = hier_cli_hosts();
    const char **hosts;
    size_t nhosts = hier_cli_distinct(names, harness.size, &hosts);
    out_header("CPM rank-to-host mapping", argc, argv);
    hier_cli_hosts_comment();
    out_comment("hosts: %zu, ranks: %d", nhosts, harness.size);
    /* JSON: the same mapping as rows, a host and a rank each. */
    report_table("cpm_ranks2hosts", "host", REPORT_NOT_RANKED, NULL);
    report_no_iterations();
    report_key("host", REPORT_UNIT_TEXT);
    report_key("rank", REPORT_UNIT_COUNT);
    out_line("digraph ranks2hosts {");
    for (size_t k = 0; k < nhosts && harness.rank == 0; k++) {
        char quoted[2 * CPM_HOST_NAME_LEN + 3];
        hier_cli_quote(hosts[k], quoted);
        out_line("    %s [shape=box];", quoted);
        for (int r = 0; r < harness.size; r++)
            if (strcmp(names + (size_t)r * CPM_HOST_NAME_LEN, hosts[k]) == 0) {
                out_line("    %s -> %d;", quoted, r);
                report_row_begin("cpm_ranks2hosts");
                report_row_string("host", hosts[k]);
                report_row_size("rank", (size_t)r);
                report_row_end();
            }
    }
    out_line("}");
    free(hosts);
    free(names);
    harness_finish(ERR_STATUS_OK);
}
