/* group_rows: see group_rows.h. */
#include "group_rows.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "harness.h"
#include "out.h"
#include "report.h"

void group_rows_init(struct group_rows *g, const struct coll_layout *lay, size_t nsizes,
                     bool higher_better, bool unsized)
{
    memset(g, 0, sizeof *g);
    g->lay = lay;
    g->nsizes = nsizes;
    g->higher_better = higher_better;
    g->unsized = unsized;
    g->ladder = nsizes == 0;
    bool root = harness.rank == 0, json = report_jsonl();
    size_t sets = (size_t)lay->nsets, kept = sets * nsizes;
    g->counts = malloc(2 * (size_t)harness.size * sizeof *g->counts);
    bool failed = !g->counts;
    if (root) {
        g->text = malloc(sets * GROUP_ROWS_TEXT);
        g->json = json ? malloc(sets * GROUP_ROWS_JSON) : NULL;
        g->kept = kept ? malloc(kept * GROUP_ROWS_TEXT) : NULL;
        g->kept_json = kept && json ? malloc(kept * GROUP_ROWS_JSON) : NULL;
        g->worst = nsizes ? malloc(nsizes * sizeof *g->worst) : NULL;
        failed = failed || !g->text || (json && !g->json) || (kept && !g->kept) ||
                 (kept && json && !g->kept_json) || (nsizes && !g->worst);
    }
    err_any(harness.comm, failed, ERR_STATUS_FAIL, "cannot allocate the rows of %d groups",
            lay->nsets);
    g->displs = g->counts + harness.size;
    for (int w = 0; w < harness.size; w++) {
        int set = lay->set_of[w];
        bool first = set >= 0 && lay->root_of[set] == w;
        g->counts[w] = first ? 1 : 0;
        g->displs[w] = first ? set : 0;
    }
}

void group_rows_ladder_line(const int *counts, size_t nsteps)
{
    char list[256] = "";
    size_t used = 0;
    for (size_t s = 0; s < nsteps && used < sizeof list; s++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%d", s ? ", " : "",
                                 counts[s]);
    out_comment("np-ladder: the sweep on the first %s ranks in turn, a block each; the other "
                "ranks wait",
                list);
}

void group_rows_ladder_step(struct group_rows *g, struct coll_layout *lay, int count,
                            bool higher_better, bool unsized)
{
    coll_layout_first(harness.comm, count, lay);
    group_rows_init(g, lay, 0, higher_better, unsized);
    coll_layout_describe(lay, 0, "np-ladder");
    report_context_size("ladder_ranks", (size_t)count);
}

void group_rows_announce(const struct group_rows *g, const struct coll_groups_spec *spec,
                         size_t node_block, const char *first_column)
{
    const struct coll_layout *l = g->lay;
    char name[64];
    coll_groups_name(spec, name, sizeof name);
    char nodes[96] = "";
    if (node_block)
        snprintf(nodes, sizeof nodes, "; nodes: blocks of %zu ranks (--nodes-by-block)",
                 node_block);
    out_comment("groups (--groups=%s): %d concurrent group%s, each on its own "
                "communicator%s",
                name, l->nsets, l->nsets == 1 ? "" : "s", nodes);
    for (int s = 0; s < l->nsets; s++) {
        char label[32];
        snprintf(label, sizeof label, "group %d", s);
        coll_layout_describe(l, s, label);
    }
    out_comment("each size: every group's row as it is measured ('# group G row:'); after the "
                "sweep a block per group, then the worst group's: at each size the row of the "
                "group with the %s %s (IMB's -multi 0)",
                g->higher_better ? "lowest" : "largest", first_column);
}

/* One row of len bytes from each group's first rank, group s's at s. */
static void gather(const struct group_rows *g, const char *mine, char *all, size_t len)
{
    MPI_Datatype row;
    MPI_CHECK(MPI_Type_contiguous((int)len, MPI_CHAR, &row));
    MPI_CHECK(MPI_Type_commit(&row));
    MPI_CHECK(MPI_Gatherv(mine, g->counts[harness.rank], row, all, g->counts, g->displs, row, 0,
                          harness.comm));
    MPI_CHECK(MPI_Type_free(&row));
}

