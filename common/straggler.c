/* straggler: see straggler.h. */
#include "straggler.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "opt.h"
#include "harness.h"
#include "host.h"
#include "nap.h"
#include "stats.h"

static bool enabled;
bool straggler_slowed;
static int delay_ms = STRAGGLER_TEST_DELAY_MS;

void straggler_read_hook(void)
{
    straggler_slowed = opt_env_rank("COMMSWEEP_SLOW_RANK", -1) == harness.rank;
    delay_ms = opt_env_rank("COMMSWEEP_SLOW_MS", STRAGGLER_TEST_DELAY_MS);
}

void straggler_enable(void)
{
    enabled = true;
    straggler_read_hook();
}

/* A sleep, not a spin: the other ranks of an oversubscribed node keep
 * their cores, and only this rank's time grows. */
void straggler_sleep(void)
{
    nap((double)delay_ms / 1000.0);
}

bool straggler_enabled(void) { return enabled; }

/* Rank 0: the slowest of the timed ranks' medians (negative: untimed);
 * timed has room for size values. */
static void pick(const double *medians, double *timed, int size, const char *hosts,
                 struct straggler *s)
{
    size_t n = 0;
    int slow = -1;
    for (int r = 0; r < size; r++) {
        if (medians[r] < 0)
            continue;
        timed[n++] = medians[r];
        if (slow < 0 || medians[r] > medians[slow])
            slow = r;
    }
    if (slow >= 0) {
        double middle = stats_median(timed, n);
        s->known = true;
        s->rank = slow;
        s->above_pct = middle > 0 ? (medians[slow] / middle - 1.0) * 100.0 : 0.0;
        memcpy(s->host, hosts + (size_t)slow * STRAGGLER_HOST, STRAGGLER_HOST);
        s->host[STRAGGLER_HOST - 1] = '\0';
    }
}

void straggler_find(const double *local, size_t n, bool timed, MPI_Comm comm,
                        struct straggler *s)
{
    int rank, size;
    MPI_CHECK(MPI_Comm_rank(comm, &rank));
    MPI_CHECK(MPI_Comm_size(comm, &size));
    memset(s, 0, sizeof *s);
    double mine = timed && n > 0 ? stats_median(local, n) : -1.0;
    char host[STRAGGLER_HOST] = "";
    snprintf(host, sizeof host, "%s", host_name());
    double *medians = NULL;
    char *hosts = NULL;
    if (rank == 0) {
        medians = malloc(2 * (size_t)size * sizeof *medians); /* and the timed ones */
        hosts = malloc((size_t)size * STRAGGLER_HOST);
    }
    /* comm may be one group of several: no verdict over the world here.
     * Without room on its rank 0 the row names nobody ("-"). */
    int room = rank != 0 || (medians && hosts);
    MPI_CHECK(MPI_Bcast(&room, 1, MPI_INT, 0, comm));
    if (!room) {
        free(medians);
        free(hosts);
        return;
    }
    MPI_CHECK(MPI_Gather(&mine, 1, MPI_DOUBLE, medians, 1, MPI_DOUBLE, 0, comm));
    MPI_CHECK(MPI_Gather(host, STRAGGLER_HOST, MPI_CHAR, hosts, STRAGGLER_HOST,
                         MPI_CHAR, 0, comm));
    if (rank == 0)
        pick(medians, medians + size, size, hosts, s);
    if (s->known) { /* the rank as the world numbers it: comm may be a group */
        MPI_Group mine, world;
        MPI_CHECK(MPI_Comm_group(comm, &mine));
        MPI_CHECK(MPI_Comm_group(harness.comm, &world));
        int in_comm = s->rank;
        MPI_CHECK(MPI_Group_translate_ranks(mine, 1, &in_comm, world, &s->rank));
        MPI_CHECK(MPI_Group_free(&mine));
        MPI_CHECK(MPI_Group_free(&world));
    }
    free(medians);
    free(hosts);
}
