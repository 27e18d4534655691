/* cli: shared options and preamble of the measuring tools; see cli.h. */
#include "cli.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "out.h"
#include "report.h"
#include "watchdog.h"

void cli_common_specs(struct cli_common *c, struct opt_spec *s)
{
    struct cpm_msgset m = CPM_MSGSET_DEFAULT;
    struct cpm_precision p = CPM_PRECISION_DEFAULT;
    c->msgset = m;
    c->precision = p;
    c->parallel = false;
    c->timeout = 0.0;
    const struct opt_spec specs[CLI_COMMON_SPECS] = {
        {.short_name = 'm', .kind = OPT_SIZE, .dest = &c->msgset.min_size, .metavar = "BYTES",
         .help = "minimum message size (default 0)"},
        {.short_name = 'M', .kind = OPT_SIZE, .dest = &c->msgset.max_size, .metavar = "BYTES",
         .help = "maximum message size (default 65536)"},
        {.short_name = 'S', .kind = OPT_SIZE, .dest = &c->msgset.stride, .metavar = "BYTES",
         .help = "stride between sizes, 0 for an adaptive set (default 8192)"},
        {.short_name = 'd', .kind = OPT_DOUBLE, .dest = &c->msgset.max_diff, .metavar = "REL",
         .help = "adaptive set: largest relative distance from the line (default 0.1)"},
        {.short_name = 's', .kind = OPT_SIZE, .dest = &c->msgset.min_stride, .metavar = "BYTES",
         .help = "adaptive set: smallest stride (default 1024)", .min = 1},
        {.short_name = 'n', .kind = OPT_SIZE, .dest = &c->msgset.max_num, .metavar = "N",
         .help = "at most N message sizes (default 100)", .min = 1, .max = 1u << 20},
        {.short_name = 'r', .kind = OPT_SIZE, .dest = &c->precision.min_reps, .metavar = "N",
         .help = "minimum repetitions (default 5)", .min = 1, .max = 1u << 24},
        {.short_name = 'R', .kind = OPT_SIZE, .dest = &c->precision.max_reps, .metavar = "N",
         .help = "maximum repetitions (default 100)", .min = 1, .max = 1u << 24},
        {.short_name = 'c', .kind = OPT_DOUBLE, .dest = &c->precision.cl, .metavar = "LEVEL",
         .help = "confidence level, in (0, 1) (default 0.95)"},
        {.short_name = 'e', .kind = OPT_DOUBLE, .dest = &c->precision.eps, .metavar = "REL",
         .help = "relative error of the mean, in (0, 1) (default 0.025)"},
        {.short_name = 'p', .kind = OPT_FLAG, .dest = &c->parallel,
         .help = "parallel experiments on disjoint pairs/triplets"},
        WATCHDOG_OPT(&c->timeout),
    };
    memcpy(s, specs, sizeof specs);
}

/* Where -S sits in the shared specs. */
enum { CLI_SPEC_STRIDE = 2 };

void cli_parse(int argc, char **argv, struct cli_common *c, const struct opt_spec *extra,
               size_t nextra, const char *synopsis, const char *description,
               const char *no_stats, bool doubling)
{
    struct opt_spec all[CLI_COMMON_SPECS + nextra];
    cli_common_specs(c, all);
    if (doubling)
        all[CLI_SPEC_STRIDE].help = "stride between sizes, 0 for an adaptive set "
                                    "(default: sizes doubling from -m up to -M)";
    if (nextra)
        memcpy(all + CLI_COMMON_SPECS, extra, nextra * sizeof extra[0]);
    struct opt_usage usage = {synopsis, description, false, false, "cpm", no_stats,
                              "each experiment's repetitions stay on the rank that measured "
                              "them; rows carry their confidence interval and, with --stats, "
                              "their spread"};
    struct opt_result given;
    opt_parse(argc, argv, all, CLI_COMMON_SPECS + nextra, &usage, &given);
    int pos = opt_result_or_exit(&given, all, CLI_COMMON_SPECS + nextra, &usage);
    if (pos < argc)
        err_usage("unexpected argument '%s' (try --help)", argv[pos]);
    c->msgset.doubling = doubling && !given.given[CLI_SPEC_STRIDE];
    watchdog_configure(c->timeout);
    char err[200];
    if (cpm_msgset_check(&c->msgset, 1, err, sizeof err) != 0 ||
        cpm_precision_check(&c->precision, err, sizeof err) != 0)
        err_usage("%s", err);
    /* The largest experiment (one-to-two) holds two messages: find out now,
     * on every rank, whether that much memory can be had. */
    size_t max = c->msgset.max_size;
    void *probe = max <= (SIZE_MAX - 1) / 2 ? malloc(2 * max + 1) : NULL;
    err_any(MPI_COMM_WORLD, !probe, ERR_STATUS_USAGE,
            "cannot allocate messages of %zu bytes (-M too large)", max);
    free(probe);
}

