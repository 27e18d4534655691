/*
 * cpm_hosts: the host each process runs on, by name, for the hierarchy
 * tools. A name is the harness's host_name (MPI's name with the domain
 * gethostname adds: the seed assumes the environment gives fully
 * qualified names, and Open MPI cuts the domain off), or, for tests that play
 * several hosts on one machine, the r-th name of the comma-separated list
 * in the test hook COMMSWEEP_FAKE_HOSTS for rank r.
 */
#ifndef COMMSWEEP_CPM_HOSTS_H
#define COMMSWEEP_CPM_HOSTS_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

#define CPM_HOST_NAME_LEN 256 /* bytes of a name with its terminator */

/* This process's host name; 0, or -1 with a message (a name that is too
 * long or that a hierarchy file cannot hold, a list of the test hook that
 * names no host for this rank). */
int cpm_host_name(int rank, char out[CPM_HOST_NAME_LEN], char *err, size_t errlen);
/* Whether the names come from COMMSWEEP_FAKE_HOSTS. */
bool cpm_hosts_faked(void);
/* Collective: every rank's name, CPM_HOST_NAME_LEN bytes each in rank
 * order (malloc'ed, on every rank). */
char *cpm_hosts_allgather(MPI_Comm comm, const char mine[CPM_HOST_NAME_LEN]);

#endif
