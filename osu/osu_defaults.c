/* osu_defaults: OMB 7.4's defaults or the seed's; see osu_defaults.h. */
#include "osu_defaults.h"

#include <stdlib.h>
#include <string.h>

#include "err.h"

static const char *const names[] = {"omb", "seed", NULL};
enum { DEFAULTS_OMB, DEFAULTS_SEED };
static int chosen = -1; /* -1: not given on the command line */
static bool settled, describe;

struct opt_spec osu_describe_option(void)
{
    return (struct opt_spec){.long_name = "describe", .kind = OPT_FLAG, .dest = &describe,
                             .help = "print the run description after the table "
                                     "(COMMSWEEP_DESCRIBE=1; the seed's defaults print it "
                                     "before)"};
}

/* COMMSWEEP_DESCRIBE: unset, empty or 0 off, 1 on, anything else refused. */
static void settle_describe(void)
{
    const char *env = getenv("COMMSWEEP_DESCRIBE");
    if (describe || !env || !*env || strcmp(env, "0") == 0)
        return;
    if (strcmp(env, "1") != 0)
        err_usage("COMMSWEEP_DESCRIBE=%s: expected 0 or 1", env);
    describe = true;
}

struct opt_spec osu_defaults_option(void)
{
    return (struct opt_spec){.long_name = "defaults", .kind = OPT_CHOICE, .dest = &chosen,
                             .metavar = "omb|seed",
                             .help = "OMB 7.4's defaults (default) or the seed's "
                                     "(COMMSWEEP_DEFAULTS)",
                             .choices = names};
}

void osu_defaults_settle(void)
{
    settled = true;
    settle_describe();
    if (chosen >= 0)
        return;
    const char *env = getenv("COMMSWEEP_DEFAULTS");
    chosen = DEFAULTS_OMB;
    if (!env || !*env)
        return;
    for (int i = 0; names[i]; i++)
        if (strcmp(env, names[i]) == 0) {
            chosen = i;
            return;
        }
    err_usage("COMMSWEEP_DEFAULTS=%s: expected omb or seed", env);
}

bool osu_seed_defaults(void)
{
    if (!settled)
        err_fatal("the OSU defaults were read before the options");
    return chosen == DEFAULTS_SEED;
}

bool osu_describe(void) { return osu_seed_defaults() || describe; }

const char *osu_defaults_name(void) { return names[osu_seed_defaults() ? DEFAULTS_SEED : DEFAULTS_OMB]; }
