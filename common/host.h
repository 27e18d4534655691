/*
 * host: the name of the host this process runs on, as MPI names it
 * (MPI_Get_processor_name), with the domain gethostname adds where MPI cut
 * it off (Open MPI does by default; the CPM hierarchy tools group hosts by
 * domain). So the lines that name a rank's host when something goes wrong
 * (error messages, watchdog lines, the straggler), the network map and the
 * hierarchy tools name it as the launcher does, and under a simulator
 * (SimGrid's SMPI) that is the simulated host, where gethostname alone
 * would give the machine that runs the whole simulation. Before MPI
 * starts, gethostname stands in, unremembered. Read once.
 */
#ifndef COMMSWEEP_HOST_H
#define COMMSWEEP_HOST_H

/* The name, or "?" when it cannot be had: a static, terminated string,
 * the same on every call once MPI has started. The first call after the
 * start reads it; later calls only return it, so a signal handler may use
 * what a call outside it returned. */
const char *host_name(void);
/* 0, or the errno of the gethostname that failed when MPI gave no name
 * either (host_name is "?"). */
int host_name_error(void);

#endif
