/*
 * mpistart: how MPI starts and ends in this process, and the communicator
 * of all ranks. Two ways: the world model (MPI_Init_thread, MPI_COMM_WORLD)
 * or an MPI session (MPI-4: MPI_Session_init, the group of the process set
 * "mpi://WORLD", MPI_Comm_create_from_group), where MPI_COMM_WORLD does not
 * exist and every call goes through the session's communicator.
 *
 * It owns the one compile-time test of whether the library has sessions
 * (MPI_VERSION >= 4, or Open MPI 5, which defines MPI_SESSION_NULL while
 * it calls itself MPI 3.1); nothing else in the project asks.
 */
#ifndef COMMSWEEP_MPISTART_H
#define COMMSWEEP_MPISTART_H

#include <mpi.h>
#include <stdbool.h>

enum mpistart_model {
    MPISTART_WORLD,   /* MPI_Init_thread */
    MPISTART_SESSION, /* MPI_Session_init and a communicator from mpi://WORLD */
};

/* The process set the session's communicator is made from, and the tag
 * (string) MPI_Comm_create_from_group is given. */
#define MPISTART_PSET "mpi://WORLD"
#define MPISTART_TAG "commsweep"

/* NULL when this build has MPI sessions; otherwise why not, one sentence. */
const char *mpistart_sessions_missing(void);

/* Starts MPI the given way with the thread level asked for (in a session:
 * the "thread_level" info key); *provided receives the level granted.
 * Returns MPI_SUCCESS or the failing call's error code, with *failed naming
 * that call. A session in a build without sessions fails with MPI_ERR_OTHER. */
int mpistart_begin(int *argc, char ***argv, int thread_required, enum mpistart_model model,
                   int *provided, const char **failed);

/* Whether MPI runs: started here (or, world model, by anyone) and not ended. */
bool mpistart_running(void);
/* How it was started here (MPISTART_WORLD when it was not). */
enum mpistart_model mpistart_model(void);
/* The communicator of all ranks: the session's, or MPI_COMM_WORLD. */
MPI_Comm mpistart_comm(void);
/* Ends what mpistart_begin started (MPI_Finalize, or frees the communicator
 * and finalizes the session); nothing when MPI does not run. */
void mpistart_end(void);
/* MPI_Abort on the communicator of all ranks with status; under SMPI
 * nothing, and the caller's exit gives the simulation its status. */
void mpistart_abort(int status);

#endif
