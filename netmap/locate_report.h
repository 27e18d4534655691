/*
 * locate_report: what netmap/locate prints, as text and JSON Lines rows:
 * the class references, each finding with the measurements behind it, a
 * line per node, and the verdict. Printing rank only; declare runs on
 * every rank, before any row.
 */
#ifndef COMMSWEEP_NETMAP_LOCATE_REPORT_H
#define COMMSWEEP_NETMAP_LOCATE_REPORT_H

#include <stddef.h>

#include "judge.h"
#include "netmap.h"
#include "pinpoint.h"

/* The JSON tables: netmap_locate_round, _node, _culprit and _verdict. */
void locate_report_declare(void);

/* "# reference (METRIC, CLASS pairs): median, MAD, over N figures". */
void locate_report_references(const struct judge *j);

/* A "# culprit" or "# cleared" line per finding, its tests indented below. */
void locate_report_findings(const struct netmap *nm, const struct pinpoint *l);

/* The per-node block, over the screening's figures obs[0..nobs). */
void locate_report_nodes(const struct netmap *nm, const struct judge_obs *obs, size_t nobs,
                         const struct pinpoint *l);

/* The "# verdict" line(s) and row. */
void locate_report_verdict(const struct netmap *nm, const struct judge_obs *obs, size_t nobs,
                           size_t rounds, const struct pinpoint *l);

#endif
