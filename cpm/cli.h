/*
 * cli: the options the measuring tools (model, p2p, collective) share, with
 * the letters MPIBlib users know: -m -M -S -d -s -n for the message set,
 * -r -R -c -e for the precision, -p for parallel experiments; and the '#'
 * preamble that records them above the data.
 */
#ifndef COMMSWEEP_CPM_CLI_H
#define COMMSWEEP_CPM_CLI_H

#include <stdbool.h>

#include "cpm_measure.h"
#include "opt.h"

struct cli_common {
    struct cpm_msgset msgset;
    struct cpm_precision precision;
    bool parallel;
    double timeout; /* --timeout: seconds one message size may take (0: no limit) */
};

#define CLI_COMMON_SPECS 12
/* Sets the defaults and fills specs[CLI_COMMON_SPECS]. */
void cli_common_specs(struct cli_common *c, struct opt_spec *specs);
/* Parses argv with the shared options plus extra; no positionals; checks
 * the message set and precision (err_usage on any problem). no_stats: why
 * the tool refuses --stats (NULL: its rows take it). doubling: without -S,
 * the sizes double from -m up to -M (collective, as prediction does: the
 * manual's rule), instead of the regular set of the default stride. */
void cli_parse(int argc, char **argv, struct cli_common *c, const struct opt_spec *extra,
               size_t nextra, const char *synopsis, const char *description,
               const char *no_stats, bool doubling);
/* "# processors", "# message set", "# precision", "# MPI_Wtick" lines. */
void cli_preamble(const struct cli_common *c, int processes);
/* The JSON table (report.h) the measured lines go to; pairs: its rows
 * carry the pair (rank_i, rank_j, set by the tool as row context). */
void cli_table(const char *name, bool pairs);
/* The column line of measured data (--stats: and the spread's). */
void cli_columns(void);
/* A measured line: size, time, above-wtick flag, repetitions, CI half-width
 * (--stats: median, P5, P95, CV of the repetitions), and its JSON row. */
void cli_result_line(const struct cpm_result *r, double scale);
/* "A, B or C" from NULL-terminated names, for help and messages. */
void cli_join_names(const char *const *names, char *out, size_t len);

#endif
