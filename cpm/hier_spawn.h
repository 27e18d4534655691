/*
 * hier_spawn: the helpers of hierarchical_model. Where the run has no
 * process on a host the links need, its ranks spawn one helper per such
 * host (MPI_Comm_spawn_multiple, the "host" info key naming the host as
 * the launcher knows it), and the links are measured on the communicator
 * that merges both sides, parents first. A helper runs this same program:
 * it reads no option and no file, prints nothing, tells its host name and
 * takes part in the measurement rank 0 describes to it, then leaves.
 */
#ifndef COMMSWEEP_CPM_HIER_SPAWN_H
#define COMMSWEEP_CPM_HIER_SPAWN_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

#include "cpm_hier_measure.h"

/* Whether this process was spawned as a helper (it has a parent). */
bool hier_spawn_is_helper(void);

/* A helper's whole life, after harness_init: joins its parents, measures
 * what rank 0 says, leaves; never returns. argv[1] names the host it was
 * spawned for (the name it gives under COMMSWEEP_FAKE_HOSTS). */
_Noreturn void hier_spawn_helper_main(int argc, char **argv);

/* Collective over MPI_COMM_WORLD: one helper of program prog on each of
 * hosts[0..n-1] (hierarchy names), launch[i] the name for the "host" key
 * (NULL: no key, the launcher chooses). Returns the merged communicator
 * (this run's ranks first, in order, then the helpers). A refusal of the
 * launcher, or a spawn that has not returned after limit seconds, ends
 * every rank with status 2 and one line naming the hosts. Under Open MPI
 * a refused rank 0 returns while the others stay in the call for good:
 * rank 0 then waits SPAWN_REFUSED_GRACE seconds for them and ends the
 * run itself, with its line (the launcher ends the ranks still inside). */
MPI_Comm hier_spawn_helpers(const char *prog, const char *const *hosts,
                            const char *const *launch, size_t n, double limit);

/* A file this rank has begun (an output's temporary name) that a spawn
 * ending the run must remove (NULL: none): the end by time limit leaves
 * through _exit, where nothing else would. The string must outlive the
 * spawn. */
void hier_spawn_cleanup(const char *path);

/* Parents, collective over merged: tells the helpers to measure p's links
 * (rank_of: per host, its rank in merged) with kind (its index among the
 * estimated kinds) and a, or, when go is false, to leave. */
void hier_spawn_tell(MPI_Comm merged, bool go, int kind_index, const struct cpm_estimate_args *a,
                     const struct cpm_hier_plan *p, const int *rank_of);

/* Both sides, collective: frees merged and disconnects from the other side. */
void hier_spawn_part(MPI_Comm *merged);

#endif
