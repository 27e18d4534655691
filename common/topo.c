/* topo: per-rank placement report with hwloc; see topo.h. */
#include "topo.h"

#include <hwloc.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "devmem.h"
#include "err.h"
#include "out.h"

#define TOPO_LEN 512

static void describe_gpus(hwloc_topology_t topo, hwloc_cpuset_t set, char *text, size_t len)
{
    if (devmem_selected() >= 0) {
        /* vendor:index and its PCI bus id, as the device runtime names it */
        devmem_describe(text, len);
        return;
    }
    /* No device selected: list the GPU-like OS devices near our cores. */
    size_t used = 0;
    text[0] = '\0';
    hwloc_obj_t os = NULL;
    while ((os = hwloc_get_next_osdev(topo, os)) != NULL) {
        if (os->attr->osdev.type != HWLOC_OBJ_OSDEV_GPU &&
            os->attr->osdev.type != HWLOC_OBJ_OSDEV_COPROC)
            continue;
        hwloc_obj_t anc = hwloc_get_non_io_ancestor_obj(topo, os);
        if (anc && anc->cpuset && !hwloc_bitmap_intersects(anc->cpuset, set))
            continue;
        used += (size_t)snprintf(text + used, used < len ? len - used : 0, "%s%s",
                                 used ? "," : "", os->name ? os->name : "gpu");
        if (used >= len)
            break;
    }
    if (!text[0])
        snprintf(text, len, "none");
}

void topo_describe_self(char *text, size_t len)
{
    char host[256] = "?";
    int name_len = 0;
    MPI_Get_processor_name(host, &name_len);

    hwloc_topology_t topo;
    char cores[128] = "?", numa[128] = "?", gpus[128] = "none";
    if (hwloc_topology_init(&topo) == 0) {
        hwloc_topology_set_io_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
        if (hwloc_topology_load(topo) == 0) {
            hwloc_cpuset_t set = hwloc_bitmap_alloc();
            hwloc_nodeset_t nodes = hwloc_bitmap_alloc();
            if (hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) != 0)
                hwloc_bitmap_copy(set, hwloc_topology_get_topology_cpuset(topo));
            /* Report core indices (logical PUs as the OS numbers them). */
            hwloc_bitmap_list_snprintf(cores, sizeof cores, set);
            hwloc_cpuset_to_nodeset(topo, set, nodes);
            hwloc_bitmap_list_snprintf(numa, sizeof numa, nodes);
            describe_gpus(topo, set, gpus, sizeof gpus);
            hwloc_bitmap_free(nodes);
            hwloc_bitmap_free(set);
        }
        hwloc_topology_destroy(topo);
    }
    snprintf(text, len, "host=%s pid=%ld cores=%s numa=%s gpu=%s", host, (long)getpid(), cores,
             numa, gpus);
}

void topo_report(MPI_Comm comm)
{
    char mine[TOPO_LEN];
    topo_describe_self(mine, sizeof mine);
    out_comment_per_rank(comm, "", "topology", mine, sizeof mine);
}

/* The ranks of comm on this rank's machine: those of its kernel (one boot
 * id, even where MPI sees several nodes: containers, network namespaces),
 * or where no boot id can be read, those MPI says share memory. */
static MPI_Comm same_machine(MPI_Comm comm)
{
    char id[40] = "";
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (f) {
        if (!fgets(id, sizeof id, f))
            id[0] = '\0';
        fclose(f);
    }
    int have = id[0] != '\0', all_have;
    MPI_CHECK(MPI_Allreduce(&have, &all_have, 1, MPI_INT, MPI_LAND, comm));
    MPI_Comm machine;
    if (!all_have) {
        MPI_CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &machine));
        return machine;
    }
    unsigned hash = 2166136261u; /* FNV-1a */
    for (const char *c = id; *c; c++)
        hash = (hash ^ (unsigned char)*c) * 16777619u;
    MPI_CHECK(MPI_Comm_split(comm, (int)(hash & 0x7fffffff), 0, &machine));
    /* Two machines whose ids hash alike are told apart by the memory MPI
     * says they share. */
    char lo[sizeof id], hi[sizeof id];
    MPI_CHECK(MPI_Allreduce(id, lo, (int)sizeof id, MPI_BYTE, MPI_BAND, machine));
    MPI_CHECK(MPI_Allreduce(id, hi, (int)sizeof id, MPI_BYTE, MPI_BOR, machine));
    int same = memcmp(lo, hi, sizeof id) == 0, all_same;
    MPI_CHECK(MPI_Allreduce(&same, &all_same, 1, MPI_INT, MPI_LAND, comm));
    if (all_same)
        return machine;
    MPI_Comm_free(&machine);
    MPI_CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &machine));
    return machine;
}

bool topo_cores_shared(MPI_Comm comm)
{
    MPI_Comm machine = same_machine(comm);
    int local;
    MPI_Comm_size(machine, &local);
    cpu_set_t mine, all;
    CPU_ZERO(&mine);
    if (sched_getaffinity(0, sizeof mine, &mine) != 0) {
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        for (long cpu = 0; cpu < online && cpu < CPU_SETSIZE; cpu++)
            CPU_SET((int)cpu, &mine);
    }
    MPI_CHECK(MPI_Allreduce(&mine, &all, (int)sizeof mine, MPI_BYTE, MPI_BOR, machine));
    MPI_Comm_free(&machine);
    return local > CPU_COUNT(&all);
}
