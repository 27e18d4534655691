/* hier_spawn: helpers for the hosts a run lacks; see hier_spawn.h. */
#include "hier_spawn.h"

#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "cpm_hosts.h"
#include "harness.h"

/* The intercommunicator of the spawn, kept to disconnect it at the end. */
static MPI_Comm inter = MPI_COMM_NULL;

/* What rank 0 tells the helpers: plain data, the same program on both
 * sides, so it travels as bytes. */
struct job {
    uint64_t go, nlinks;
    int kind_index;
    struct cpm_msgset msgset;
    struct cpm_precision precision;
    bool parallel, two_point;
};

bool hier_spawn_is_helper(void)
{
    MPI_Comm parent = MPI_COMM_NULL;
    MPI_CHECK(MPI_Comm_get_parent(&parent));
    return parent != MPI_COMM_NULL;
}

void hier_spawn_part(MPI_Comm *merged)
{
    MPI_CHECK(MPI_Comm_free(merged));
    MPI_CHECK(MPI_Comm_disconnect(&inter));
}

static void no_note(size_t link, const char *text, void *ctx)
{
    (void)link, (void)text, (void)ctx;
}

_Noreturn void hier_spawn_helper_main(int argc, char **argv)
{
    MPI_Comm merged;
    MPI_CHECK(MPI_Comm_get_parent(&inter));
    MPI_CHECK(MPI_Intercomm_merge(inter, 1, &merged));
    /* The name of the host it runs on, which the parents check against the
     * one it was spawned for; under the test hook, that one. */
    char mine[CPM_HOST_NAME_LEN] = "", err[400];
    if (cpm_hosts_faked() && argc > 1)
        snprintf(mine, sizeof mine, "%s", argv[1]);
    else if (cpm_host_name(0, mine, err, sizeof err) != 0)
        snprintf(mine, sizeof mine, "?");
    free(cpm_hosts_allgather(merged, mine));
    struct job j;
    MPI_CHECK(MPI_Bcast(&j, (int)sizeof j, MPI_BYTE, 0, merged));
    if (j.go) {
        /* Link k between "hosts" 2k and 2k+1 of a plan of its own: the
         * helper needs the ranks of each link, not the hierarchy. */
        int *rank_of = malloc((2 * j.nlinks + 1) * sizeof *rank_of);
        struct cpm_hier_plan p = {0};
        p.links = calloc(j.nlinks + 1, sizeof *p.links);
        void **links = calloc(j.nlinks + 1, sizeof *links);
        if (!rank_of || !p.links || !links || j.nlinks > INT_MAX / 2)
            err_fatal("out of memory for %llu links", (unsigned long long)j.nlinks);
        MPI_CHECK(MPI_Bcast(rank_of, (int)(2 * j.nlinks), MPI_INT, 0, merged));
        p.nlinks = j.nlinks;
        for (size_t k = 0; k < p.nlinks; k++)
            p.links[k] = (struct cpm_hier_link){.a = 2 * k, .b = 2 * k + 1};
        const struct cpm_model_kind *kind =
            cpm_model_kind_find(cpm_model_kind_names(true)[j.kind_index]);
        struct cpm_estimate_args a = {merged, j.msgset, j.precision, j.parallel, j.two_point,
                                      false};
        cpm_hier_measure(kind, &a, &p, rank_of, links, no_note, NULL, err, sizeof err);
        free(links);
        free(p.links);
        free(rank_of);
    }
    hier_spawn_part(&merged);
    harness_finish(ERR_STATUS_OK);
}

/* A launcher may neither place a helper nor say so: Open MPI 4.1, asked
 * for a host outside the job's allocation, prints "All nodes which are
 * allocated for this job are already filled" and its MPI_Comm_spawn never
 * returns. So the spawn has a time limit of its own; past it rank 0 writes
 * the line prepared before, and every rank ends with status 2 (each has
 * its own timer). */