void group_rows_measure(struct group_rows *g, void (*measure)(void *ctx), void *ctx)
{
    g->mine[0] = g->mine_json[0] = '\0';
    if (g->lay->comm != MPI_COMM_NULL) {
        int rank;
        MPI_CHECK(MPI_Comm_rank(g->lay->comm, &rank));
        osu_row_capture(g->mine, sizeof g->mine);
        if (rank == 0)
            report_row_capture(g->mine_json, sizeof g->mine_json);
        measure(ctx);
        osu_row_capture(NULL, 0);
        report_row_capture(NULL, 0);
    }
    gather(g, g->mine, g->text, GROUP_ROWS_TEXT);
    if (report_jsonl())
        gather(g, g->mine_json, g->json, GROUP_ROWS_JSON);
}

void group_rows_check(const struct group_rows *g, bool failed, const char *fmt, ...)
{
    char what[512] = "";
    int set = g->lay->set_of[harness.rank];
    failed = failed && set >= 0;
    if (failed) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(what, sizeof what, fmt, ap);
        va_end(ap);
    }
    if (g->ladder)
        err_check(harness.comm, failed, "%s (world rank %d, in the step of %d ranks)", what,
                  harness.rank, set >= 0 ? g->lay->set_size[set] : 0);
    else
        err_check(harness.comm, failed, "%s (world rank %d, group %d)", what, harness.rank,
                  set);
}

const char *group_rows_text(const struct group_rows *g, int set)
{
    return g->text + (size_t)set * GROUP_ROWS_TEXT;
}
static const char *json_of(const struct group_rows *g, int set)
{
    return g->json ? g->json + (size_t)set * GROUP_ROWS_JSON : "";
}

void group_rows_write_step(const struct group_rows *g)
{
    if (harness.rank == 0)
        out_line("%s", group_rows_text(g, 0));
    report_row_write(json_of(g, 0), NULL, false);
}

/* The first value of a row: after the size, where it has one. */
static double first_value(const struct group_rows *g, const char *row)
{
    char *end = (char *)row;
    if (!g->unsized)
        (void)strtoull(row, &end, 10);
    return strtod(end, NULL);
}

static size_t at(const struct group_rows *g, int set, size_t i)
{
    return (size_t)set * g->nsizes + i;
}

void group_rows_keep(struct group_rows *g, size_t i)
{
    if (harness.rank != 0)
        return;
    for (int s = 0; s < g->lay->nsets; s++) {
        const char *row = group_rows_text(g, s);
        if (!report_jsonl()) /* there the row itself is written now */
            out_comment("group %d row: %s", s, row);
        report_row_write(json_of(g, s), "worst_group", false);
        memcpy(g->kept + at(g, s, i) * GROUP_ROWS_TEXT, row, GROUP_ROWS_TEXT);
        if (g->kept_json)
            memcpy(g->kept_json + at(g, s, i) * GROUP_ROWS_JSON, json_of(g, s),
                   GROUP_ROWS_JSON);
        double v = first_value(g, row);
        double w = s ? first_value(g, g->kept + at(g, g->worst[i], i) * GROUP_ROWS_TEXT) : 0;
        if (s == 0 || (g->higher_better ? v < w : v > w))
            g->worst[i] = s;
    }
}

void group_rows_blocks(const struct group_rows *g, const char *heading, const char *first_column)
{
    if (harness.rank != 0)
        return;
    const struct coll_layout *l = g->lay;
    for (int s = 0; s < l->nsets; s++) {
        if (s > 0)
            out_block_end();
        char label[32];
        snprintf(label, sizeof label, "group %d", s);
        coll_layout_describe(l, s, label);
        out_line("%s", heading);
        for (size_t i = 0; i < g->nsizes; i++)
            out_line("%s", g->kept + at(g, s, i) * GROUP_ROWS_TEXT);
    }
    out_block_end();
    out_comment("worst group: at each size the row of the group with the %s %s over the %d "
                "groups (IMB's -multi 0), after a '#' line naming it",
                g->higher_better ? "lowest" : "largest", first_column, l->nsets);
    out_line("%s", heading);
    for (size_t i = 0; i < g->nsizes; i++) {
        out_comment("worst: group %d", g->worst[i]);
        out_line("%s", g->kept + at(g, g->worst[i], i) * GROUP_ROWS_TEXT);
        if (g->kept_json)
            report_row_write(g->kept_json + at(g, g->worst[i], i) * GROUP_ROWS_JSON,
                             "worst_group", true);
    }
}

void group_rows_free(struct group_rows *g)
{
    free(g->text);
    free(g->json);
    free(g->kept);
    free(g->kept_json);
    free(g->worst);
    free(g->counts);
    memset(g, 0, sizeof *g);
}
