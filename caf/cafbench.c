/* cafbench: coarray-style benchmarks (ping-pong, synchronisation, halo swap)
 * written over MPI one-sided communication through the caf_rma layer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "caf_bench.h"
#include "caf_pattern.h"
#include "caf_rma.h"
#include "harness.h"
#include "report.h"
#include "watchdog.h"

#define CAF_MAX_HALO_N 1000 /* (n+2)^3 doubles must stay below CAF_MAX_ELEMENTS */

static int parse_maxndata(const char *arg, void *dest, char *err, size_t errlen)
{
    if (opt_to_size(arg, "maxndata", 2, CAF_MAX_ELEMENTS, dest, err, errlen))
        return -1;
    if (!caf_is_power_of_two(*(size_t *)dest)) {
        snprintf(err, errlen, "must be a power of two");
        return -1;
    }
    return 0;
}

static int parse_halo_sizes(const char *arg, void *dest, char *err, size_t errlen)
{
    struct caf_config *cfg = dest;
    size_t n = 0;
    const char *p = arg;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char item[32];
        if (len == 0 || len >= sizeof item) {
            snprintf(err, errlen, "expected a comma-separated list of sizes");
            return -1;
        }
        if (n == CAF_MAX_HALO_SIZES) {
            snprintf(err, errlen, "at most %d sizes", CAF_MAX_HALO_SIZES);
            return -1;
        }
        memcpy(item, p, len);
        item[len] = '\0';
        if (opt_to_size(item, "halo size", 1, CAF_MAX_HALO_N, &cfg->halo_sizes[n], err,
                        errlen))
            return -1;
        n++;
        if (!comma)
            break;
        p = comma + 1;
    }
    cfg->nhalo_sizes = n;
    return 0;
}

static void parse(struct caf_config *cfg, int argc, char **argv)
{
    *cfg = (struct caf_config){
        .maxndata = (size_t)4 << 20, .maxstride = 128, .target_time = 0.5,
        .sync_outer = 100, .sync_inner = 200, .sync_delay = 10000, .sync_maxneigh = 12,
        .halo_sizes = {10, 50, 100, 150}, .nhalo_sizes = 4,
    };
    bool single = false, multiple = false, crossing = false;
    const struct opt_spec specs[] = {
        {"p2p", 0, OPT_FLAG, &cfg->p2p, NULL, "run the point-to-point section", 0, 0, false, NULL, NULL},
        {"sync", 0, OPT_FLAG, &cfg->sync, NULL, "run the synchronisation section", 0, 0, false, NULL, NULL},
        {"halo", 0, OPT_FLAG, &cfg->halo, NULL, "run the halo section (none of the three: all)", 0, 0, false, NULL, NULL},
        {"single", 0, OPT_FLAG, &single, NULL, "ping-pong between the first and last image", 0, 0, false, NULL, NULL},
        {"multiple", 0, OPT_FLAG, &multiple, NULL, "ping-pong of image i with i+n/2, all at once", 0, 0, false, NULL, NULL},
        {"crossing", 0, OPT_FLAG, &crossing, NULL, "as multiple, every other pair reversed (none of the three: all)", 0, 0, false, NULL, NULL},
        {"maxndata", 0, OPT_CUSTOM, &cfg->maxndata, "N", "largest array in doubles, a power of two (4194304)", 0, 0, false, NULL, parse_maxndata},
        {"maxstride", 0, OPT_SIZE, &cfg->maxstride, "N", "largest stride of the strided patterns (128)", 1, CAF_MAX_ELEMENTS, false, NULL, NULL},
        {"target-time", 0, OPT_DOUBLE, &cfg->target_time, "SECONDS", "time each measurement aims at (0.5)", 0, OPT_SECONDS_MAX, false, NULL, NULL},
        {"sync-outer", 0, OPT_SIZE, &cfg->sync_outer, "N", "samples per synchronisation test (100)", 1, 10000000, false, NULL, NULL},
        {"sync-inner", 0, OPT_SIZE, &cfg->sync_inner, "N", "synchronisations per sample (200)", 1, 1000000000, false, NULL, NULL},
        {"sync-delay", 0, OPT_SIZE, &cfg->sync_delay, "N", "delay before each synchronisation, in units of 100 dependent additions (10000)", 1, 1000000000, false, NULL, NULL},
        {"sync-maxneigh", 0, OPT_SIZE, &cfg->sync_maxneigh, "N", "most neighbours of sync images random/ring (12)", 2, 100000, false, NULL, NULL},
        {"halo-sizes", 0, OPT_CUSTOM, cfg, "N,N,...", "halo block edges (10,50,100,150)", 0, 0, false, NULL, parse_halo_sizes},
        {"original-units", 0, OPT_FLAG, &cfg->original_units, NULL, "p2p and halo latency in s and bandwidth in MiB/s, as the original (us, MB/s)", 0, 0, false, NULL, NULL},
        {"check", 0, OPT_FLAG, &cfg->check, NULL, "verify every element moved (timed, with a global check each step, as the original)", 0, 0, false, NULL, NULL},
        WATCHDOG_OPT(&cfg->timeout),
    };
    const struct opt_usage usage = {
        "[options]",
        "Coarray-style benchmarks over MPI one-sided communication: ping-pong put/get\n"
        "patterns, synchronisation overheads, 3-D halo swap. Output: '#' headers and\n"
        "gnuplot blocks. COMMSWEEP_CORRUPT=1 damages received data (tests --check).",
        false, false, "caf", NULL, NULL};
    int first = opt_parse_or_exit(argc, argv, specs, sizeof specs / sizeof specs[0], &usage);
    if (first < argc)
        err_usage("unexpected argument '%s' (try --help)", argv[first]);
    watchdog_name_step("measurement");
    watchdog_configure(cfg->timeout);
    if (!cfg->p2p && !cfg->sync && !cfg->halo)
        cfg->p2p = cfg->sync = cfg->halo = true;
    if (!single && !multiple && !crossing)
        single = multiple = crossing = true;
    cfg->modes[CAF_SINGLE] = single;
    cfg->modes[CAF_MULTIPLE] = multiple;
    cfg->modes[CAF_CROSSING] = crossing;
    /* Every checking image damages what it received, not just one rank. */
    cfg->corrupt = buf_corrupt_rank() >= 0;
    if (report_per_iteration() && (cfg->p2p || cfg->halo))
        err_usage("--stats, --samples: the p2p and halo sections time their repetitions as one "
                  "stretch, with no per-repetition times; use them with --sync alone");
}

