/*
 * runinfo: what a run's header says about when and where it ran: the date,
 * the MPI library (one line) and the MPI standard it implements, and the
 * hosts its ranks are on. Both output formats take these from here.
 */
#ifndef COMMSWEEP_RUNINFO_H
#define COMMSWEEP_RUNINFO_H

#include <mpi.h>
#include <stddef.h>

/* Local time as 2024-05-01T12:00:00+0200. */
void runinfo_date(char *text, size_t len);
/* MPI_Get_library_version on one line (line breaks become spaces, trailing
 * spaces dropped). */
void runinfo_mpi_library(char *text, size_t len);

struct runinfo_host {
    char name[MPI_MAX_PROCESSOR_NAME];
    size_t ranks;
};
/* Collective over comm: the distinct processor names of its ranks, in the
 * order of their lowest rank, with how many ranks each has. On rank 0 of
 * comm returns their number and a malloc'ed array in *hosts (free it);
 * elsewhere 0 and NULL. */
size_t runinfo_hosts(MPI_Comm comm, struct runinfo_host **hosts);

#endif
