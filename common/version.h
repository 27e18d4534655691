/* version: the suite's version string, printed by --version and in headers. */
#ifndef COMMSWEEP_VERSION_H
#define COMMSWEEP_VERSION_H
#define COMMSWEEP_VERSION "0.1.0"
#endif