static void print_settings(const struct caf_config *cfg)
{
    char sizes[CAF_MAX_HALO_SIZES * 8] = "";
    for (size_t i = 0; i < cfg->nhalo_sizes; i++)
        snprintf(sizes + strlen(sizes), sizeof sizes - strlen(sizes), "%s%zu", i ? "," : "",
                 cfg->halo_sizes[i]);
    out_comment("sections:%s%s%s modes:%s%s%s", cfg->p2p ? " p2p" : "", cfg->sync ? " sync" : "",
                cfg->halo ? " halo" : "", cfg->modes[CAF_SINGLE] ? " single" : "",
                cfg->modes[CAF_MULTIPLE] ? " multiple" : "",
                cfg->modes[CAF_CROSSING] ? " crossing" : "");
    out_comment("maxndata %zu maxstride %zu target-time %g s; sync outer %zu inner %zu delay "
                "%zu maxneigh %zu; halo sizes %s",
                cfg->maxndata, cfg->maxstride, cfg->target_time, cfg->sync_outer,
                cfg->sync_inner, cfg->sync_delay, cfg->sync_maxneigh, sizes);
    out_comment("data verification: %s%s%s", cfg->check ? "on" : "off",
                cfg->check ? " (timed, as the original: setting, checking and a global check, "
                             "sync all + MPI_Allreduce + sync all, after each half of every "
                             "ping-pong and every halo swap)"
                           : "",
                cfg->corrupt ? " (COMMSWEEP_CORRUPT=1: received data is damaged on purpose)"
                             : "");
    out_comment("images are ranks + 1; data are doubles");
}

int main(int argc, char **argv)
{
    harness_init(&argc, &argv, MPI_THREAD_SINGLE);
    struct caf_config cfg;
    parse(&cfg, argc, argv);
    out_header("cafbench: coarray-style benchmarks over MPI RMA", argc, argv);
    print_settings(&cfg);
    report_validation(cfg.check);
    if (cfg.p2p)
        caf_p2p_declare();
    if (cfg.sync)
        caf_sync_declare();
    if (cfg.halo)
        caf_halo_declare();
    caf_init();
    bool ok = true;
    if (cfg.p2p)
        ok &= caf_p2p_run(&cfg);
    if (cfg.sync)
        ok &= caf_sync_run(&cfg);
    if (cfg.halo)
        ok &= caf_halo_run(&cfg);
    caf_finalize();
    /* ok is every image's verdict: the lowest, image 1, says it. */
    err_check(MPI_COMM_WORLD, !ok, "data verification failed (see the lines above)");
    if (cfg.check)
        out_comment("all results validated");
    harness_finish(ERR_STATUS_OK);
}
