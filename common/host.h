/*
 * host: the name of the host this process runs on, as gethostname gives it
 * (with its domain where the system has one, which MPI_Get_processor_name
 * may cut off), so that the lines that name a rank's host when something
 * goes wrong (error messages, watchdog lines, the straggler) and the
 * hierarchy tools name it the same way. Read once, on first use.
 */
#ifndef COMMSWEEP_HOST_H
#define COMMSWEEP_HOST_H

/* The name, or "?" when gethostname fails: a static, terminated string,
 * the same on every call. The first call reads it; later calls only
 * return it, so a signal handler may use what a call outside it returned. */
const char *host_name(void);
/* 0, or the errno of the gethostname that failed (host_name is "?"). */
int host_name_error(void);

#endif
