/*
 * topo: where each rank runs. With hwloc: host name, the cores it is bound to,
 * its NUMA node(s), and the GPU it uses (the device selected by common/devmem,
 * named with its PCI bus id, e.g. "hip:0 pci=0000:c1:00.0"; else the GPUs
 * hwloc finds near its cores). Printed by rank 0 as '#' lines. Collective.
 * Also whether ranks of a machine share its cores (more ranks than the
 * cores they may run on), which decides how a rank should wait.
 */
#ifndef COMMSWEEP_TOPO_H
#define COMMSWEEP_TOPO_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

/* One rank's description, "host=H cores=C numa=N gpu=G", into text. */
void topo_describe_self(char *text, size_t len);
/* Gathers every rank's description and prints "# rank R: ..." lines. */
void topo_report(MPI_Comm comm);
/* Collective: whether this rank's machine (its kernel: ranks in other
 * containers or network namespaces of it count too) holds more ranks of
 * comm than CPUs in the union of their affinity masks. */
bool topo_cores_shared(MPI_Comm comm);

#endif