static char expired_line[900];
static size_t expired_len;
static const char *cleanup_path;

/* Seconds a refused rank 0 gives the others to come out of the call. */
#define SPAWN_REFUSED_GRACE 3

void hier_spawn_cleanup(const char *path)
{
    cleanup_path = path;
}

static void spawn_expired(int sig)
{
    (void)sig;
    /* Rank 0 writes and ends first; the others give its line two seconds
     * to come out before the launcher, seeing them end, tears the job down
     * (a line written as another rank ended was lost). */
    struct timespec wait = {expired_len ? 0 : 2, 0};
    if (cleanup_path)
        unlink(cleanup_path);
    if (expired_len && write(STDERR_FILENO, expired_line, expired_len) < 0)
        expired_len = 0;
    nanosleep(&wait, NULL);
    _exit(ERR_STATUS_USAGE);
}

/* SIGALRM, the watchdog's signal: it arms its alarm only inside a step,
 * so none is pending here, and its handler comes back after. */
static void spawn_timer_start(double seconds, struct sigaction *old)
{
    struct sigaction sa = {.sa_handler = spawn_expired};
    sigemptyset(&sa.sa_mask);
    struct itimerval when = {.it_value = {(time_t)seconds,
                                          (suseconds_t)((seconds - (double)(time_t)seconds) * 1e6)}};
    if (sigaction(SIGALRM, &sa, old) != 0 || setitimer(ITIMER_REAL, &when, NULL) != 0)
        err_fatal("cannot set the time limit of MPI_Comm_spawn");
}

static void spawn_timer_stop(const struct sigaction *old)
{
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &off, NULL);
    sigaction(SIGALRM, old, NULL);
}

/* The path the helpers run: argv[0] made absolute where it names a file
 * (the launcher may start them in another folder), else as given. */
static char *program_path(const char *prog)
{
    char *path = strchr(prog, '/') ? realpath(prog, NULL) : NULL;
    if (!path && !(path = strdup(prog)))
        err_fatal("out of memory");
    return path;
}

