/* p2p: round trips between every pair of ranks over a message set, with the
 * precision rule; one block per pair of one-way times (half the round trip).
 * With -p the pairs of each round of the round-robin schedule run at once. */
#include <stdlib.h>

#include "cli.h"
#include "harness.h"
#include "report.h"

struct group_ctx {
    const struct cli_common *c;
    const int *pairs;
    size_t npairs;
    struct cpm_result *kept; /* [size][pair] when the pairs run together */
};

static void roundtrip_pair(MPI_Comm comm, int i, int j, size_t size, void *ctx,
                           struct cpm_result *r)
{
    const struct group_ctx *g = ctx;
    cpm_roundtrip(comm, i, j, size, size, &g->c->precision, r);
    /* One way is half the round trip (the relative spread stays). */
    r->time /= 2.0;
    r->ci /= 2.0;
    r->max_time /= 2.0;
    r->median /= 2.0;
    r->p5 /= 2.0;
    r->p95 /= 2.0;
}

/* A pair's block: its '#' line, its columns, and its key in JSON rows. */
static void pair_block(int i, int j)
{
    out_comment("pair %d %d", i, j);
    report_context_size("rank_i", (size_t)i);
    report_context_size("rank_j", (size_t)j);
    cli_columns();
}

static void measure_group(MPI_Comm comm, size_t size, void *ctx, struct cpm_result *r)
{
    struct group_ctx *g = ctx;
    cpm_measure_pair_group(comm, size, g->pairs, g->npairs, 1, roundtrip_pair, g, r);
}

static void keep(size_t index, const struct cpm_result *r, void *ctx)
{
    struct group_ctx *g = ctx;
    if (g->npairs == 1)
        cli_result_line(&r[0], 1.0);
    else
        for (size_t k = 0; k < g->npairs; k++)
            g->kept[index * g->npairs + k] = r[k];
}

int main(int argc, char **argv)
{
    harness_init(&argc, &argv, MPI_THREAD_SINGLE);
    struct cli_common c;
    cli_parse(argc, argv, &c, NULL, 0, "[options]",
              "Round trips i -> j -> i of every pair i < j over a message set, each size\n"
              "repeated until the confidence interval is narrow enough. Times are one way.\n"
              "Quadratic by nature: n(n-1)/2 pairs a size (n - 1 rounds of disjoint\n"
              "pairs with -p), a row each.",
              NULL, false);
    if (harness.size < 2)
        err_usage("p2p needs at least 2 processes");
    out_header("CPM point-to-point benchmark", argc, argv);
    cli_preamble(&c, harness.size);
    out_comment("time: one way (half the round trip), seconds; ci: half-width of the interval");
    cli_table("cpm_p2p", true);

    int *pairs = calloc((size_t)harness.size + 1, sizeof *pairs);
    struct cpm_result *kept = calloc(c.msgset.max_num * ((size_t)harness.size / 2 + 1),
                                     sizeof *kept);
    if (!pairs || !kept)
        err_fatal("out of memory for %zu results", c.msgset.max_num);
    for (int group = 0; group < cpm_pair_groups(harness.size, c.parallel); group++) {
        size_t npairs = cpm_pair_group(harness.size, c.parallel, group, pairs);
        struct group_ctx g = {&c, pairs, npairs, kept};
        if (npairs == 1)
            pair_block(pairs[0], pairs[1]);
        size_t count = cpm_msgset_run(MPI_COMM_WORLD, &c.msgset, npairs, measure_group, &g, keep,
                                      NULL);
        if (npairs == 1) {
            out_block_end();
            continue;
        }
        for (size_t k = 0; k < npairs; k++) {
            pair_block(pairs[2 * k], pairs[2 * k + 1]);
            for (size_t s = 0; s < count; s++)
                cli_result_line(&kept[s * npairs + k], 1.0);
            out_block_end();
        }
    }
    free(pairs);
    free(kept);
    harness_finish(ERR_STATUS_OK);
}
