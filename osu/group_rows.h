/*
 * group_rows: the rows of groups that measure at once (--groups) or in
 * turn (--np-ladder), in the collectives and the multi-pair point-to-point
 * programs. Each group's first rank builds its row (text, and the JSON
 * object in JSON Lines) as if it printed it; the world's rank 0 gathers
 * them from those ranks only and prints them: as they come ('# group G
 * row:' lines, JSON rows with their group), and after the sweep a block
 * per group and the worst group's block (IMB's -multi 0: at each size the
 * row of the group with the worst first value). The layout itself is
 * coll_groups'; the measuring stays in the drivers.
 */
#ifndef COMMSWEEP_OSU_GROUP_ROWS_H
#define COMMSWEEP_OSU_GROUP_ROWS_H

#include <stdbool.h>
#include <stddef.h>

#include "coll_groups.h"
#include "osu.h"

#define GROUP_ROWS_TEXT sizeof(((struct osu_row *)0)->text)
/* A row's JSON object (--samples, whose rows have no bound, is refused). */
#define GROUP_ROWS_JSON 4096

struct group_rows {
    const struct coll_layout *lay;
    size_t nsizes;       /* rows each group has in a sweep (0: none kept) */
    bool higher_better;  /* the first value is a rate: the worst is the lowest */
    bool unsized;        /* rows start with their first value, not a size */
    bool ladder;         /* the steps of --np-ladder (nsizes 0), not --groups */
    char mine[GROUP_ROWS_TEXT], mine_json[GROUP_ROWS_JSON];
    char *text, *json;   /* world rank 0: this size's row of each group */
    char *kept, *kept_json; /* world rank 0: every group's row of every size */
    int *worst;          /* world rank 0: per size, the worst group */
    int *counts, *displs; /* per world rank: the bytes it sends and where */
};

/* Collective over the world (the ranks agree on a failed allocation):
 * room for the rows of lay's groups, nsizes of each kept for the blocks
 * after the sweep (0 for a ladder, which prints as it goes). */
void group_rows_init(struct group_rows *g, const struct coll_layout *lay, size_t nsizes,
                     bool higher_better, bool unsized);
/* --np-ladder. group_rows_ladder_line: rank 0's '#' line that lists the
 * nsteps steps' rank counts (coll_groups_ladder's). group_rows_ladder_step,
 * collective over the world: the step of the first count ranks, its layout
 * into lay and g initialised for its rows (to be freed after the step),
 * its '#' lines and its JSON context (ladder_ranks). */
void group_rows_ladder_line(const int *counts, size_t nsteps);
void group_rows_ladder_step(struct group_rows *g, struct coll_layout *lay, int count,
                            bool higher_better, bool unsized);
/* Rank 0: the '#' lines that open a run of groups: the layout, each
 * group's ranks and hosts, and what the rows will be. */
void group_rows_announce(const struct group_rows *g, const struct coll_groups_spec *spec,
                         size_t node_block, const char *first_column);
/* Collective over the world: one size in every group at once. The ranks
 * of a group run measure(ctx), their rows going to g (the JSON too on the
 * group's first rank) rather than out; then the groups' rows go to world
 * rank 0. */
void group_rows_measure(struct group_rows *g, void (*measure)(void *ctx), void *ctx);
/* Collective over the world, after group_rows_measure: the world's verdict
 * on the data checks (err_check), the message of a rank whose check failed
 * followed by where that rank is: "(world rank R, group G)", or on a
 * ladder "(world rank R, in the step of N ranks)". */
void group_rows_check(const struct group_rows *g, bool failed, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* World rank 0 after the gather: group set's row of this size. */
const char *group_rows_text(const struct group_rows *g, int set);
/* After the gather, on a ladder (one group, world rank 0 in it): world
 * rank 0 writes the step's row as it comes, text and JSON object. */
void group_rows_write_step(const struct group_rows *g);
/* World rank 0 after the gather of size index i: every group's row as a
 * '# group G row:' line (text) or a JSON row, kept for the blocks. */
void group_rows_keep(struct group_rows *g, size_t i);
/* World rank 0 after the sweep: a block per group (its description, the
 * heading, its rows) and the worst group's, each row after a '# worst:'
 * line; in JSON Lines the worst group's rows flagged worst_group. */
void group_rows_blocks(const struct group_rows *g, const char *heading, const char *first_column);
void group_rows_free(struct group_rows *g);

#endif