void cli_preamble(const struct cli_common *c, int processes)
{
    const struct cpm_msgset *m = &c->msgset;
    const struct cpm_precision *p = &c->precision;
    out_comment("processors: %d", processes);
    if (m->doubling)
        out_comment("message set: min %zu, max %zu, doubling, at most %zu sizes", m->min_size,
                    m->max_size, m->max_num);
    else if (m->stride)
        out_comment("message set: min %zu, max %zu, stride %zu, at most %zu sizes", m->min_size,
                    m->max_size, m->stride, m->max_num);
    else
        out_comment("message set: min %zu, max %zu, adaptive (max_diff %g, min_stride %zu), "
                    "at most %zu sizes",
                    m->min_size, m->max_size, m->max_diff, m->min_stride, m->max_num);
    out_comment("precision: min_reps %zu, max_reps %zu, cl %g, eps %g", p->min_reps,
                p->max_reps, p->cl, p->eps);
    out_comment("experiments: %s", c->parallel ? "parallel" : "serial");
    out_comment("MPI_Wtick: %g s", cpm_wtick());
}

static const char *table_name;

void cli_table(const char *name, bool pairs)
{
    table_name = name;
    report_table(name, "time_s", REPORT_LOWER_BETTER, "time_s");
    if (pairs) {
        report_key("rank_i", REPORT_UNIT_COUNT);
        report_key("rank_j", REPORT_UNIT_COUNT);
    }
    report_key("size_bytes", REPORT_UNIT_BYTES);
    report_value("time_s", REPORT_UNIT_S);
    report_value("above_wtick", REPORT_UNIT_BOOL);
    report_value("ci_s", REPORT_UNIT_S);
}

void cli_columns(void)
{
    out_line("#msg time wtick reps ci%s", report_stats() ? " median p5 p95 cv" : "");
}

void cli_result_line(const struct cpm_result *r, double scale)
{
    char spread[128] = "";
    if (report_stats())
        snprintf(spread, sizeof spread, " %.9g %.9g %.9g %.9g", r->median * scale, r->p5 * scale,
                 r->p95 * scale, r->cv);
    out_line("%zu %.9g %d %zu %.9g%s", r->size, r->time * scale, r->above_wtick, r->reps,
             r->ci * scale, spread);
    report_row_begin(table_name);
    report_row_size("size_bytes", r->size);
    report_row_double("time_s", r->time * scale);
    report_row_bool("above_wtick", r->above_wtick);
    report_row_double("ci_s", r->ci * scale);
    report_row_iterations(NULL, r->reps, NULL);
    if (report_stats()) {
        report_row_double("median", r->median * scale);
        report_row_double("p5", r->p5 * scale);
        report_row_double("p95", r->p95 * scale);
        report_row_double("cv", r->cv);
    }
    report_row_end();
}

void cli_join_names(const char *const *names, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t k = 0; names[k] && used < len; k++)
        used += (size_t)snprintf(out + used, len - used, "%s%s",
                                 k == 0 ? "" : names[k + 1] ? ", " : " or ", names[k]);
}
