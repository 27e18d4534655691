/*
 * hier_cli: what the hierarchy tools (generate_hierarchy_input_file,
 * ranks2hosts, hierarchical_model) share: every rank's host name gathered
 * (status 2 when a name cannot serve), the '#' line that says where the
 * names came from, the distinct hosts in rank order, and DOT lines printed
 * as data.
 */
#ifndef COMMSWEEP_CPM_HIER_CLI_H
#define COMMSWEEP_CPM_HIER_CLI_H

#include <stddef.h>

/* Collective over MPI_COMM_WORLD: every rank's host name,
 * CPM_HOST_NAME_LEN bytes each in rank order, on every rank. */
char *hier_cli_hosts(void);
/* "# host names: ..." (MPI's names, or the test hook). */
void hier_cli_hosts_comment(void);
/* The distinct names of names (n ranks) in the order of their first rank,
 * as pointers into names (*hosts malloc'ed); returns how many. */
size_t hier_cli_distinct(const char *names, int n, const char ***hosts);
/* A line of DOT as a data line (for cpm_hier_write). */
void hier_cli_put(const char *line, void *ctx);
/* name quoted for DOT into out (2 * CPM_HOST_NAME_LEN + 3 bytes). */
void hier_cli_quote(const char *name, char *out);

#endif
