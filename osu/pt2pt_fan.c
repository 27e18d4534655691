/* pt2pt_fan: the fan tests' roles on the point-to-point driver; see
 * pt2pt_fan.h. */
#include "pt2pt_fan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fan_nodes.h"

const char *const pt2pt_fan_omb_columns[1] = {"Avg Latency(us)"};

static size_t ranks_per_node; /* --ranks-per-node, 0: by host name */
static struct fan_nodes nodes;
static int *partners;
static bool fan_in;

const struct opt_spec pt2pt_fan_options[1] = {
    {.long_name = "ranks-per-node", .kind = OPT_SIZE, .dest = &ranks_per_node, .metavar = "N",
     .help = "take blocks of N consecutive ranks as the nodes, not the host names (so that "
             "one node can run the test)",
     .min = 1},
};

/* Every rank's host name, gathered as long as the longest. */
static void find_nodes(void)
{
    char why[512];
    int rc;
    if (ranks_per_node) {
        rc = fan_nodes_by_block(&nodes, (size_t)harness.size, ranks_per_node, why, sizeof why);
    } else {
        char host[MPI_MAX_PROCESSOR_NAME + 1] = "";
        int len = 0, longest = 0;
        MPI_CHECK(MPI_Get_processor_name(host, &len));
        len = (int)strlen(host) + 1;
        MPI_CHECK(MPI_Allreduce(&len, &longest, 1, MPI_INT, MPI_MAX, harness.comm));
        char *all = malloc((size_t)longest * (size_t)harness.size);
        err_any(harness.comm, !all, ERR_STATUS_FAIL, "cannot allocate %d host names",
                harness.size);
        MPI_CHECK(MPI_Allgather(host, longest, MPI_CHAR, all, longest, MPI_CHAR, harness.comm));
        rc = fan_nodes_by_name(&nodes, all, (size_t)longest, (size_t)harness.size, why,
                               sizeof why);
        free(all);
    }
    if (rc) /* the same table on every rank: the same verdict */
        err_usage("%s", why);
}

static void setup(struct pt2pt_ctx *c, bool into_node0)
{
    fan_in = into_node0;
    find_nodes();
    partners = malloc((nodes.nodes - 1) * sizeof *partners);
    err_any(harness.comm, !partners, ERR_STATUS_FAIL, "cannot allocate %zu partners",
            nodes.nodes - 1);
    bool on_node0 = nodes.node_of[c->rank] == 0;
    c->peers = partners;
    c->npeers = fan_nodes_peers(&nodes, c->rank, partners);
    c->peer = partners[0];
    c->initiator = into_node0 ? !on_node0 : on_node0; /* the senders */
    c->timed = c->initiator;
    c->sends_data = c->initiator;
    c->receives_data = !c->initiator;
    c->npairs = nodes.per_node * (nodes.nodes - 1);
    /* -c: one slice per partner, so that each sender's bytes can be told
     * apart (without -c all land in one buffer, as in OMB 7.4). */
    c->slice_per_peer = c->opts->validate;
    c->slots = c->opts->validate ? nodes.nodes - 1 : 1;
    /* -z reports a sender's iterations: node 1's first rank in fan-in. */
    c->reporter = into_node0 ? nodes.rank_at[nodes.per_node] : 0;
    c->where = c->opts->where[c->initiator ? 0 : 1];
}

void pt2pt_fan_in_setup(struct pt2pt_ctx *c) { setup(c, true); }
void pt2pt_fan_out_setup(struct pt2pt_ctx *c) { setup(c, false); }

void pt2pt_fan_describe(const struct pt2pt_ctx *c)
{
    out_comment("nodes: %zu, %zu rank%s each, %s", nodes.nodes, nodes.per_node,
                nodes.per_node == 1 ? "" : "s",
                ranks_per_node ? "blocks of consecutive ranks (--ranks-per-node)"
                               : "by host name");
    char others[64];
    if (nodes.nodes == 2)
        snprintf(others, sizeof others, "node 1");
    else
        snprintf(others, sizeof others, "nodes 1 to %zu", nodes.nodes - 1);
    if (fan_in)
        out_comment("fan-in: every rank of %s sends to the rank of its local index on node 0 "
                    "(rank 0's)",
                    others);
    else
        out_comment("fan-out: every rank of node 0 (rank 0's) sends to the rank of its local "
                    "index on %s",
                    others);
    out_comment("bandwidth: the bytes of all %zu pairs over the mean time of the %zu sending "
                "ranks",
                c->npairs, fan_in ? c->npairs : nodes.per_node);
}

void pt2pt_fan_finish(struct pt2pt_ctx *c)
{
    (void)c;
    free(partners);
    partners = NULL;
    fan_nodes_free(&nodes);
}