MPI_Comm hier_spawn_helpers(const char *prog, const char *const *hosts,
                            const char *const *launch, size_t n, double limit)
{
    char *path = program_path(prog);
    char **cmds = malloc(n * sizeof *cmds), ***argvs = malloc(n * sizeof *argvs);
    char **args = malloc(2 * n * sizeof *args);
    int *maxprocs = malloc(n * sizeof *maxprocs), *codes = malloc(n * sizeof *codes);
    MPI_Info *infos = malloc(n * sizeof *infos);
    if (!cmds || !argvs || !args || !maxprocs || !codes || !infos || n > INT_MAX)
        err_fatal("out of memory for %zu helpers", n);
    for (size_t i = 0; i < n; i++) {
        cmds[i] = path;
        args[2 * i] = (char *)hosts[i];
        args[2 * i + 1] = NULL;
        argvs[i] = &args[2 * i];
        maxprocs[i] = 1;
        codes[i] = MPI_SUCCESS;
        MPI_CHECK(MPI_Info_create(&infos[i]));
        if (launch[i])
            MPI_CHECK(MPI_Info_set(infos[i], "host", launch[i]));
    }
    char list[600] = "";
    for (size_t i = 0, used = 0; i < n && used < sizeof list; i++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s%s%s%s", i ? ", " : "",
                                 hosts[i], launch[i] ? " (as " : "", launch[i] ? launch[i] : "",
                                 launch[i] ? ")" : "");
    const char *hint = "start the run with a process on each host that --plan lists, or name "
                       "the launcher's host names with --spawn-host";
    if (harness.rank == 0) {
        int len = snprintf(expired_line, sizeof expired_line,
                           "%s: MPI_Comm_spawn of a helper on host%s %s did not return within "
                           "%g s (--spawn-timeout): the launcher cannot place it there (%s)\n",
                           err_program(), n == 1 ? "" : "s", list, limit, hint);
        expired_len = len < 0 ? 0 : (size_t)len < sizeof expired_line ? (size_t)len
                                                                       : sizeof expired_line - 1;
    }
    struct sigaction old;
    spawn_timer_start(limit, &old);
    int rc = MPI_Comm_spawn_multiple((int)n, cmds, argvs, maxprocs, infos, 0, MPI_COMM_WORLD,
                                     &inter, codes);
    /* Why it was refused: the call's error, or the first helper's. Under
     * Open MPI a root that was refused returns while the other ranks stay
     * in the call, so the agreement stays under the time limit too, with
     * the reason as rank 0's line. */
    char why[MPI_MAX_ERROR_STRING] = "";
    int code = rc;
    for (size_t i = 0; code == MPI_SUCCESS && harness.rank == 0 && i < n; i++)
        code = codes[i];
    if (code != MPI_SUCCESS) {
        int len = 0;
        if (MPI_Error_string(code, why, &len) != MPI_SUCCESS)
            snprintf(why, sizeof why, "MPI error %d", code);
        /* MPICH's string is its error stack, a line per frame: one line. */
        for (char *c = why; (c = strchr(c, '\n')) != NULL;)
            *c = ' ';
    }
    if (code != MPI_SUCCESS && harness.rank == 0) {
        char line[sizeof expired_line];
        int len = snprintf(line, sizeof line, "%s: MPI_Comm_spawn of a helper on host%s %s was "
                           "refused: %s (%s)\n", err_program(), n == 1 ? "" : "s", list, why, hint);
        expired_len = 0;
        memcpy(expired_line, line, sizeof line);
        expired_len = len < 0 ? 0 : (size_t)len < sizeof line ? (size_t)len : sizeof line - 1;
        /* The others may never come out of the call (Open MPI): a short
         * wait for them, then this rank ends the run with the line. */
        if (harness.size > 1 && limit > SPAWN_REFUSED_GRACE) {
            struct itimerval when = {.it_value = {SPAWN_REFUSED_GRACE, 0}};
            setitimer(ITIMER_REAL, &when, NULL);
        }
    }
    int bad = code != MPI_SUCCESS, any;
    MPI_CHECK(MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
    spawn_timer_stop(&old);
    if (any && cleanup_path)
        unlink(cleanup_path);
    err_any(MPI_COMM_WORLD, code != MPI_SUCCESS, ERR_STATUS_USAGE,
            "MPI_Comm_spawn of a helper on host%s %s was refused: %s (%s)", n == 1 ? "" : "s",
            list, why, hint);
    for (size_t i = 0; i < n; i++)
        MPI_CHECK(MPI_Info_free(&infos[i]));
    free(infos);
    free(codes);
    free(maxprocs);
    free(args);
    free(argvs);
    free(cmds);
    free(path);
    MPI_Comm merged;
    MPI_CHECK(MPI_Intercomm_merge(inter, 0, &merged));
    return merged;
}

void hier_spawn_tell(MPI_Comm merged, bool go, int kind_index, const struct cpm_estimate_args *a,
                     const struct cpm_hier_plan *p, const int *rank_of)
{
    struct job j = {go, go ? p->nlinks : 0, kind_index, a->msgset, a->precision, a->parallel,
                    a->two_point};
    MPI_CHECK(MPI_Bcast(&j, (int)sizeof j, MPI_BYTE, 0, merged));
    if (!go)
        return;
    int *ranks = malloc((2 * p->nlinks + 1) * sizeof *ranks);
    if (!ranks)
        err_fatal("out of memory for %zu links", p->nlinks);
    for (size_t k = 0; k < p->nlinks; k++) {
        ranks[2 * k] = rank_of[p->links[k].a];
        ranks[2 * k + 1] = rank_of[p->links[k].b];
    }
    MPI_CHECK(MPI_Bcast(ranks, (int)(2 * p->nlinks), MPI_INT, 0, merged));
    free(ranks);
}
