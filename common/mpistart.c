/* mpistart: MPI's start and end, world model or session; see mpistart.h. */
#include "mpistart.h"

#include <string.h>

#include "timing.h"

#if MPI_VERSION >= 4 || defined(MPI_SESSION_NULL)
#define MPISTART_HAVE_SESSIONS 1
#endif

static enum mpistart_model started_as = MPISTART_WORLD;
static bool session_running;

#ifdef MPISTART_HAVE_SESSIONS
static MPI_Session session = MPI_SESSION_NULL;
static MPI_Comm session_comm = MPI_COMM_NULL;

static const char *const level_names[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED",
                                          "MPI_THREAD_SERIALIZED", "MPI_THREAD_MULTIPLE"};
static const int levels[] = {MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED,
                             MPI_THREAD_MULTIPLE};
#define NLEVELS (sizeof levels / sizeof levels[0])

/* The level a session was granted, read back from its info (MPI 4.0 11.3.1);
 * the level asked for when the library does not say. */
static int granted_level(int asked)
{
    MPI_Info info = MPI_INFO_NULL;
    if (MPI_Session_get_info(session, &info) != MPI_SUCCESS || info == MPI_INFO_NULL)
        return asked;
    char value[MPI_MAX_INFO_VAL + 1] = "";
    int found = 0;
    MPI_Info_get(info, "thread_level", MPI_MAX_INFO_VAL, value, &found);
    MPI_Info_free(&info);
    for (size_t i = 0; found && i < NLEVELS; i++)
        if (strcmp(value, level_names[i]) == 0)
            return levels[i];
    return asked;
}

static int session_begin(int thread_required, int *provided, const char **failed)
{
    MPI_Info info = MPI_INFO_NULL;
    for (size_t i = 0; i < NLEVELS && thread_required != MPI_THREAD_SINGLE; i++) {
        if (levels[i] != thread_required)
            continue;
        MPI_Info_create(&info);
        MPI_Info_set(info, "thread_level", level_names[i]);
    }
    int rc = MPI_Session_init(info, MPI_ERRORS_RETURN, &session);
    if (info != MPI_INFO_NULL)
        MPI_Info_free(&info);
    if (rc != MPI_SUCCESS) {
        *failed = "MPI_Session_init";
        return rc;
    }
    session_running = true;
    started_as = MPISTART_SESSION;
    MPI_Group group = MPI_GROUP_NULL;
    rc = MPI_Group_from_session_pset(session, MPISTART_PSET, &group);
    if (rc != MPI_SUCCESS) {
        *failed = "MPI_Group_from_session_pset";
        return rc;
    }
    rc = MPI_Comm_create_from_group(group, MPISTART_TAG, MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                    &session_comm);
    MPI_Group_free(&group);
    if (rc != MPI_SUCCESS) {
        *failed = "MPI_Comm_create_from_group";
        return rc;
    }
    *provided = granted_level(thread_required);
    return MPI_SUCCESS;
}

const char *mpistart_sessions_missing(void) { return NULL; }
#else
#define MPISTART_STR_(x) #x
#define MPISTART_STR(x) MPISTART_STR_(x)

static int session_begin(int thread_required, int *provided, const char **failed)
{
    (void)thread_required;
    (void)provided;
    *failed = "MPI_Session_init";
    return MPI_ERR_OTHER;
}

const char *mpistart_sessions_missing(void)
{
    return "this MPI library has no MPI sessions (MPI_Session_init is MPI 4; it declares "
           "MPI " MPISTART_STR(MPI_VERSION) "." MPISTART_STR(MPI_SUBVERSION) ")";
}
#endif

int mpistart_begin(int *argc, char ***argv, int thread_required, enum mpistart_model model,
                   int *provided, const char **failed)
{
    if (model == MPISTART_SESSION)
        return session_begin(thread_required, provided, failed);
    started_as = MPISTART_WORLD;
    *failed = "MPI_Init_thread";
    int rc = MPI_Init_thread(argc, argv, thread_required, provided);
    if (rc == MPI_SUCCESS)
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    return rc;
}

bool mpistart_running(void)
{
    if (session_running)
        return true;
    int initialized = 0, finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    return initialized && !finalized;
}

enum mpistart_model mpistart_model(void) { return started_as; }

MPI_Comm mpistart_comm(void)
{
#ifdef MPISTART_HAVE_SESSIONS
    if (session_running)
        return session_comm;
#endif
    return MPI_COMM_WORLD;
}

void mpistart_end(void)
{
#ifdef MPISTART_HAVE_SESSIONS
    if (session_running) {
        if (session_comm != MPI_COMM_NULL)
            MPI_Comm_free(&session_comm);
        MPI_Session_finalize(&session);
        session_running = false;
        return;
    }
#endif
    if (mpistart_running())
        MPI_Finalize();
}

void mpistart_abort(int status)
{
    /* SimGrid's SMPI 3.32 ends the simulation with status 0 on MPI_Abort;
     * a rank that exits ends it, once the others are stuck, with its own. */
    if (timing_simulated())
        return;
    MPI_Comm comm = mpistart_comm();
    if (comm != MPI_COMM_NULL)
        MPI_Abort(comm, status);
}
