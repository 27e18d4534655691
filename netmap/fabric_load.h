/*
 * fabric_load: the --topology option of the network-map programs: the
 * printing rank reads and parses the file (fabric.h), every rank gets each
 * endpoint's switch and group, and the header says where they came from.
 */
#ifndef COMMSWEEP_NETMAP_FABRIC_LOAD_H
#define COMMSWEEP_NETMAP_FABRIC_LOAD_H

#include "fabric.h"
#include "netmap.h"

#define NETMAP_TOPOLOGY_OPT(path_ptr)                                                       \
    {.long_name = "topology", .kind = OPT_STRING, .dest = (path_ptr),                       \
     .metavar = "FILE|slurm|xname",                                                         \
     .help = "switch and group of each node: 'HOST SWITCH [GROUP]' lines or Slurm's "       \
             "topology.conf (slurm: the one beside $SLURM_CONF; xname: from HPE Cray "      \
             "host names, cabinet as group, chassis as switch)"}

/* Fills f on every rank (all endpoints unplaced without a path) and prints
 * a "# topology:" line (without one: "# topology: <none_text>"). A file
 * that cannot be read or parsed ends the run with status 2 and one line on
 * every rank. Collective over the world. */
void netmap_load_fabric(const struct netmap *nm, const char *path, struct fabric *f,
                        const char *none_text);

#endif
